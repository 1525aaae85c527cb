package config

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestLoadChoosesFileAndProfile(t *testing.T) {
	dir := fixture(t)
	xdg := filepath.Join(dir, "xdg")
	must(t, os.MkdirAll(filepath.Join(xdg, "treasury"), 0o700))
	must(t, os.WriteFile(filepath.Join(xdg, "treasury", "config.yaml"), []byte(strings.NewReplacer(": secret", ": ~/secret", "op.pem", "~/op.pem", "hook.pem", "~/hook.pem", "tls.key", "~/tls.key").Replace(good)), 0o600))
	other := filepath.Join(dir, "other.yaml")
	must(t, os.WriteFile(other, []byte(profileYAML(payments)), 0o600))
	base := env{"XDG_CONFIG_HOME": xdg, "HOME": dir, "PAYMENTS_SECRET": "s", "LIQUIDITY_TOKEN": "l", "CUSTODY_TOKEN": "c", "HOOK_URL": "https://hooks.example/h"}
	with := func(kv ...string) func(string) string {
		e := env{}
		for k, v := range base {
			e[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			e[kv[i]] = kv[i+1]
		}
		return e.get
	}
	for _, tc := range []struct {
		name     string
		opts     Options
		file     string
		profile  string
		readOnly bool
	}{
		{"xdg default, file's profile", Options{Getenv: with()}, filepath.Join(xdg, "treasury", "config.yaml"), "uat", true},
		{"profile from env", Options{Getenv: with(VarProfile, "other")}, filepath.Join(xdg, "treasury", "config.yaml"), "other", true},
		{"flag beats env", Options{Profile: "uat", Getenv: with(VarProfile, "other")}, filepath.Join(xdg, "treasury", "config.yaml"), "uat", true},
		{"config from env", Options{Getenv: with(VarConfig, other)}, other, "p", false},
		{"config flag beats env", Options{ConfigFile: other, Getenv: with(VarConfig, "/nonexistent")}, other, "p", false},
		{"read-only flag", Options{ConfigFile: other, ReadOnly: true, Getenv: with()}, other, "p", true},
		{"read-only env", Options{ConfigFile: other, Getenv: with(VarReadOnly, "1")}, other, "p", true},
		{"sandbox from a file", Options{Profile: SandboxProfile, Getenv: with()}, filepath.Join(xdg, "treasury", "config.yaml"), SandboxProfile, false},
		{"no file: built-in", Options{Getenv: with("XDG_CONFIG_HOME", filepath.Join(dir, "none"))}, "", SandboxProfile, false},
		{"home fallback", Options{Getenv: env{"HOME": filepath.Join(dir, "nohome")}.get}, "", SandboxProfile, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _, err := Load(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.File != tc.file || cfg.Profile != tc.profile || cfg.ReadOnly != tc.readOnly {
				t.Errorf("got file %q profile %q read-only %v, want %q %q %v", cfg.File, cfg.Profile, cfg.ReadOnly, tc.file, tc.profile, tc.readOnly)
			}
			if tc.profile == SandboxProfile && (cfg.Embedded == nil || cfg.Environment != EnvSandbox) {
				t.Errorf("built-in profile is not the embedded sandbox: %+v", cfg)
			}
		})
	}
	t.Run("missing explicit file", func(t *testing.T) {
		_, _, err := Load(Options{ConfigFile: filepath.Join(dir, "missing.yaml"), Getenv: with()})
		if err == nil || !strings.Contains(err.Error(), "missing.yaml") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("named profile without file", func(t *testing.T) {
		_, _, err := Load(Options{Profile: "uat", Getenv: with("XDG_CONFIG_HOME", filepath.Join(dir, "none"))})
		if err == nil || !strings.Contains(err.Error(), `profile "uat"`) {
			t.Errorf("err = %v", err)
		}
	})
}

func TestDirs(t *testing.T) {
	for _, tc := range []struct {
		env         env
		path, state string
	}{
		{env{"HOME": "/h"}, "/h/.config/treasury/config.yaml", "/h/.local/state/treasury"},
		{env{"HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"}, "/c/treasury/config.yaml", "/s/treasury"},
		{env{"HOME": "/h", "XDG_CONFIG_HOME": "rel", "XDG_STATE_HOME": "rel"}, "/h/.config/treasury/config.yaml", "/h/.local/state/treasury"},
	} {
		if got := Path(tc.env.get); got != tc.path {
			t.Errorf("Path(%v) = %q, want %q", tc.env, got, tc.path)
		}
		if got := StateDir(tc.env.get); got != tc.state {
			t.Errorf("StateDir(%v) = %q, want %q", tc.env, got, tc.state)
		}
	}
}

func TestSecretRedacts(t *testing.T) {
	s := NewSecret("hunter2")
	type holder struct {
		Token Secret `json:"token" yaml:"token"`
	}
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("x", "token", s)
	slog.New(slog.NewTextHandler(&logged, nil)).Info("x", "token", s)
	j, _ := json.Marshal(holder{s})
	y, _ := yaml.Marshal(holder{s})
	outs := []string{s.String(), fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s %q %x %d", s, s, s, s, s, s, s),
		fmt.Sprintf("%+v %#v", holder{s}, holder{s}), string(j), string(y), logged.String()}
	for _, o := range outs {
		if strings.Contains(o, "hunter2") || !strings.Contains(o, "redacted") {
			t.Errorf("secret not redacted in %q", o)
		}
	}
	if s.Reveal() != "hunter2" || s.IsZero() || !(Secret{}).IsZero() {
		t.Error("Reveal or IsZero wrong")
	}
}

func TestWriteSandboxProfile(t *testing.T) {
	dir := t.TempDir()
	_, op, _ := ed25519.GenerateKey(nil)
	pub, _, _ := ed25519.GenerateKey(nil)
	pubPEM, err := marshalPub(pub)
	must(t, err)
	path := filepath.Join(dir, "sandbox.yaml")
	ep := SandboxEndpoints{Liquidity: "http://127.0.0.1:1/liquidity", Auth: "http://127.0.0.1:1/auth", Payments: "http://127.0.0.1:1/payments",
		Reporting: "http://127.0.0.1:1/reporting", Wallet: "http://127.0.0.1:1/wallet", Custody: "http://127.0.0.1:1/custody"}
	creds := SandboxCredentials{PaymentsClientID: "pc", PaymentsClientSecret: "ps", PaymentsAudience: "aud",
		WalletClientID: "wc", WalletClientSecret: "ws", WalletControlsID: "cc", WalletControlsSecret: "cs",
		LiquidityToken: "lt", CustodyToken: "ct", CustodyDomainID: "7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0001", CustodyUserID: "7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0009"}
	w, err := WriteSandboxProfile(path, ep, creds, SandboxProfileOptions{WebhookPublicKeyPEM: pubPEM, OperatorKey: op})
	must(t, err)
	st, err := os.Stat(w.SecretsDir)
	must(t, err)
	if st.Mode().Perm() != 0o700 {
		t.Errorf("secrets dir mode %04o", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(w.SecretsDir)
	for _, e := range ents {
		info, _ := e.Info()
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %04o", e.Name(), info.Mode().Perm())
		}
	}
	body, _ := os.ReadFile(path)
	for _, secret := range []string{"ps", "ws", "lt", "ct", "PRIVATE"} {
		if strings.Contains(string(body), ": "+secret+"\n") || strings.Contains(string(body), secret+"-----") {
			t.Errorf("profile holds secret %q inline:\n%s", secret, body)
		}
	}
	cfg, warns, err := Load(Options{ConfigFile: path, Getenv: env{}.get})
	if err != nil {
		t.Fatalf("load written profile: %v\n%s", err, body)
	}
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	if cfg.Payments.ClientSecret.Reveal() != "ps" || cfg.Wallet.Controls.ClientSecret.Reveal() != "cs" || cfg.Custody.Token.Reveal() != "ct" ||
		cfg.Liquidity.Token.Reveal() != "lt" || cfg.Payments.AuthURL != ep.Auth || cfg.Custody.UserID != creds.CustodyUserID {
		t.Errorf("round trip: %+v", cfg)
	}
	if !cfg.Custody.SigningKey.Public().(ed25519.PublicKey).Equal(op.Public()) {
		t.Error("operator key did not round-trip")
	}
	if !pub.Equal(cfg.Webhooks.PublicKey) || w.WebhookURL != "https://127.0.0.1:8788/webhooks/payments" {
		t.Errorf("webhooks: %+v %s", cfg.Webhooks, w.WebhookURL)
	}
	// Writing again over our own file works; over a foreign file does not.
	if _, err := WriteSandboxProfile(path, ep, creds, SandboxProfileOptions{WebhookPublicKeyPEM: pubPEM}); err != nil {
		t.Errorf("rewrite: %v", err)
	}
	foreign := filepath.Join(dir, "config.yaml")
	must(t, os.WriteFile(foreign, []byte("profiles: {}\n"), 0o600))
	if _, err := WriteSandboxProfile(foreign, ep, creds, SandboxProfileOptions{WebhookPublicKeyPEM: pubPEM}); err == nil {
		t.Error("overwrote a hand-written config file")
	}
}

// TestEmbeddedScale: embedded_sandbox's history_payments and live_rate
// reach the sandbox's options; live_rate 0 means none; a negative history
// is refused with its key.
func TestEmbeddedScale(t *testing.T) {
	cfg, err := loadYAML(t, "profile: big\nprofiles:\n  big:\n    environment: sandbox\n    embedded_sandbox: {speed: 10, history_payments: 100000, live_rate: 0}\n")
	if err != nil {
		t.Fatal(err)
	}
	if e := cfg.Embedded; e == nil || e.HistoryPayments != 100000 || e.LiveRate >= 0 || e.Speed != 10 {
		t.Fatalf("embedded %+v", cfg.Embedded)
	}
	if _, err := loadYAML(t, "profile: big\nprofiles:\n  big:\n    environment: sandbox\n    embedded_sandbox: {history_payments: -1}\n"); err == nil ||
		!strings.Contains(err.Error(), "embedded_sandbox.history_payments") {
		t.Fatalf("a negative history: %v", err)
	}
}

func loadYAML(t *testing.T, doc string) (*Config, error) {
	t.Helper()
	cfg, _, err := Parse("test.yaml", []byte(doc), "", func(string) string { return "" })
	return cfg, err
}
