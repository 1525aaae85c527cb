package get

import (
	"strings"
	"testing"
)

// TestDisplaySettingsDoNotStopGet: a profile whose display settings are
// wrong (a keys: action that does not exist, a theme: that is none, a
// commands: entry with a bad placeholder, a searches: entry of no view)
// still exports: get warns about each on stderr, with the file and line,
// and prints the records (a cron export does not fail on a key binding).
func TestDisplaySettingsDoNotStopGet(t *testing.T) {
	config := `profile: ops
profiles:
  ops:
    environment: sandbox
    embedded_sandbox: {seed: 1, history_payments: 50}
    theme: neon
    keys:
      frobnicate: [ctrl+x]
    commands:
      - name: ticket
        key: ctrl+t
        program: /bin/echo
        args: ["{not a field}"]
    searches:
      - title: Nowhere
        view: nosuchview
`
	code, out, stderr := getRunWith(t, config, "payment-balances", "-o", "csv")
	if code != 0 || !strings.HasPrefix(out, "funding_type,currency,available_balance,reserved_balance") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	for _, want := range []string{"warning:", ".yaml:6: profiles.ops.theme", ".yaml:8: profiles.ops.keys", "profiles.ops.commands[0].args[0]",
		"a display setting: ignored here", "frobnicate", "neon"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
