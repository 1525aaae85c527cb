// Package sandbox is the `treasury sandbox` command: the embedded sandbox
// (package treasury/sandbox) served on a TCP address, with a profile for
// it written on request.
package sandbox

import (
	"context"
	"crypto/x509"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"treasury/commands/cli"
	"treasury/config"
	"treasury/kit/pubkey"
	"treasury/process"
	"treasury/sandbox"
	"treasury/wire/wallet"
	"treasury/wire/webhook"
)

// sandboxFlags are the flags of `treasury sandbox`.
type sandboxFlags struct {
	addr          string
	seed          int64
	speed         float64
	writeProfile  string
	profileName   string
	webhookListen string
	dupRate       float64
	reorderRate   float64
	history       int
	accounts      int
	liveRate      float64
	retain        time.Duration
	variant       bool
	creds         sandbox.Credentials
	faults        faultFlags
}

// faultFlags are the faults the sandbox starts with; PATCH /_sandbox/faults
// changes them while it runs.
type faultFlags struct {
	latency, jitter, answerLatency, tokenLifetime time.Duration
	errorRate, unavailableRate, malformedRate     float64
	hostile                                       bool
}

func (f *faultFlags) register(fs *flag.FlagSet) {
	fs.DurationVar(&f.latency, "latency", 0, "add this `delay` to every request")
	fs.DurationVar(&f.jitter, "latency-jitter", 0, "add up to this much more, at random")
	fs.DurationVar(&f.answerLatency, "answer-latency", 0, "serve each request at once and answer it this `delay` later (applied, answered late)")
	fs.Float64Var(&f.errorRate, "error-rate", 0, "share (0 to 1) of requests answered 500 (SYS_, gRPC 13, plain 500)")
	fs.Float64Var(&f.unavailableRate, "unavailable-rate", 0, "share (0 to 1) of requests answered 503 (gRPC 14 for wallet)")
	fs.Float64Var(&f.malformedRate, "malformed-rate", 0, "share (0 to 1) of requests answered 200 with a body that is not JSON")
	fs.DurationVar(&f.tokenLifetime, "token-lifetime", 0, "tokens die this long after issue although expires_in says 3600 (early expiry)")
	fs.BoolVar(&f.hostile, "hostile", false, "put escape sequences, control and bidi characters into names, aliases and descriptions")
}

func (f faultFlags) settings() sandbox.FaultSettings {
	return sandbox.FaultSettings{Latency: sandbox.Duration(f.latency), LatencyJitter: sandbox.Duration(f.jitter),
		AnswerLatency: sandbox.Duration(f.answerLatency),
		ErrorRate:     f.errorRate, UnavailableRate: f.unavailableRate, MalformedRate: f.malformedRate,
		TokenLifetime: sandbox.Duration(f.tokenLifetime), Hostile: f.hostile}
}

func (f *sandboxFlags) register(fs *flag.FlagSet) {
	c := &f.creds
	*c = sandbox.DefaultCredentials()
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8787", "`host:port` to serve on (port 0 picks a free one)")
	fs.Int64Var(&f.seed, "seed", 1, "world seed: the same seed gives the same world")
	fs.Float64Var(&f.speed, "speed", 1, "run the sandbox clock this many times faster than real time")
	fs.StringVar(&f.writeProfile, "write-profile", "", "write a profile for this sandbox to `file` (secrets beside it, mode 0600) and deliver webhooks to its receiver")
	fs.StringVar(&f.profileName, "profile-name", "local-sandbox", "name of the written profile")
	fs.StringVar(&f.webhookListen, "webhook-listen", "", "`host:port` of the webhook receiver in the written profile (default: a loopback port free when the profile is written, so that two sandboxes never deliver to one receiver)")
	fs.Float64Var(&f.dupRate, "webhook-duplicates", 0, "share (0 to 1) of webhooks delivered twice")
	fs.Float64Var(&f.reorderRate, "webhook-reorder", 0, "share (0 to 1) of webhooks delivered out of order")
	fs.IntVar(&f.history, "history-payments", 3000, "payments synthesized before start, over the previous two months and the month to date (at least 1)")
	fs.IntVar(&f.accounts, "accounts", 3, "prefunded accounts of the payments org, 1 to 8: USD, EUR, GBP, then CAD, AUD, CHF, SGD, HKD")
	fs.Float64Var(&f.liveRate, "live-rate", 12, "new payments per minute of sandbox time (0: none)")
	fs.DurationVar(&f.retain, "retain", 0, "how far back (sandbox time) the world keeps settled payments and ledger entries (0: what the reports cover, from the first of the month two months back)")
	fs.BoolVar(&f.variant, "variant", false, "answer as another legal implementation would where the spec leaves a choice open (see docs/sandbox.md)")
	f.faults.register(fs)
	fs.StringVar(&c.PaymentsClientID, "payments-client-id", c.PaymentsClientID, "payments client id")
	fs.StringVar(&c.PaymentsClientSecret, "payments-client-secret", c.PaymentsClientSecret, "payments client secret")
	fs.StringVar(&c.PaymentsAudience, "payments-audience", c.PaymentsAudience, "payments token audience")
	fs.StringVar(&c.LiquidityToken, "liquidity-token", c.LiquidityToken, "liquidity bearer token")
	fs.StringVar(&c.CustodyToken, "custody-token", c.CustodyToken, "custody bearer token")
	fs.StringVar(&c.CustodyDomainID, "custody-domain-id", c.CustodyDomainID, "custody domain id (UUID)")
	for i := range c.Wallet {
		w := &c.Wallet[i]
		fs.StringVar(&w.ClientSecret, "wallet-"+w.ClientID+"-secret", w.ClientSecret, "secret of wallet client "+w.ClientID+" ("+w.Type+")")
	}
}

// validate reports a flag value out of range.
func (f sandboxFlags) validate() error {
	if f.history < 1 {
		return fmt.Errorf("--history-payments must be at least 1, got %d", f.history)
	}
	if f.accounts < 1 || f.accounts > 8 {
		return fmt.Errorf("--accounts must be 1 to 8, got %d", f.accounts)
	}
	if f.liveRate < 0 {
		return fmt.Errorf("--live-rate must not be negative, got %g", f.liveRate)
	}
	return f.faults.settings().Validate()
}

// options are the sandbox options the flags ask for. A live rate of 0 is
// "none", which Options spells as a negative rate (its zero is the default).
func (f sandboxFlags) options() sandbox.Options {
	live := f.liveRate
	if live == 0 {
		live = -1
	}
	return sandbox.Options{Seed: f.seed, Speed: f.speed, Credentials: f.creds, Faults: f.faults.settings(),
		HistoryPayments: f.history, LivePaymentsPerMinute: live, Variant: f.variant, Retain: f.retain, Accounts: f.accounts,
		Webhooks: sandbox.WebhookOptions{DuplicateRate: f.dupRate, ReorderRate: f.reorderRate}}
}

// Command serves the embedded sandbox until ctx ends (SIGINT or SIGTERM
// in main), printing how to reach and use it.
func Command(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
	var f sandboxFlags
	fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	f.register(fs)
	if err := cli.ParseFlags(fs, e, &g, args); err != nil {
		return err
	}
	if err := f.validate(); err != nil {
		fmt.Fprintln(e.Stderr, "treasury sandbox:", err)
		return cli.ErrUsage
	}
	srv, err := sandbox.Listen(f.addr, f.options())
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	defer srv.Close()
	pubPEM, err := pubkey.MarshalPEM(srv.WebhookPublicKey())
	if err != nil {
		return err
	}
	printSandbox(e.Stdout, srv, f, pubPEM)
	if f.writeProfile != "" {
		if f.webhookListen == "" {
			if f.webhookListen, err = freeLoopbackAddr(); err != nil {
				return fmt.Errorf("write profile: a port for the webhook receiver: %w", err)
			}
		}
		w, err := WriteProfile(srv, f.writeProfile, f.profileName, f.webhookListen, pubPEM)
		if err != nil {
			return fmt.Errorf("write profile: %w", err)
		}
		fmt.Fprintf(e.Stdout, "\nprofile %q written to %s (secrets in %s)\nrun: treasury --config %s\nwebhooks are delivered to %s\n",
			w.Profile, w.Path, w.SecretsDir, w.Path, w.WebhookURL)
	}
	fmt.Fprintln(e.Stdout, "\nserving; Ctrl-C to stop")
	<-ctx.Done()
	fmt.Fprintln(e.Stdout, "stopping")
	return srv.Close()
}

func printSandbox(w io.Writer, srv *sandbox.Server, f sandboxFlags, pubPEM []byte) {
	ep := srv.Endpoints()
	c := srv.Credentials()
	face := ""
	if f.variant {
		face = ", variant face"
	}
	fmt.Fprintf(w, "treasury sandbox (seed %d, speed %gx, %d history payments, %g live per minute%s) on %s\n\ninterfaces:\n",
		srv.Seed(), f.speed, f.history, f.liveRate, face, srv.URL)
	for _, row := range [][2]string{{"liquidity", ep.Liquidity}, {"auth", ep.Auth}, {"payments", ep.Payments},
		{"reporting", ep.Reporting}, {"wallet", ep.Wallet}, {"custody", ep.Custody}, {"control", ep.Control}} {
		fmt.Fprintf(w, "  %-10s %s\n", row[0], row[1])
	}
	fmt.Fprintln(w, "\ncredentials (sandbox only):")
	fmt.Fprintf(w, "  payments   client_id %s  client_secret %s  audience %s\n", c.PaymentsClientID, c.PaymentsClientSecret, c.PaymentsAudience)
	fmt.Fprintf(w, "             limited client %s / %s (no reports:read, ledger:read)\n", c.PaymentsLimitedClientID, c.PaymentsLimitedClientSecret)
	for _, wc := range c.Wallet {
		fmt.Fprintf(w, "  wallet     %s / %s (%s)\n", wc.ClientID, wc.ClientSecret, wc.Type)
	}
	fmt.Fprintf(w, "  liquidity  bearer %s\n", c.LiquidityToken)
	fmt.Fprintf(w, "  custody    bearer %s  domain %s  operator %s\n", c.CustodyToken, c.CustodyDomainID, sandbox.OperatorID(srv.Seed()))
	fmt.Fprintf(w, "\nwebhook public key (%s-Signature):\n%s", webhook.DefaultHeaderPrefix, pubPEM)
}

// WriteProfile writes the profile of srv to path, named name, with its
// webhook receiver on webhookListen, and points the sandbox's webhook
// delivery at that receiver, trusting its self-signed certificate.
func WriteProfile(srv *sandbox.Server, path, name, webhookListen string, pubPEM []byte) (*config.WrittenProfile, error) {
	ep := srv.Endpoints()
	c := srv.Credentials()
	creds := config.SandboxCredentials{
		PaymentsClientID: c.PaymentsClientID, PaymentsClientSecret: c.PaymentsClientSecret, PaymentsAudience: c.PaymentsAudience,
		LiquidityToken: c.LiquidityToken, CustodyToken: c.CustodyToken, CustodyDomainID: c.CustodyDomainID,
		CustodyUserID: sandbox.OperatorID(srv.Seed()),
	}
	for _, wc := range c.Wallet {
		switch strings.ToUpper(wc.Type) {
		case wallet.CredMonitoring:
			creds.WalletClientID, creds.WalletClientSecret = wc.ClientID, wc.ClientSecret
		case wallet.CredControls:
			creds.WalletControlsID, creds.WalletControlsSecret = wc.ClientID, wc.ClientSecret
		case wallet.CredTransactions:
			creds.WalletTransactionsID, creds.WalletTransactionsSecret = wc.ClientID, wc.ClientSecret
		}
	}
	w, err := config.WriteSandboxProfile(path,
		config.SandboxEndpoints{Liquidity: ep.Liquidity, Auth: ep.Auth, Payments: ep.Payments, Reporting: ep.Reporting, Wallet: ep.Wallet, Custody: ep.Custody},
		creds, config.SandboxProfileOptions{Name: name, WebhookPublicKeyPEM: pubPEM,
			OperatorKey: sandbox.OperatorKey(srv.Seed()), WebhookListen: webhookListen})
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(w.CertPEM) {
		return nil, fmt.Errorf("the written certificate does not parse")
	}
	hooks := srv.Webhooks()
	hooks.URL, hooks.RootCAs = w.WebhookURL, pool
	if err := srv.SetWebhooks(hooks); err != nil {
		return nil, err
	}
	return w, nil
}

// freeLoopbackAddr is a loopback address no one listens on now: the
// written profile's receiver, distinct for each sandbox started.
func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
