package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAlertDefaults: a profile that sets nothing has runway, failure-rate
// and stale-feed alerts, and a terminal that rings; no low balance alert
// (no amount is low for every currency) and no webhook.
func TestAlertDefaults(t *testing.T) {
	for name, a := range map[string]Alerts{"built-in": Builtin().Alerts, "file": parseProfile(t, "")} {
		usd := a.Prefunded.For("USD")
		if usd.RunwayWarning.Value.String() != "24" || usd.RunwayCritical.Value.String() != "6" || usd.RunwayWarning.Set {
			t.Errorf("%s: runway %+v", name, usd)
		}
		if !usd.LowBalance.Value.IsZero() || !a.Liquidity.For("USD").LowBalance.Value.IsZero() || !a.Liquidity.For("USD").RunwayWarning.Value.IsZero() {
			t.Errorf("%s: a low balance or liquidity runway by default", name)
		}
		if a.RunwayWindow.Value.String() != "6h0m0s" || a.FailureRate.Warning.Value.String() != "10" || a.FailureRate.Critical.Value.String() != "30" ||
			a.FailureRate.MinFinished.Value != 20 || a.Stale.Warning.Value.String() != "1m0s" || a.Stale.Critical.Value.String() != "5m0s" {
			t.Errorf("%s: %+v", name, a)
		}
		if !a.Terminal.Bell || !a.Terminal.Desktop || a.Webhook != nil {
			t.Errorf("%s: terminal %+v webhook %+v", name, a.Terminal, a.Webhook)
		}
	}
}

// TestOldAlertKeys: low_balance still applies to both kinds and
// runway_hours is the prefunded warning, each with a warning saying what
// to write instead; a new key of the currency or the default wins.
func TestOldAlertKeys(t *testing.T) {
	body := payments + `    alerts:
      low_balance: {USD: "100", EUR: "5"}
      runway_hours: 12
      prefunded: {EUR: {low_balance: "7"}, default: {runway_critical_hours: 3}}
`
	cfg, warns, err := Parse(filepath.Join(t.TempDir(), "c.yaml"), []byte(profileYAML(body)), "", goodEnv.get)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 2 || !strings.Contains(warns[0].String()+warns[1].String(), "alerts.prefunded.<currency>") {
		t.Errorf("warnings %v", warns)
	}
	a := cfg.Alerts
	got := []string{a.Prefunded.For("USD").LowBalance.Value.String(), a.Liquidity.For("USD").LowBalance.Value.String(),
		a.Prefunded.For("EUR").LowBalance.Value.String(), a.Liquidity.For("EUR").LowBalance.Value.String(),
		a.Prefunded.For("GBP").RunwayWarning.Value.String(), a.Prefunded.For("GBP").RunwayCritical.Value.String()}
	if want := "100 100 7 5 12 3"; strings.Join(got, " ") != want {
		t.Errorf("thresholds %v, want %s", got, want)
	}
}

// TestAlertRules: the app's lines say what the file sets, what applies
// and where it comes from.
func TestAlertRules(t *testing.T) {
	a := parseProfile(t, `    alerts:
      low_balance: {XRP: "9"}
      prefunded: {default: {low_balance: "50"}, USD: {runway_warning_hours: 48}}
      stale: {warning: 90s}
`)
	rules := a.Rules([]string{"USD", "EUR"}, []string{"BTC"})
	var lines []string
	for _, r := range rules {
		var fs []string
		for _, f := range r.Fields {
			fs = append(fs, f.Key+"="+f.Value+"|"+f.Effective+"|"+f.Default+"|"+f.From)
		}
		lines = append(lines, r.Kind+" "+r.For+" ["+strings.Join(r.Path, ".")+"] "+strings.Join(fs, " "))
	}
	want := []string{
		"prefunded default [prefunded.default] runway_warning_hours=|24|24|built-in runway_critical_hours=|6|6|built-in low_balance=50|50|| low_balance_critical=|||",
		"prefunded EUR [prefunded.EUR] runway_warning_hours=|24|24|built-in runway_critical_hours=|6|6|built-in low_balance=|50|50|default low_balance_critical=|||",
		"prefunded USD [prefunded.USD] runway_warning_hours=48|48|24|built-in runway_critical_hours=|6|6|built-in low_balance=|50|50|default low_balance_critical=|||",
		"prefunded XRP [prefunded.XRP] runway_warning_hours=|24|24|built-in runway_critical_hours=|6|6|built-in low_balance=|50|50|default low_balance_critical=|||",
		"liquidity default [liquidity.default] low_balance=||| low_balance_critical=|||",
		"liquidity BTC [liquidity.BTC] low_balance=||| low_balance_critical=|||",
		"liquidity XRP [liquidity.XRP] low_balance=|9|9|old key low_balance_critical=|||",
		"runway window [] runway_window=|6h|6h|built-in",
		"payments failure rate [failure_rate] warning=|10|10|built-in critical=|30|30|built-in min_finished=|20|20|built-in",
		"feeds stale [stale] warning=90s|90s|1m|built-in critical=|5m|5m|built-in",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("rules:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func parseProfile(t *testing.T, alerts string) Alerts {
	t.Helper()
	cfg, _, err := Parse(filepath.Join(t.TempDir(), "c.yaml"), []byte(profileYAML(payments+alerts)), "", goodEnv.get)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Alerts
}

// written is a file as a person writes it: comments, blank lines, flow
// mappings, two profiles, a section that is not the profile's last.
const written = `# Treasury profiles.
profile: uat

profiles:
  # The test environment.
  uat:
    environment: test   # not prod
    payments: {base_url: https://pay.example, auth_url: https://auth.example, audience: "urn:payments-test:x", client_id: y, client_secret_env: PAYMENTS_SECRET}
    # what to watch
    alerts:   # thresholds
      runway_window: 4h
      prefunded:
        default: {runway_warning_hours: 36}   # a day and a half
        # USD pays the most
        USD: {low_balance: "10000.00"}
      stale: {warning: 2m}

    mouse: true

  # Production: read only.
  prod:
    environment: prod
    read_only: true
    payments:
      base_url: https://pay.prod
      auth_url: https://auth.prod
      audience: "urn:payments-prod:x"
      client_id: y
      client_secret_env: PAYMENTS_SECRET
# end of file
`

func writeFile(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "config.yaml")
	must(t, os.WriteFile(f, []byte(content), mode))
	return f
}

func read(t *testing.T, f string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	must(t, err)
	return string(b)
}

// TestSetAlertsKeepsTheFile: a threshold written back changes the
// profile's alerts section and nothing else: every other line, comments
// and the other profile included, is as it was, and the file keeps its
// mode.
func TestSetAlertsKeepsTheFile(t *testing.T) {
	f := writeFile(t, written, 0o600)
	af := AlertsFile{File: f, Profile: "uat"}
	a, err := af.Set([]string{"prefunded", "USD"}, map[string]string{"runway_critical_hours": "12", "low_balance_critical": "2500.50"})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(written, `    alerts:   # thresholds
      runway_window: 4h
      prefunded:
        default: {runway_warning_hours: 36}   # a day and a half
        # USD pays the most
        USD: {low_balance: "10000.00"}
      stale: {warning: 2m}
`, `    alerts: # thresholds
      runway_window: 4h
      prefunded:
        default: {runway_warning_hours: 36} # a day and a half
        # USD pays the most
        USD: {low_balance: "10000.00", low_balance_critical: "2500.50", runway_critical_hours: 12}
      stale: {warning: 2m}
`, 1)
	if got := read(t, f); got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	if usd := a.Prefunded.For("USD"); usd.RunwayCritical.Value.String() != "12" || usd.LowBalanceCritical.Value.String() != "2500.5" ||
		usd.RunwayWarning.Value.String() != "36" || usd.LowBalance.Value.String() != "10000" {
		t.Errorf("alerts as written: %+v", usd)
	}
	if st, _ := os.Stat(f); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %o", st.Mode().Perm())
	}
	// The whole file still loads, both profiles.
	for _, p := range []string{"uat", "prod"} {
		if _, _, err := Parse(f, []byte(read(t, f)), p, goodEnv.get); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}

	// Removing every value of a rule removes it, and the mappings it
	// leaves empty.
	if _, err := af.Set([]string{"prefunded", "USD"}, map[string]string{"runway_critical_hours": "", "low_balance_critical": "", "low_balance": ""}); err != nil {
		t.Fatal(err)
	}
	if _, err := af.Set([]string{"prefunded", "default"}, map[string]string{"runway_warning_hours": ""}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f); strings.Contains(got, "prefunded") || strings.Contains(got, "USD pays") || !strings.Contains(got, "      runway_window: 4h\n      stale: {warning: 2m}\n\n    mouse: true\n") {
		t.Errorf("after removing:\n%s", got)
	}
}

// TestSetAlertsNewSection: a profile without an alerts section gets one
// after its last line, at its keys' indentation, before the comment of
// what follows.
func TestSetAlertsNewSection(t *testing.T) {
	f := writeFile(t, written, 0o644)
	if _, err := (AlertsFile{File: f, Profile: "prod"}).Set([]string{"failure_rate"}, map[string]string{"critical": "40"}); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(written, "      client_secret_env: PAYMENTS_SECRET\n# end of file\n",
		"      client_secret_env: PAYMENTS_SECRET\n    alerts:\n      failure_rate: {critical: 40}\n# end of file\n", 1)
	if got := read(t, f); got != want {
		t.Errorf("file:\n%s\nwant:\n%s", got, want)
	}
	if _, err := (AlertsFile{File: f, Profile: "prod"}).Set(nil, map[string]string{"runway_window": "3h"}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, f); !strings.HasSuffix(got, "    alerts:\n      failure_rate: {critical: 40}\n      runway_window: 3h\n# end of file\n") {
		t.Errorf("file:\n%s", got)
	}
	// Windows line ends stay Windows line ends.
	crlf := writeFile(t, strings.ReplaceAll(written, "\n", "\r\n"), 0o644)
	if _, err := (AlertsFile{File: crlf, Profile: "uat"}).Set([]string{"liquidity", "BTC"}, map[string]string{"low_balance": "1.5"}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, crlf); strings.Count(got, "\n") != strings.Count(got, "\r\n") || !strings.Contains(got, "      liquidity:\r\n        BTC: {low_balance: \"1.5\"}\r\n") {
		t.Errorf("CRLF file:\n%q", got)
	}
}

// TestSetAlertsRefuses: a wrong value, a file that cannot be written and
// the built-in profile are refused, each saying why, and the file is left
// as it was.
func TestSetAlertsRefuses(t *testing.T) {
	f := writeFile(t, written, 0o600)
	_, err := AlertsFile{File: f, Profile: "uat"}.Set([]string{"prefunded", "EUR"}, map[string]string{"runway_warning_hours": "soon"})
	if !errors.Is(err, ErrNotWritten) || !strings.Contains(err.Error(), "profiles.uat.alerts.prefunded.EUR.runway_warning_hours: must be a number of hours") {
		t.Errorf("bad value: %v", err)
	}
	_, err = AlertsFile{File: f, Profile: "uat"}.Set([]string{"liquidity", "USD"}, map[string]string{"runway_warning_hours": "3"})
	if err == nil || !strings.Contains(err.Error(), "have no runway") {
		t.Errorf("liquidity runway: %v", err)
	}
	if got := read(t, f); got != written {
		t.Errorf("a refused value changed the file:\n%s", got)
	}

	_, err = AlertsFile{Profile: SandboxProfile, Would: "/home/ana/.config/treasury/config.yaml"}.Set(nil, map[string]string{"runway_window": "2h"})
	if !errors.Is(err, ErrNotWritten) || !strings.Contains(err.Error(), `built-in profile "sandbox" has no file`) || !strings.Contains(err.Error(), "/home/ana/.config/treasury/config.yaml") {
		t.Errorf("built-in: %v", err)
	}
	_, err = AlertsFile{File: f, Profile: SandboxProfile}.Set(nil, map[string]string{"runway_window": "2h"})
	if !errors.Is(err, ErrNotWritten) || !strings.Contains(err.Error(), `"sandbox" is not in `+f) {
		t.Errorf("built-in with a file: %v", err)
	}

	if os.Geteuid() != 0 { // root writes whatever the mode
		ro := writeFile(t, written, 0o444)
		_, err = AlertsFile{File: ro, Profile: "uat"}.Set(nil, map[string]string{"runway_window": "2h"})
		if !errors.Is(err, ErrNotWritten) || !strings.Contains(err.Error(), "is not writable") {
			t.Errorf("read-only file: %v", err)
		}
		if got := read(t, ro); got != written {
			t.Error("a read-only file was changed")
		}
	}
}

// TestSetAlertsThroughALink: a configuration file that is a symbolic link
// (kept in a dotfiles repository, say) is written where it points, and
// stays a link.
func TestSetAlertsThroughALink(t *testing.T) {
	target := writeFile(t, written, 0o600)
	link := filepath.Join(t.TempDir(), "config.yaml")
	must(t, os.Symlink(target, link))
	if _, err := (AlertsFile{File: link, Profile: "uat"}).Set(nil, map[string]string{"runway_window": "2h"}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if !strings.Contains(read(t, target), "runway_window: 2h") {
		t.Error("the target was not written")
	}
}
