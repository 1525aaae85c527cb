package sandbox

import (
	"bytes"
	"context"
	"flag"
	"io"
	"strings"
	"testing"
	"treasury/commands/cli/clitest"
)

// TestSandboxScaleFlags checks that --history-payments, --live-rate and
// --variant reach the sandbox options (a live rate of 0 is none), and that
// values out of range are usage errors.
func TestSandboxScaleFlags(t *testing.T) {
	parse := func(args ...string) sandboxFlags {
		t.Helper()
		var f sandboxFlags
		fs := flag.NewFlagSet("sandbox", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f.register(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatalf("parse %v: %v", args, err)
		}
		return f
	}
	if o := parse().options(); o.HistoryPayments != 3000 || o.LivePaymentsPerMinute != 12 {
		t.Fatalf("defaults: history %d, live %g", o.HistoryPayments, o.LivePaymentsPerMinute)
	}
	if o := parse("--history-payments", "250", "--live-rate", "90.5").options(); o.HistoryPayments != 250 || o.LivePaymentsPerMinute != 90.5 {
		t.Fatalf("flags: history %d, live %g", o.HistoryPayments, o.LivePaymentsPerMinute)
	}
	if o := parse("--live-rate", "0").options(); o.LivePaymentsPerMinute >= 0 {
		t.Fatalf("--live-rate 0 gave %g, want a negative rate (none)", o.LivePaymentsPerMinute)
	}
	if parse().options().Variant || !parse("--variant").options().Variant {
		t.Fatal("--variant does not reach Options.Variant")
	}
	for _, args := range [][]string{{"--history-payments", "0"}, {"--history-payments", "-5"}, {"--live-rate", "-1"}} {
		var out bytes.Buffer
		e, stderr := clitest.Env(t, &out)
		if code := clitest.Run(context.Background(), Command, e, append([]string{"--addr", "127.0.0.1:0"}, args...)...); code != 2 || !strings.Contains(stderr.String(), args[0]) {
			t.Errorf("sandbox %v: exit %d, stderr %q; want 2 naming the flag", args, code, stderr.String())
		}
	}
}
