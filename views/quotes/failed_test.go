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
	e := viewtest.New(t, viewtest.Options{Skip: noTrades, Profile: func(c *config.Config) {
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
	// A static token is not renewed: the advice names the profile's token
	// settings, not the OAuth client credentials.
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "║", " ").Replace(frame)), " ")
	if !strings.Contains(flat, "liquidity.token_env or token_file") {
		t.Errorf("the guidance does not name the token's settings:\n%s", frame)
	}
	for _, bad := range []string{"no quotes", "mid rate", "no data yet", "not-the-token", "client credentials", "new token is fetched"} {
		if strings.Contains(frame, bad) {
			t.Errorf("the frame shows %q:\n%s", bad, frame)
		}
	}
}
