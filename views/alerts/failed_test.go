package alerts_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/views/alerts"
	"treasury/views/viewtest"
)

// TestUnreadSourcesAreNamed: with the payments interface unreachable, the
// alerts its data would raise (declines, low payments balances) are
// unknown: the page names the sources that could not be read, the header
// does not say "no alerts", and "no open alerts" is never claimed.
func TestUnreadSourcesAreNamed(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) {
		c.Payments.BaseURL = "http://127.0.0.1:1"
		c.Payments.AuthURL = "http://127.0.0.1:1"
	}})
	tm := e.Program(t, alerts.New(e.Ctx, nil))
	viewtest.WaitFor(t, tm, "could not be read")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"the data alerts are raised from", "payments balances (low balance, runway)", "alerts unknown"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q", want)
		}
	}
	if strings.Contains(frame, "no open alerts") || strings.Contains(frame, "no alerts") {
		t.Errorf("an empty-state claim about alerts that could not be evaluated:\n%s", frame)
	}
}
