package ledger_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/views/ledger"
	"treasury/views/viewtest"
)

// TestUnreachable: with the payments interface unreachable the body names
// the refused connection where the movements would be.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) { c.Payments.BaseURL = "http://127.0.0.1:1" }})
	tm := e.Program(t, ledger.New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "Could not read ledger transactions")
	frame := viewtest.Frame(t, tm)
	if !strings.Contains(frame, "connection refused") || strings.Contains(frame, "no ledger transactions") {
		t.Errorf("the failure is not named where the movements would be:\n%s", frame)
	}
}
