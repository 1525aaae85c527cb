package paymentsview

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"treasury/data/live"
	"treasury/data/payments"
	"treasury/ui"
	"treasury/views/paystats"
	"treasury/views/viewtest"
)

// TestStateChartNamesItsWindowAndSpan: with 7 days chosen the chart's
// title read "counts held, last 24h window" next to 7 days' counts. It
// names the window counted and how long its history spans; every state
// is drawn in the same time slots (a state that first had payments an
// hour later is at its minimum, zero, for the first half).
func TestStateChartNamesItsWindowAndSpan(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 9, 37, 0, 0, time.UTC)
	now := t0
	week := 7 * 24 * time.Hour
	var held []payments.Payment
	fetch := func(context.Context) ([]payments.Payment, error) { return held, nil }
	fold := func(prev *live.PaymentSet, got []payments.Payment, at time.Time) (*live.PaymentSet, live.Changes) {
		return live.MergePayments(prev, got, at.Add(-week))
	}
	st := live.New(live.Options{Inline: true, Now: func() time.Time { return now }, Feeds: []live.Feed{
		live.FoldFeed(live.PaymentsKey, fetch, fold, live.FeedOptions[[]payments.Payment, *live.PaymentSet]{Interval: time.Minute}),
	}})
	key := paystats.StateHistories(st, week)
	for i := 0; i <= 120; i++ {
		now = t0.Add(time.Duration(i) * time.Minute)
		st.PutPayments(nil)
		at := now.Add(-time.Second)
		held = append(held, payments.Payment{PaymentID: fmt.Sprint("i", i), PaymentState: payments.Initiated, InitiatedAt: at, LastStateUpdatedAt: at})
		for k := range map[bool]int{false: 0, true: 50}[i == 60] + 1 {
			if i >= 60 { // none in the first hour, fifty at once, then one a minute
				held = append(held, payments.Payment{PaymentID: fmt.Sprint("f", i, "-", k), PaymentState: payments.Failed, InitiatedAt: at, LastStateUpdatedAt: at})
			}
		}
		st.FetchNow(context.Background(), live.Payments)
	}
	r := colorprofile.NoTTY
	ctx := &ui.Context{Colors: r, Dark: true, Theme: ui.NewTheme(r, true), Store: st, Now: func() time.Time { return now }}
	const w, sparkW = 89, 89 - (payments.StateWidth + 1) - 7 - 2
	out := drawStateChart(ctx, live.Get(st, key).Data, week, w, 10)
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "payments per state, last 7d") || !strings.Contains(lines[0], "last 24h window, 2h held") {
		t.Errorf("title %q: the 7 days counted, two hours held of the 24 hours' history", lines[0])
	}
	spark := func(state string) []rune {
		for _, l := range lines {
			if strings.HasPrefix(l, state+" ") {
				r := []rune(l)
				return r[len(r)-sparkW:]
			}
		}
		t.Fatalf("no line for %s in\n%s", state, out)
		return nil
	}
	blanks := func(r []rune) int { return len(r) - len([]rune(strings.TrimLeft(string(r), " "))) }
	if n := blanks(spark("INITIATED")); n != 0 {
		t.Errorf("INITIATED, counted from the start, begins with %d blank columns:\n%s", n, out)
	}
	low := func(r []rune) int { return len(r) - len([]rune(strings.TrimLeft(string(r), "▁"))) }
	if n := low(spark("FAILED")); n < sparkW/2-2 || n > sparkW/2+2 {
		t.Errorf("FAILED, none in the first half of the history, begins with %d columns at zero of %d:\n%s", n, sparkW, out)
	}
}

// TestStateChartMovesOnEveryPage: on FAILED by reason the chart stayed at
// "47s held" for two minutes while the scope bar moved on. It is counted
// at every poll and drawn anew on every page of the view.
func TestStateChartMovesOnEveryPage(t *testing.T) {
	e := world(t, viewtest.Options{})
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{"failed"}})
	title := func() string {
		for _, l := range strings.Split(v.Render(120, 40), "\n") {
			if strings.HasPrefix(l, "payments per state") {
				return l
			}
		}
		t.Fatalf("no chart on FAILED by reason:\n%s", v.Render(120, 40))
		return ""
	}
	if got := title(); !strings.Contains(got, "one point held") {
		t.Fatalf("title %q at the first count", got)
	}
	for range 2 {
		e.Advance(time.Minute)
	}
	send(v, ui.StoreChanged{})
	if got := title(); !strings.Contains(got, "2m held") {
		t.Errorf("title %q after two polls a minute apart", got)
	}
}
