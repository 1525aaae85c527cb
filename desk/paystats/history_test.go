package paystats

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"
	"weak"

	"treasury/desk/live"
	"treasury/wire/payments"
)

// historyWorld is a store whose payments feed reads, at each poll, the
// payments initiated in the window held (*held) before the clock's now, as
// the platform's feed does, evicting what is older.
func historyWorld(now *time.Time, held *time.Duration, all []payments.Payment) *live.Store {
	fetch := func(context.Context) ([]payments.Payment, error) {
		var out []payments.Payment
		for _, p := range all {
			if !p.When().Before(now.Add(-*held)) {
				out = append(out, p)
			}
		}
		return out, nil
	}
	fold := func(prev *live.PaymentSet, got []payments.Payment, at time.Time) (*live.PaymentSet, live.Changes) {
		return live.MergePayments(prev, got, at.Add(-*held))
	}
	return live.New(live.Options{Inline: true, Now: func() time.Time { return *now }, Feeds: []live.Feed{
		live.FoldFeed(live.PaymentsKey, fetch, fold, live.FeedOptions[[]payments.Payment, *live.PaymentSet]{Interval: time.Minute}),
	}})
}

// TestStateHistoryKeepsEachWindowApart: the chart of the payments per
// state counted every payment held, whatever window the set held for the
// widest view: after a look at 7 days, the 24 hours' line drew drops that
// never happened, and the header said "last 24h" over 7 days' counts;
// nothing was counted while no payment changed. Each window has its own
// history, counted at every poll, of the payments initiated in it only,
// with a gap while the set did not hold it.
func TestStateHistoryKeepsEachWindowApart(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	var all []payments.Payment
	for i, ago := range []time.Duration{72 * time.Hour, 50 * time.Hour, 30 * time.Hour, 3 * time.Hour, time.Hour} {
		at := now.Add(-ago)
		all = append(all, payments.Payment{PaymentID: fmt.Sprint(i), PaymentState: payments.Completed, InitiatedAt: at, LastStateUpdatedAt: at})
	}
	held := 24 * time.Hour
	st := historyWorld(&now, &held, all)
	day, week := StateHistories(st, 24*time.Hour), StateHistories(st, 7*24*time.Hour)
	poll := func(n int) {
		for range n {
			st.FetchNow(context.Background(), live.Payments)
			now = now.Add(time.Minute)
		}
	}
	poll(5) // the set holds a day: nothing changes after the first poll
	d := live.Get(st, day).Data
	if got := d.Count(d.Latest, payments.Completed); got != 2 || len(d.Points) != 5 {
		t.Fatalf("a day: %d completed, %d points; want 2 and a point a minute though nothing changed", got, len(d.Points))
	}
	if w := live.Get(st, week).Data; !w.Latest.Gap || len(w.Points) != 0 {
		t.Fatalf("a week while a day is held: %+v, want a gap and no count", w)
	}
	held = 7 * 24 * time.Hour // a session looks at 7 days
	poll(5)
	w := live.Get(st, week).Data
	if got := w.Count(w.Latest, payments.Completed); got != 5 || w.Latest.Gap || w.Points[0].Gap {
		t.Fatalf("a week held: %d completed (want 5), latest %+v, first point %+v", got, w.Latest, w.Points[0])
	}
	held = 24 * time.Hour // back to a day: the older payments leave the set
	poll(5)
	d = live.Get(st, day).Data
	for _, p := range d.Points {
		if n := d.Count(p, payments.Completed); p.Gap || n != 2 {
			t.Fatalf("the day's line at %v: %d (gap %v), want 2 throughout", p.At, n, p.Gap)
		}
	}
	w = live.Get(st, week).Data
	if !w.Latest.Gap || !w.Points[len(w.Points)-1].Gap {
		t.Fatalf("the week once no longer held: latest %+v, last point %+v; want a gap, not a day's counts", w.Latest, w.Points[len(w.Points)-1])
	}
	if first, last := d.Span(); last.Sub(first) != 14*time.Minute {
		t.Fatalf("the day's history spans %v, want the 15 polls' 14 minutes", last.Sub(first))
	}
}

// TestStateHistoryEndsWithItsWatcher: with no history file behind it, a
// window's state history is built while a session watches it, and ends
// when the last one leaves, as every derivation does: its value dropped,
// the payment set it counted last (an older version, once the payments
// changed) can be collected. Pinned for nobody, it held that set, and
// counted a point a minute, for as long as the process ran.
func TestStateHistoryEndsWithItsWatcher(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	held := 24 * time.Hour
	var all []payments.Payment
	for i := range 50 {
		at := now.Add(-time.Duration(i) * time.Minute)
		all = append(all, payments.Payment{PaymentID: fmt.Sprint("p", i), PaymentState: payments.Completed, InitiatedAt: at, LastStateUpdatedAt: at})
	}
	st := historyWorld(&now, &held, all)
	if st.Archived() {
		t.Fatal("the store has a history file")
	}
	day := StateHistories(st, 24*time.Hour)
	sub := st.Subscribe()
	sub.Watch(day.Topic())
	st.FetchNow(context.Background(), live.Payments)
	counted := live.Get(st, live.PaymentsKey).Data
	if h := live.Get(st, day).Data; h.set != counted || h.Count(h.Latest, payments.Completed) != 50 {
		t.Fatalf("the history did not count the set held: %+v", h.Latest)
	}
	older := weak.Make(counted)
	counted = nil

	sub.Close() // the session leaves
	// A payment changes: the set held is a new version, the one counted
	// an older one.
	st.PutPayment(payments.Payment{PaymentID: "p0", PaymentState: payments.Completed, InitiatedAt: now, LastStateUpdatedAt: now.Add(time.Second)})
	if n := st.PauseUnused(time.Now().Add(time.Hour)); n == 0 {
		t.Fatal("nothing was paused")
	}
	if _, active := st.Derivations(); slices.Contains(active, day.Topic()) {
		t.Fatalf("the state history is still built with nobody watching: %v", active)
	}
	for range 5 {
		runtime.GC()
	}
	if older.Value() != nil {
		t.Fatal("the payment set the ended history counted is still held")
	}
}
