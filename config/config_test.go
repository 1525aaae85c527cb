package config

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"treasury/kit/pubkey"
)

// env is a fake environment for Load and Parse.
type env map[string]string

func (e env) get(k string) string { return e[k] }

// fixture writes key files into a temp dir and returns it.
func fixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	pub, priv, _ := ed25519.GenerateKey(nil)
	pubPEM, _ := pubkey.MarshalPEM(pub)
	der, _ := x509.MarshalPKCS8PrivateKey(priv)
	must(t, os.WriteFile(filepath.Join(dir, "hook.pem"), pubPEM, 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "op.pem"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "secret"), []byte("wallet-secret\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "open-secret"), []byte("x"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "empty"), nil, 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "tls.key"), []byte("k"), 0o600))
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

const good = `profile: uat
profiles:
  uat:
    environment: test
    read_only: true
    liquidity: {base_url: "https://liq.example/api", token_env: LIQUIDITY_TOKEN}
    payments:
      base_url: https://pay.example
      auth_url: https://auth.example
      audience: "urn:payments-test:x"
      client_id: c1
      client_secret_env: PAYMENTS_SECRET
    reporting: {base_url: https://rep.example}
    wallet:
      base_url: https://wallet.example
      client_id: monitoring
      client_secret_file: secret
      controls: {client_id: controls, client_secret_env: PAYMENTS_SECRET}
    custody:
      base_url: https://custody.example
      domain_id: 7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0001
      token_env: CUSTODY_TOKEN
      signing_key_file: op.pem
      user_id: 7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0002
    webhooks: {listen: "127.0.0.1:8788", tls_cert_file: tls.crt, tls_key_file: tls.key, public_key_file: hook.pem, tolerance: 2m}
    refresh: {quotes: 1s, reports: 10m}
    alerts:
      runway_window: 4h
      prefunded: {default: {runway_warning_hours: 48}, USD: {low_balance: "10000.00", runway_critical_hours: 12}}
      liquidity: {BTC: {low_balance: 0.5, low_balance_critical: "0.1"}}
      failure_rate: {warning: 5%, critical: 25, min_finished: 10}
      stale: {warning: 30s, critical: 2m}
      terminal: {bell: false}
      webhook: {url_env: HOOK_URL, min_severity: medium, per_minute: 3}
    mouse: true
    base_currency: EUR
    funding: {time_zone: America/New_York, day_ends: "18:30", top_up_lead: 2h}
    ssh_roles: [operator]
  other:
    environment: prod
    read_only: true
    reporting: {base_url: https://rep.example}
    payments: {base_url: https://p, auth_url: https://a, audience: x, client_id: y, client_secret_env: PAYMENTS_SECRET}
`

var goodEnv = env{"LIQUIDITY_TOKEN": "liq-tok", "PAYMENTS_SECRET": "pay-secret", "CUSTODY_TOKEN": "cus-tok", "HOOK_URL": "https://hooks.example/T0/B0/x"}

func TestParseGood(t *testing.T) {
	dir := fixture(t)
	cfg, warns, err := Parse(filepath.Join(dir, "config.yaml"), []byte(good), "", goodEnv.get)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	if cfg.Profile != "uat" || cfg.Environment != EnvTest || !cfg.ReadOnly || !cfg.Mouse || cfg.Embedded != nil {
		t.Errorf("profile fields: %+v", cfg)
	}
	if cfg.Liquidity.BaseURL != "https://liq.example/api" || cfg.Liquidity.Token.Reveal() != "liq-tok" {
		t.Errorf("liquidity: %+v", cfg.Liquidity)
	}
	if cfg.Payments.ClientSecret.Reveal() != "pay-secret" || cfg.Payments.Audience != "urn:payments-test:x" {
		t.Errorf("payments: %+v", cfg.Payments)
	}
	if cfg.Wallet.ClientSecret.Reveal() != "wallet-secret" || cfg.Wallet.Controls.ClientID != "controls" || cfg.Wallet.Transactions != nil {
		t.Errorf("wallet: %+v", cfg.Wallet)
	}
	if cfg.Custody.SigningKey == nil || cfg.Custody.Token.Reveal() != "cus-tok" {
		t.Errorf("custody: %+v", cfg.Custody)
	}
	w := cfg.Webhooks
	if w.Tolerance != 2*time.Minute || w.HeaderPrefix != DefaultHeaderPrefix || w.Path != DefaultWebhookPath || w.TLSCertFile != filepath.Join(dir, "tls.crt") {
		t.Errorf("webhooks: %+v", w)
	}
	if _, ok := w.PublicKey.(ed25519.PublicKey); !ok {
		t.Errorf("public key: %T", w.PublicKey)
	}
	want := DefaultRefresh()
	want.Quotes, want.Reports = time.Second, 10*time.Minute
	if cfg.Refresh != want {
		t.Errorf("refresh %+v, want %+v", cfg.Refresh, want)
	}
	if cfg.BaseCurrency != "EUR" {
		t.Errorf("base_currency %q", cfg.BaseCurrency)
	}
	if f := cfg.Funding; f.ZoneName() != "America/New_York" || f.DayEnds != 18*time.Hour+30*time.Minute || f.TopUpLead != 2*time.Hour {
		t.Errorf("funding %+v", f)
	}
	if len(cfg.SSHRoles) != 1 || cfg.SSHRoles[0] != "operator" {
		t.Errorf("ssh_roles %v", cfg.SSHRoles)
	}
	a := cfg.Alerts
	usd, eur, btc := a.Prefunded.For("USD"), a.Prefunded.For("EUR"), a.Liquidity.For("BTC")
	for what, got := range map[string]string{
		"window": a.RunwayWindow.Value.String(), "USD warning": usd.RunwayWarning.Value.String(), "USD critical": usd.RunwayCritical.Value.String(),
		"USD low": usd.LowBalance.Value.String(), "EUR warning": eur.RunwayWarning.Value.String(), "EUR critical": eur.RunwayCritical.Value.String(),
		"EUR low": eur.LowBalance.Value.String(), "BTC low": btc.LowBalance.Value.String(), "BTC critical": btc.LowBalanceCritical.Value.String(),
		"liquidity USD low": a.Liquidity.For("USD").LowBalance.Value.String(), "failure warning": a.FailureRate.Warning.Value.String(),
		"failure critical": a.FailureRate.Critical.Value.String(), "min finished": fmt.Sprint(a.FailureRate.MinFinished.Value),
		"stale":    a.Stale.Warning.Value.String() + " " + a.Stale.Critical.Value.String(),
		"terminal": fmt.Sprint(a.Terminal.Bell, a.Terminal.Desktop),
		"webhook":  a.Webhook.URL.Reveal() + " " + a.Webhook.MinSeverity + " " + fmt.Sprint(a.Webhook.PerMinute),
	} {
		want := map[string]string{"window": "4h0m0s", "USD warning": "48", "USD critical": "12", "USD low": "10000",
			"EUR warning": "48", "EUR critical": "6", "EUR low": "0", "BTC low": "0.5", "BTC critical": "0.1", "liquidity USD low": "0",
			"failure warning": "5", "failure critical": "25", "min finished": "10", "stale": "30s 2m0s", "terminal": "false true",
			"webhook": "https://hooks.example/T0/B0/x medium 3"}[what]
		if got != want {
			t.Errorf("alerts: %s is %s, want %s", what, got, want)
		}
	}
	other, _, err := Parse(filepath.Join(dir, "config.yaml"), []byte(good), "other", goodEnv.get)
	if err != nil || other.Profile != "other" || other.Environment != EnvProd || other.Liquidity != nil {
		t.Errorf("other profile: %+v, %v", other, err)
	}
	if other.BaseCurrency != DefaultBaseCurrency {
		t.Errorf("defaults: base_currency %q", other.BaseCurrency)
	}
	if other.Funding != DefaultFunding() || Builtin().Funding != DefaultFunding() || len(other.SSHRoles) != 0 {
		t.Errorf("defaults: funding %+v, ssh_roles %v", other.Funding, other.SSHRoles)
	}
	if b := Builtin(); b.BaseCurrency != DefaultBaseCurrency {
		t.Errorf("built-in: base_currency %q", b.BaseCurrency)
	}
}

// profileYAML wraps the body of one profile (indented by four spaces).
func profileYAML(body string) string {
	return "profiles:\n  p:\n    environment: test\n" + body
}

const payments = "    payments: {base_url: https://p, auth_url: https://a, audience: x, client_id: y, client_secret_env: PAYMENTS_SECRET}\n"

func TestParseErrors(t *testing.T) {
	dir := fixture(t)
	for _, tc := range []struct {
		name, yaml string
		key        string
		line       int
		msg        string
	}{
		{"unknown top key", "profiel: x\n", "profiel", 1, "unknown key"},
		{"unknown profile key", profileYAML(payments + "    colour: red\n"), "profiles.p.colour", 5, "unknown key"},
		{"unknown nested key", profileYAML("    payments: {base_url: https://p, auth_url: https://a, audience: x, client_id: y, client_secret_env: PAYMENTS_SECRET, scope: z}\n"), "profiles.p.payments.scope", 4, "unknown key"},
		{"bad environment", "profiles:\n  p:\n    environment: staging\n" + payments, "profiles.p.environment", 3, `must be test, prod or sandbox, not "staging"`},
		{"missing environment", "profiles:\n  p:\n" + payments, "profiles.p", 2, "missing required key environment"},
		{"bad duration", profileYAML(payments + "    refresh: {quotes: fast}\n"), "profiles.p.refresh.quotes", 5, `must be a duration`},
		{"negative duration", profileYAML(payments + "    refresh: {wallets: -1s}\n"), "profiles.p.refresh.wallets", 5, "must be positive"},
		{"refresh under the floor", profileYAML(payments + "    refresh: {quotes: 1ms}\n"), "profiles.p.refresh.quotes", 5, "must be at least 1s, not 1ms"},
		{"bad url", profileYAML("    payments: {base_url: pay.example, auth_url: https://a, audience: x, client_id: y, client_secret_env: PAYMENTS_SECRET}\n"), "profiles.p.payments.base_url", 4, "absolute http:// or https:// URL"},
		{"url with credentials", profileYAML("    liquidity: {base_url: \"https://u:pw@l\", token_env: LIQUIDITY_TOKEN}\n"), "profiles.p.liquidity.base_url", 4, "must not carry credentials"},
		{"missing base_url", profileYAML("    liquidity:\n      token_env: LIQUIDITY_TOKEN\n"), "profiles.p.liquidity.base_url", 4, "missing required key"},
		{"missing secret", profileYAML("    liquidity:\n      base_url: https://l\n"), "profiles.p.liquidity.token_env", 4, "missing required secret"},
		{"unset env var", profileYAML("    liquidity: {base_url: https://l, token_env: NOPE}\n"), "profiles.p.liquidity.token_env", 4, "NOPE is not set"},
		{"two secret sources", profileYAML("    liquidity: {base_url: https://l, token_env: LIQUIDITY_TOKEN, token: inline}\n"), "profiles.p.liquidity.token", 4, "give only one of"},
		{"missing secret file", profileYAML("    liquidity: {base_url: https://l, token_file: nofile}\n"), "profiles.p.liquidity.token_file", 4, "no such file"},
		{"empty secret file", profileYAML("    liquidity: {base_url: https://l, token_file: empty}\n"), "profiles.p.liquidity.token_file", 4, "is empty"},
		{"reporting without payments", profileYAML("    reporting: {base_url: https://r}\n"), "profiles.p.reporting", 4, "configure payments too"},
		{"no interface", profileYAML("    mouse: true\n"), "profiles.p", 2, "configures no interface"},
		{"bad domain id", profileYAML("    custody: {base_url: https://c, domain_id: abc, token_env: CUSTODY_TOKEN}\n"), "profiles.p.custody.domain_id", 4, "must be a UUID"},
		{"signing key without user", profileYAML("    custody: {base_url: https://c, domain_id: 7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0001, token_env: CUSTODY_TOKEN, signing_key_file: op.pem}\n"), "profiles.p.custody.user_id", 4, "missing required key"},
		{"bad signing key", profileYAML("    custody: {base_url: https://c, domain_id: 7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0001, token_env: CUSTODY_TOKEN, signing_key_file: hook.pem, user_id: 7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0001}\n"), "profiles.p.custody.signing_key_file", 4, "not a PKCS #8 private key"},
		{"bad bool", profileYAML(payments + "    read_only: maybe\n"), "profiles.p.read_only", 5, "must be true or false"},
		{"mapping for scalar", profileYAML(payments + "    mouse: {a: b}\n"), "profiles.p.mouse", 5, "must be a single value"},
		{"scalar for mapping", profileYAML("    payments: yes\n"), "profiles.p.payments", 4, "must be a mapping"},
		{"webhooks missing keys", profileYAML(payments + "    webhooks: {listen: \"127.0.0.1:1\", tls_cert_file: c, tls_key_file: tls.key}\n"), "profiles.p.webhooks.public_key_file", 5, "missing required key"},
		{"webhooks bad listen", profileYAML(payments + "    webhooks: {listen: nowhere, tls_cert_file: c, tls_key_file: tls.key, public_key_file: hook.pem}\n"), "profiles.p.webhooks.listen", 5, "must be host:port"},
		{"webhooks bad key", profileYAML(payments + "    webhooks: {listen: \"127.0.0.1:1\", tls_cert_file: c, tls_key_file: tls.key, public_key_file: op.pem}\n"), "profiles.p.webhooks.public_key_file", 5, "parse public key"},
		{"webhooks bad tolerance", profileYAML(payments + "    webhooks: {listen: \"127.0.0.1:1\", tls_cert_file: c, tls_key_file: tls.key, public_key_file: hook.pem, tolerance: 5 minutes}\n"), "profiles.p.webhooks.tolerance", 5, "must be a duration"},
		{"bad alert amount", profileYAML(payments + "    alerts: {low_balance: {USD: lots}}\n"), "profiles.p.alerts.low_balance.USD", 5, "must be a decimal amount"},
		{"negative alert", profileYAML(payments + "    alerts: {low_balance: {USD: \"-1\"}}\n"), "profiles.p.alerts.low_balance.USD", 5, "must not be negative"},
		{"bad asset", profileYAML(payments + "    alerts: {low_balance: {usd: \"1\"}}\n"), "profiles.p.alerts.low_balance.usd", 5, "upper-case currency code"},
		{"bad runway", profileYAML(payments + "    alerts: {runway_hours: soon}\n"), "profiles.p.alerts.runway_hours", 5, "must be a number of hours"},
		{"zero runway", profileYAML(payments + "    alerts: {runway_hours: 0}\n"), "profiles.p.alerts.runway_hours", 5, "must be positive"},
		{"bad asset of a kind", profileYAML(payments + "    alerts: {prefunded: {usd: {low_balance: \"1\"}}}\n"), "profiles.p.alerts.prefunded.usd", 5, "upper-case currency code"},
		{"liquidity runway", profileYAML(payments + "    alerts:\n      liquidity:\n        USD: {runway_warning_hours: 3}\n"), "profiles.p.alerts.liquidity.USD.runway_warning_hours", 7, "have no runway"},
		{"critical above warning", profileYAML(payments + "    alerts:\n      prefunded:\n        EUR: {runway_critical_hours: 30}\n"), "profiles.p.alerts.prefunded.EUR.runway_critical_hours", 7, "above the warning's 24 h"},
		{"balance critical above warning", profileYAML(payments + "    alerts: {liquidity: {USD: {low_balance: \"10\", low_balance_critical: \"20\"}}}\n"), "profiles.p.alerts.liquidity.USD.low_balance_critical", 5, "above the warning's 10"},
		{"negative hours", profileYAML(payments + "    alerts: {prefunded: {default: {runway_warning_hours: -1}}}\n"), "profiles.p.alerts.prefunded.default.runway_warning_hours", 5, "must not be negative"},
		{"bad percentage", profileYAML(payments + "    alerts: {failure_rate: {warning: 120}}\n"), "profiles.p.alerts.failure_rate.warning", 5, "percentage from 0 to 100"},
		{"rates crossed", profileYAML(payments + "    alerts: {failure_rate: {warning: 40%, critical: 20}}\n"), "profiles.p.alerts.failure_rate.critical", 5, "under the warning's 40%"},
		{"bad min finished", profileYAML(payments + "    alerts: {failure_rate: {min_finished: 0}}\n"), "profiles.p.alerts.failure_rate.min_finished", 5, "whole number"},
		{"stale crossed", profileYAML(payments + "    alerts: {stale: {warning: 10m, critical: 2m}}\n"), "profiles.p.alerts.stale.critical", 5, "not be shorter than the warning"},
		{"bad window", profileYAML(payments + "    alerts: {runway_window: six hours}\n"), "profiles.p.alerts.runway_window", 5, "must be a duration"},
		{"webhook without url", profileYAML(payments + "    alerts: {webhook: {min_severity: high}}\n"), "profiles.p.alerts.webhook.url_env", 5, "missing required secret"},
		{"webhook severity", profileYAML(payments + "    alerts: {webhook: {url_env: LIQUIDITY_TOKEN, min_severity: low}}\n"), "profiles.p.alerts.webhook.min_severity", 5, "must be medium or high"},
		{"webhook not a url", profileYAML(payments + "    alerts: {webhook: {url_env: LIQUIDITY_TOKEN}}\n"), "profiles.p.alerts.webhook.url", 5, "must be an http"},
		{"webhook rate", profileYAML(payments + "    alerts: {webhook: {url_env: HOOK_URL, per_minute: 100}}\n"), "profiles.p.alerts.webhook.per_minute", 5, "from 1 to 60"},
		{"bad base currency", profileYAML(payments + "    base_currency: usd\n"), "profiles.p.base_currency", 5, "upper-case code"},
		{"bad time zone", profileYAML(payments + "    funding: {time_zone: Mars/Olympus}\n"), "profiles.p.funding.time_zone", 5, "time zone such as"},
		{"bad day end", profileYAML(payments + "    funding: {day_ends: 5pm}\n"), "profiles.p.funding.day_ends", 5, "time of day such as 17:00"},
		{"bad lead", profileYAML(payments + "    funding: {top_up_lead: soon}\n"), "profiles.p.funding.top_up_lead", 5, "must be a duration"},
		{"bad ssh role", profileYAML(payments + "    ssh_roles: [admin]\n"), "profiles.p.ssh_roles", 5, `no role "admin"`},
		{"duplicate key", profileYAML(payments + "    mouse: true\n    mouse: false\n"), "profiles.p.mouse", 6, "given twice"},
		{"unknown profile", "profile: q\n" + profileYAML(payments), "profile", 1, `no profile "q"`},
		{"none chosen", profileYAML(payments) + "  q:\n    environment: test\n" + payments, "profile", 0, "none chosen"},
		{"embedded with interfaces", "profiles:\n  p:\n    environment: sandbox\n" + payments, "profiles.p.payments", 4, "not allowed with the embedded sandbox"},
		{"not yaml", "profiles: [\n", "", 2, "not valid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "config.yaml")
			_, _, err := Parse(file, []byte(tc.yaml), "", goodEnv.get)
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("err = %v, want Errors", err)
			}
			e := es[0]
			if e.File != file || e.Key != tc.key || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("got %q (key %q line %d), want key %q line %d containing %q", e.Error(), e.Key, e.Line, tc.key, tc.line, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), file) {
				t.Errorf("message %q does not name the file", err)
			}
		})
	}
}

func TestParseWarnings(t *testing.T) {
	dir := fixture(t)
	for _, tc := range []struct {
		name, yaml, key, msg string
	}{
		{"inline secret", profileYAML("    liquidity: {base_url: https://l, token: abc}\n"), "profiles.p.liquidity.token", "inline"},
		{"secret file readable by others", profileYAML("    liquidity: {base_url: https://l, token_file: open-secret}\n"), "profiles.p.liquidity.token_file", "readable by group or others"},
		{"prod without read_only", "profiles:\n  p:\n    environment: prod\n" + payments, "profiles.p", "actions (freeze, lock, sweep) are enabled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "config.yaml")
			cfg, warns, err := Parse(file, []byte(tc.yaml), "", goodEnv.get)
			if err != nil || cfg == nil {
				t.Fatalf("err = %v", err)
			}
			if len(warns) != 1 || warns[0].Key != tc.key || !strings.Contains(warns[0].Msg, tc.msg) || warns[0].File != file {
				t.Fatalf("warnings = %v, want one at %s containing %q", warns, tc.key, tc.msg)
			}
			if strings.Contains(warns[0].String(), "abc") {
				t.Errorf("warning shows the secret: %s", warns[0])
			}
		})
	}
}

func marshalPub(pub ed25519.PublicKey) ([]byte, error) { return pubkey.MarshalPEM(pub) }

// TestMouseIsOnUnlessTurnedOff: the mouse is reported by default (the
// built-in sandbox too); mouse: false turns it off.
func TestMouseIsOnUnlessTurnedOff(t *testing.T) {
	if !Builtin().Mouse {
		t.Error("the built-in profile: mouse off")
	}
	for doc, want := range map[string]bool{profileYAML(payments): true, profileYAML(payments + "    mouse: false\n"): false} {
		cfg, _, err := Parse("test.yaml", []byte(doc), "", goodEnv.get)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Mouse != want {
			t.Errorf("%q: mouse %v, want %v", doc, cfg.Mouse, want)
		}
	}
}
