// Package sandboxprofile points a profile at a running sandbox: the
// dashboard's configuration of the embedded sandbox, and the one tests
// open a platform with. It sits outside sandbox/ so the simulator imports
// no configuration (it speaks only the wire).
package sandboxprofile

import (
	"strings"

	"treasury/config"
	"treasury/sandbox"
	"treasury/wire/wallet"
)

// Of points every interface of base (the built-in sandbox profile,
// or any profile whose refresh and alert settings should apply) at this
// running sandbox with its credentials: the dashboard's configuration for
// the embedded sandbox, and the one tests open a platform with. The
// custody signing key is the sandbox operator's.
func Of(s *sandbox.Server, base *config.Config) *config.Config {
	return At(base, s.URL, s.Seed(), s.Credentials())
}

// At is Of for a sandbox served at url (its root, as
// Server.URL) by another process, started with seed and creds (a test's
// child process, given the URL of its parent's sandbox or of a proxy in
// front of it).
func At(base *config.Config, url string, seed int64, c sandbox.Credentials) *config.Config {
	cfg := *base
	ep := (&sandbox.Server{URL: url}).Endpoints()
	cfg.Embedded = nil
	cfg.Liquidity = &config.Liquidity{BaseURL: ep.Liquidity, Token: config.NewSecret(c.LiquidityToken)}
	cfg.Payments = &config.Payments{BaseURL: ep.Payments, AuthURL: ep.Auth, Audience: c.PaymentsAudience,
		ClientID: c.PaymentsClientID, ClientSecret: config.NewSecret(c.PaymentsClientSecret)}
	cfg.Reporting = &config.Reporting{BaseURL: ep.Reporting}
	cfg.Wallet = &config.Wallet{BaseURL: ep.Wallet}
	for _, wc := range c.Wallet {
		cl := config.Client{ClientID: wc.ClientID, ClientSecret: config.NewSecret(wc.ClientSecret)}
		switch strings.ToUpper(wc.Type) {
		case wallet.CredMonitoring:
			cfg.Wallet.Client = cl
		case wallet.CredControls:
			cfg.Wallet.Controls = &cl
		case wallet.CredTransactions:
			cfg.Wallet.Transactions = &cl
		}
	}
	cfg.Custody = &config.Custody{BaseURL: ep.Custody, DomainID: c.CustodyDomainID, UserID: sandbox.OperatorID(seed),
		Token: config.NewSecret(c.CustodyToken), SigningKey: sandbox.OperatorKey(seed)}
	return &cfg
}
