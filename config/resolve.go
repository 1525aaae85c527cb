package config

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/data/webhook"
)

func reflectValue(p any) reflect.Value { return reflect.ValueOf(p).Elem() }

func profileNames(m map[string]*rawProfile) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// resolver checks a raw profile and builds its Config, reporting problems
// through the decoder (which knows the lines) and collecting warnings.
type resolver struct {
	d      *decoder
	dir    string
	getenv func(string) string
	warns  []Warning
}

func (r *resolver) warn(key, format string, args ...any) {
	r.warns = append(r.warns, Warning{File: r.d.file, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (r *resolver) profile(name string, p *rawProfile) *Config {
	base := "profiles." + name
	k := func(key string) string { return joinKey(base, key) }
	cfg := &Config{Profile: name, Environment: p.Environment, Refresh: DefaultRefresh(),
		Alerts: Alerts{LowBalance: map[string]decimal.Decimal{}}}
	switch p.Environment {
	case EnvTest, EnvProd, EnvSandbox:
	case "":
		r.d.at(base, "missing required key environment (test, prod or sandbox)")
	default:
		r.d.at(k("environment"), "must be test, prod or sandbox, not %q", p.Environment)
	}
	if p.ReadOnly != nil {
		cfg.ReadOnly = *p.ReadOnly
	}
	if p.Mouse != nil {
		cfg.Mouse = *p.Mouse
	}
	if p.EmbeddedSandbox != nil || p.Environment == EnvSandbox {
		e := &Embedded{Seed: 1, Speed: 1}
		if es := p.EmbeddedSandbox; es != nil {
			e.Seed = es.Seed
			if es.Speed != 0 {
				e.Speed = es.Speed
			}
			if es.Speed < 0 {
				r.d.at(k("embedded_sandbox.speed"), "must be positive")
			}
		}
		cfg.Embedded = e
		if p.Environment != EnvSandbox && p.Environment != "" {
			r.d.at(k("embedded_sandbox"), "only allowed with environment: sandbox")
		}
		for key, set := range map[string]bool{"liquidity": p.Liquidity != nil, "payments": p.Payments != nil,
			"reporting": p.Reporting != nil, "wallet": p.Wallet != nil, "custody": p.Custody != nil} {
			if set {
				r.d.at(k(key), "not allowed with the embedded sandbox, which provides every interface")
			}
		}
	} else {
		cfg.Liquidity = r.liquidity(k("liquidity"), p.Liquidity)
		cfg.Payments = r.payments(k("payments"), p.Payments)
		cfg.Reporting = r.reporting(k("reporting"), p.Reporting, p.Payments != nil)
		cfg.Wallet = r.wallet(k("wallet"), p.Wallet)
		cfg.Custody = r.custody(k("custody"), p.Custody)
		if p.Liquidity == nil && p.Payments == nil && p.Reporting == nil && p.Wallet == nil && p.Custody == nil && p.Environment != "" {
			r.d.at(base, "configures no interface: give at least one of liquidity, payments, reporting, wallet, custody")
		}
	}
	cfg.Webhooks = r.webhooks(k("webhooks"), p.Webhooks)
	r.refresh(k("refresh"), p.Refresh, &cfg.Refresh)
	if p.Alerts != nil {
		r.alerts(k("alerts"), p.Alerts, &cfg.Alerts)
	}
	if p.Environment == EnvProd && !cfg.ReadOnly {
		r.warn(base, "production profile without read_only: true; actions (freeze, lock, sweep) are enabled")
	}
	return cfg
}

func (r *resolver) required(key, v string) {
	if strings.TrimSpace(v) == "" {
		r.d.at(key, "missing required value")
	}
}

// requiredIn reports a missing key inside section at the section's line.
func (r *resolver) requiredIn(section, key, v string) {
	if strings.TrimSpace(v) == "" {
		full := joinKey(section, key)
		if _, ok := r.d.lines[full]; ok {
			r.d.at(full, "must not be empty")
			return
		}
		r.d.errf(full, r.d.lines[section], "missing required key")
	}
}

func (r *resolver) url(key, v string) string {
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		r.d.at(key, "must be an absolute http:// or https:// URL, not %q", v)
		return ""
	}
	if u.RawQuery != "" || u.Fragment != "" {
		r.d.at(key, "must be a base URL without query or fragment, not %q", v)
		return ""
	}
	if u.User != nil {
		r.d.at(key, "must not carry credentials; use the *_env or *_file keys")
		return ""
	}
	return strings.TrimRight(v, "/")
}

// path resolves a file name in the config: ~ is the home directory and a
// relative name is taken from the config file's directory.
func (r *resolver) path(p string) string {
	if p == "" {
		return ""
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		home := r.getenv("HOME")
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	return p
}

// readPrivate reads a file that holds a secret, warning when group or
// others may read it.
func (r *resolver) readPrivate(key, name string) ([]byte, bool) {
	p := r.path(name)
	st, err := os.Stat(p)
	if err != nil {
		r.d.at(key, "cannot read %s: %v", p, unwrapPathErr(err))
		return nil, false
	}
	if st.Mode().Perm()&0o077 != 0 {
		r.warn(key, "%s is readable by group or others (mode %04o); run chmod 600 %s", p, st.Mode().Perm(), p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		r.d.at(key, "cannot read %s: %v", p, unwrapPathErr(err))
		return nil, false
	}
	return b, true
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// secret resolves one secret from name (inline), name_env or name_file in
// section; it reports a missing one when required.
func (r *resolver) secret(section, name, inline, env, file string, required bool) Secret {
	set := 0
	for _, v := range []string{inline, env, file} {
		if v != "" {
			set++
		}
	}
	if set > 1 {
		r.d.errf(joinKey(section, name), r.d.lines[section], "give only one of %s, %s_env, %s_file", name, name, name)
		return Secret{}
	}
	switch {
	case env != "":
		key := joinKey(section, name+"_env")
		v := r.getenv(env)
		if v == "" {
			r.d.at(key, "environment variable %s is not set or empty", env)
		}
		return NewSecret(v)
	case file != "":
		key := joinKey(section, name+"_file")
		b, ok := r.readPrivate(key, file)
		if !ok {
			return Secret{}
		}
		v := strings.TrimRight(string(b), "\r\n")
		if v == "" {
			r.d.at(key, "%s is empty", r.path(file))
		}
		return NewSecret(v)
	case inline != "":
		r.warn(joinKey(section, name), "secret written inline in the configuration file; prefer %s_env or %s_file", name, name)
		return NewSecret(inline)
	}
	if required {
		r.d.errf(joinKey(section, name+"_env"), r.d.lines[section], "missing required secret: give %s_env or %s_file", name, name)
	}
	return Secret{}
}

func (r *resolver) liquidity(s string, p *rawLiquidity) *Liquidity {
	if p == nil {
		return nil
	}
	r.requiredIn(s, "base_url", p.BaseURL)
	return &Liquidity{BaseURL: r.url(joinKey(s, "base_url"), p.BaseURL),
		Token: r.secret(s, "token", p.Token, p.TokenEnv, p.TokenFile, true)}
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
		ClientSecret: r.secret(s, "client_secret", p.ClientSecret, p.ClientSecretEnv, p.ClientSecretFile, true)}
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
	r.requiredIn(s, "client_id", p.ClientID)
	w := &Wallet{BaseURL: r.url(joinKey(s, "base_url"), p.BaseURL),
		Client: Client{ClientID: p.ClientID, ClientSecret: r.secret(s, "client_secret", p.ClientSecret, p.ClientSecretEnv, p.ClientSecretFile, true)}}
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
	c := &Custody{BaseURL: r.url(joinKey(s, "base_url"), p.BaseURL), DomainID: p.DomainID, UserID: p.UserID,
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
		} else if w.PublicKey, err = webhook.ParsePublicKeyPEM(b); err != nil {
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
			if d < 500*time.Millisecond {
				r.warn(key, "%s is a very short poll interval; the platform may rate-limit it", f.v)
			}
			*f.dst = d
		}
	}
}

var assetRe = regexp.MustCompile(`^[A-Z0-9]{2,12}$`)

func (r *resolver) alerts(s string, p *rawAlerts, out *Alerts) {
	for asset, v := range p.LowBalance {
		key := joinKey(s, "low_balance."+asset)
		if !assetRe.MatchString(asset) {
			r.d.at(key, "asset must be an upper-case code such as USD or USDC, not %q", asset)
			continue
		}
		d, err := decimal.NewFromString(v)
		if err != nil {
			r.d.at(key, "must be a decimal amount such as \"10000.00\", not %q", v)
			continue
		}
		if d.IsNegative() {
			r.d.at(key, "must not be negative, not %q", v)
			continue
		}
		out.LowBalance[asset] = d
	}
}
