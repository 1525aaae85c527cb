package overview_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"treasury/config"
	"treasury/desk/live"
	"treasury/views/viewtest"
	"treasury/wire/apierr"
)

// TestOverviewHealthCountsPolls: with the liquidity and payments
// interfaces unreachable, the Interfaces panel counts the failed polls as
// the payments view does (Snapshot.Failures: each poll once), not every
// call and fetch (which made "34 in a row" beside the view's "failed 5
// times in a row"), and a line too long for the panel drops whole parts,
// never ends cut mid-word ("26 in …").
func TestOverviewHealthCountsPolls(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) {
		c.Liquidity.BaseURL = "http://127.0.0.1:1"
		c.Payments.BaseURL, c.Payments.AuthURL = "http://127.0.0.1:1", "http://127.0.0.1:1"
	}})
	for range 3 {
		e.Fetch()
	}
	polls := e.P.Store.Snapshot(live.Payments).Failures
	var calls int
	for _, h := range e.P.Store.Health() {
		if h.Interface == apierr.Payments {
			calls = h.ConsecutiveFailures
		}
	}
	if polls < 2 || calls <= polls {
		t.Fatalf("the test needs more failed calls (%d) than failed polls (%d)", calls, polls)
	}
	for _, w := range []int{120, 100} {
		out := render(newView(e), e, w, 40)
		_, panel, ok := strings.Cut(out, "Interfaces")
		if !ok {
			t.Fatalf("no Interfaces panel at %d columns:\n%s", w, out)
		}
		var lines []string
		for _, l := range strings.Split(panel, "\n") {
			if i := strings.Index(l, "✖"); i >= 0 {
				lines = append(lines, strings.TrimRight(l, " "))
			}
		}
		if len(lines) < 2 {
			t.Fatalf("at %d columns, fewer than two failing interfaces:\n%s", w, panel)
		}
		for _, l := range lines {
			if strings.HasSuffix(l, "…") {
				t.Errorf("at %d columns a health line is cut: %q", w, l)
			}
			if m := regexp.MustCompile(`(\d+) in a row`).FindStringSubmatch(l); m != nil && !strings.Contains(l, "failed polls in a row") {
				t.Errorf("at %d columns a count of calls, not polls: %q", w, l)
			}
		}
		pay := ""
		for _, l := range lines {
			if strings.Contains(l, "payments ") && strings.Contains(l, "✖") {
				pay = l
			}
		}
		// At 120 columns the count fits; narrower, it may be left out
		// whole, never shown wrong.
		want := fmt.Sprintf(", %d failed polls", polls)
		if (w == 120 || strings.Contains(pay, "poll")) && !strings.Contains(pay, want) {
			t.Errorf("at %d columns the payments line %q lacks %q (as the payments view counts)", w, pay, want)
		}
		if strings.Contains(pay, fmt.Sprintf("%d ", calls)) {
			t.Errorf("at %d columns the payments line counts calls (%d): %q", w, calls, pay)
		}
	}
}
