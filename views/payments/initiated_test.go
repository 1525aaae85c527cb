package paymentsview

import (
	"strings"
	"testing"
	"time"

	"treasury/desk/history"
	"treasury/views/viewtest"
)

// archivePayments gives e a history file of payments initiated per
// minute from 2 days and 3 hours ago until a minute ago: 2 a minute now
// COMPLETED, 1 every half hour now FAILED, 1 a minute in the last hour
// still INITIATED.
func archivePayments(t *testing.T, e *viewtest.Env) {
	now := e.Sandbox.Clock().Now().Truncate(time.Minute)
	start := now.Add(-(51 * time.Hour))
	var b history.Batch
	for m := start; m.Before(now); m = m.Add(time.Minute) {
		b.Payments = append(b.Payments, history.Count{State: "COMPLETED", Minute: m, N: 2})
		if m.Sub(start)%(30*time.Minute) == 0 {
			b.Payments = append(b.Payments, history.Count{State: "FAILED", Minute: m, N: 1})
		}
		if now.Sub(m) <= time.Hour {
			b.Payments = append(b.Payments, history.Count{State: "INITIATED", Minute: m, N: 1})
		}
	}
	b.PaymentsFrom, b.PaymentsTo = start, now
	e.Archive(t, b)
}

// TestPaymentsWeekGolden: with a history file, the chart is of the
// payments initiated per state over the view's window, read from the
// file: 24 hours at first, whole, each state's figure the sum of its line
// (2 a minute: 2880 COMPLETED); w opens the week, of which the file holds
// 2 days 3 hours, which the title says: the chart is building, and shows
// no sums of the part held beside the scope line's counts of the whole
// window (6120 COMPLETED would read as the week's).
func TestPaymentsWeekGolden(t *testing.T) {
	e := fullWorld(t, viewtest.Options{})
	archivePayments(t, e)
	tm := e.Program(t, New(e.Ctx, e.P))
	viewtest.WaitAll(t, tm, "payments initiated per state now, last 24h", "(last 24h; ", "2880")
	viewtest.Keys(tm, "w")
	viewtest.WaitAll(t, tm, "payments initiated per state now, last 7d", "(last 7d window, 2d3h held; building", "last 7d   [ ] scope")
	frame := viewtest.Golden(t, tm)
	for state, want := range map[string]string{"COMPLETED": "…", "FAILED": "…", "INITIATED": "…", "DECLINED": "—"} {
		if got := figure(frame, state); got != want {
			t.Errorf("%s: %q, want %q", state, got, want)
		}
	}
}

// figure is the word after the first state's name on a line of frame's
// chart (the scope bar above it names states too).
func figure(frame, state string) string {
	_, chart, _ := strings.Cut(frame, "payments initiated per state now")
	for _, l := range strings.Split(chart, "\n") {
		f := strings.Fields(l)
		for i := 0; i+1 < len(f); i++ {
			if f[i] == state {
				return f[i+1]
			}
		}
	}
	return ""
}
