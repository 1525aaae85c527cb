package quotes_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/views/quotes"
	"treasury/views/viewtest"
)

// TestWrongTokenShowsTheFailure: with a wrong liquidity token the body
// names the refusal and what to fix where the quotes would be; no empty
// table, no chart drawn from nothing.
func TestWrongTokenShowsTheFailure(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Profile: func(c *config.Config) {
		c.Liquidity.Token = config.NewSecret("not-the-token")
	}})
	tm := e.Program(t, quotes.New(e.Ctx))
	viewtest.WaitFor(t, tm, "Could not read quotes")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"Could not read quotes", "401", "invalid bearer token", "what to do:"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q:\n%s", want, frame)
		}
	}
	for _, bad := range []string{"no quotes", "mid rate", "no data yet", "not-the-token"} {
		if strings.Contains(frame, bad) {
			t.Errorf("the frame shows %q:\n%s", bad, frame)
		}
	}
}
