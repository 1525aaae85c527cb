package config

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"time"

	"treasury/kit/pubkey"
)

// The resolvers of a profile's sections: one per interface, the webhook
// receiver, refresh intervals and alert thresholds.

func (r *resolver) liquidity(s string, p *rawLiquidity) *Liquidity {
	if p == nil {
		return nil
	}
	r.requiredIn(s, "base_url", p.BaseURL)
	return &Liquidity{BaseURL: r.url(joinKey(s, "base_url"), p.BaseURL),
		Token: r.secret(s, "token", p.Token, p.TokenEnv, p.TokenFile, true), PageSize: r.pageSize(s, p.PageSize)}
}

func (r *resolver) payments(s string, p *rawPayments) *Payments {
	if p == nil {
		return nil
	}
	for key, v := range map[string]string{"base_url": p.BaseURL, "auth_url": p.AuthURL, "audience": p.Audience, "client_id": p.ClientID} {
		r.requiredIn(s, key, v)
	}
	return &Payments{BaseURL: r.url(joinKey(s, "base_url"), p.BaseURL), AuthURL: r.url(joinKey(s, "auth_url"), p.AuthURL),
		Audience: p.Audience, ClientID: p.ClientID,
		ClientSecret: r.secret(s, "client_secret", p.ClientSecret, p.ClientSecretEnv, p.ClientSecretFile, true),
		PageSize:     r.pageSize(s, p.PageSize)}
}

// pageSize checks a section's page_size: positive, or absent.
func (r *resolver) pageSize(s string, n int) int {
	if n < 0 {
		r.d.at(joinKey(s, "page_size"), "must be a positive number of records, not %d", n)
		return 0
	}
	return n
}

func (r *resolver) reporting(s string, p *rawReporting, havePayments bool) *Reporting {
	if p == nil {
		return nil
	}
	r.requiredIn(s, "base_url", p.BaseURL)
	if !havePayments {
		r.d.at(s, "reporting uses the payments token: configure payments too")
	}
	return &Reporting{BaseURL: r.url(joinKey(s, "base_url"), p.BaseURL)}
}

func (r *resolver) client(s string, p *rawClient) *Client {
	if p == nil {
		return nil
	}
	r.requiredIn(s, "client_id", p.ClientID)
	return &Client{ClientID: p.ClientID, ClientSecret: r.secret(s, "client_secret", p.ClientSecret, p.ClientSecretEnv, p.ClientSecretFile, true)}
}

func (r *resolver) wallet(s string, p *rawWallet) *Wallet {
	if p == nil {
		return nil
	}
	r.requiredIn(s, "base_url", p.BaseURL)
	w := &Wallet{BaseURL: r.url(joinKey(s, "base_url"), p.BaseURL), PageSize: r.pageSize(s, p.PageSize)}
	w.Client = *r.client(s, &rawClient{ClientID: p.ClientID, ClientSecret: p.ClientSecret,
		ClientSecretEnv: p.ClientSecretEnv, ClientSecretFile: p.ClientSecretFile})
	w.Controls = r.client(joinKey(s, "controls"), p.Controls)
	w.Transactions = r.client(joinKey(s, "transactions"), p.Transactions)
	return w
}

var uuidRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func (r *resolver) custody(s string, p *rawCustody) *Custody {
	if p == nil {
		return nil
	}
	r.requiredIn(s, "base_url", p.BaseURL)
	r.requiredIn(s, "domain_id", p.DomainID)
	if p.DomainID != "" && !uuidRe.MatchString(p.DomainID) {
		r.d.at(joinKey(s, "domain_id"), "must be a UUID, not %q", p.DomainID)
	}
	if p.UserID != "" && !uuidRe.MatchString(p.UserID) {
		r.d.at(joinKey(s, "user_id"), "must be a UUID, not %q", p.UserID)
	}
	c := &Custody{BaseURL: r.url(joinKey(s, "base_url"), p.BaseURL), DomainID: p.DomainID, UserID: p.UserID, PageSize: r.pageSize(s, p.PageSize),
		Token: r.secret(s, "token", p.Token, p.TokenEnv, p.TokenFile, true)}
	if p.SigningKeyFile != "" {
		key := joinKey(s, "signing_key_file")
		if p.UserID == "" {
			r.requiredIn(s, "user_id", "")
		}
		c.SigningKeyFile = r.path(p.SigningKeyFile)
		if b, ok := r.readPrivate(key, p.SigningKeyFile); ok {
			signer, err := parseSigningKey(b)
			if err != nil {
				r.d.at(key, "%s: %v", c.SigningKeyFile, err)
			}
			c.SigningKey = signer
		}
	}
	return c
}

// parseSigningKey reads a PEM "PRIVATE KEY" (PKCS #8) Ed25519 key.
func parseSigningKey(b []byte) (crypto.Signer, error) {
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, fmt.Errorf("no PEM block found")
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("not a PKCS #8 private key: %v", err)
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("key type %T cannot sign", k)
	}
	if _, ok := s.Public().(interface{ Equal(crypto.PublicKey) bool }); !ok {
		return nil, fmt.Errorf("key type %T is not supported", k)
	}
	return s, nil
}

func (r *resolver) webhooks(s string, p *rawWebhooks) *Webhooks {
	if p == nil {
		return nil
	}
	w := &Webhooks{Listen: p.Listen, Path: p.Path, HeaderPrefix: p.HeaderPrefix, Tolerance: DefaultWebhookTolerance}
	for key, v := range map[string]string{"listen": p.Listen, "tls_cert_file": p.TLSCertFile, "tls_key_file": p.TLSKeyFile, "public_key_file": p.PublicKeyFile} {
		r.requiredIn(s, key, v)
	}
	if p.Listen != "" {
		if _, _, err := net.SplitHostPort(p.Listen); err != nil {
			r.d.at(joinKey(s, "listen"), "must be host:port, not %q", p.Listen)
		}
	}
	if w.Path == "" {
		w.Path = DefaultWebhookPath
	} else if !strings.HasPrefix(w.Path, "/") {
		r.d.at(joinKey(s, "path"), "must start with /, not %q", p.Path)
	}
	if w.HeaderPrefix == "" {
		w.HeaderPrefix = DefaultHeaderPrefix
	}
	if p.Tolerance != "" {
		w.Tolerance = r.duration(joinKey(s, "tolerance"), p.Tolerance)
	}
	w.TLSCertFile = r.path(p.TLSCertFile)
	if p.TLSKeyFile != "" {
		w.TLSKeyFile = r.path(p.TLSKeyFile)
		r.readPrivate(joinKey(s, "tls_key_file"), p.TLSKeyFile)
	}
	if p.PublicKeyFile != "" {
		key := joinKey(s, "public_key_file")
		b, err := os.ReadFile(r.path(p.PublicKeyFile))
		if err != nil {
			r.d.at(key, "cannot read %s: %v", r.path(p.PublicKeyFile), unwrapPathErr(err))
		} else if w.PublicKey, err = pubkey.ParsePEM(b); err != nil {
			r.d.at(key, "%s: %v", r.path(p.PublicKeyFile), err)
		}
	}
	return w
}

func (r *resolver) duration(key, v string) time.Duration {
	d, err := time.ParseDuration(v)
	if err != nil {
		r.d.at(key, "must be a duration such as 5s, 2m or 1h30m, not %q", v)
		return 0
	}
	if d <= 0 {
		r.d.at(key, "must be positive, not %q", v)
		return 0
	}
	return d
}

// funding reads the planner's settings: time_zone an IANA zone,
// day_ends a time of day (HH:MM), top_up_lead a duration.
func (r *resolver) funding(s string, p *rawFunding, out *Funding) {
	if p == nil {
		return
	}
	if z := strings.TrimSpace(p.TimeZone); z != "" {
		if loc, err := time.LoadLocation(z); err != nil || z == "Local" {
			r.d.at(joinKey(s, "time_zone"), "must be a time zone such as Europe/London or America/New_York, not %q", p.TimeZone)
		} else {
			out.Zone = loc
		}
	}
	if e := strings.TrimSpace(p.DayEnds); e != "" {
		t, err := time.Parse("15:04", e)
		if err != nil || len(e) != 5 {
			r.d.at(joinKey(s, "day_ends"), "must be a time of day such as 17:00 or 18:30, not %q", p.DayEnds)
		} else {
			out.DayEnds = time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute
		}
	}
	if p.TopUpLead != "" {
		if d := r.duration(joinKey(s, "top_up_lead"), p.TopUpLead); d > 0 {
			out.TopUpLead = d
		}
	}
}

// roles reads a list of SSH roles (operator, viewer).
func (r *resolver) roles(key string, rs []string) []string {
	for _, role := range rs {
		if role != "operator" && role != "viewer" {
			r.d.at(key, "no role %q: operator or viewer", role)
		}
	}
	return rs
}

// MinRefresh is the shortest poll interval a profile may set: below it a
// dashboard costs the platform more than any screen can show.
const MinRefresh = time.Second

func (r *resolver) refresh(s string, p *rawRefresh, out *Refresh) {
	if p == nil {
		return
	}
	for _, f := range []struct {
		key string
		v   string
		dst *time.Duration
	}{{"quotes", p.Quotes, &out.Quotes}, {"balances", p.Balances, &out.Balances}, {"payments", p.Payments, &out.Payments},
		{"wallets", p.Wallets, &out.Wallets}, {"reports", p.Reports, &out.Reports}, {"addressbook", p.AddressBook, &out.AddressBook}} {
		if f.v == "" {
			continue
		}
		key := joinKey(s, f.key)
		if d := r.duration(key, f.v); d > 0 {
			if d < MinRefresh {
				r.d.at(key, "must be at least %s, not %s: each poll is a request to the platform (at 1ms, hundreds a second)", MinRefresh, f.v)
				continue
			}
			*f.dst = d
		}
	}
}

var assetRe = regexp.MustCompile(`^[A-Z0-9]{2,12}$`)
