package payworld

import (
	"testing"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

// TestRetainHoldsWhatStillMoves runs a world that keeps a day beside one
// that keeps everything, for eight days: the payments that return days
// after they were created, long out of the kept day, still return (the
// same notifications, in the same order) and can be looked up by id until
// they have, and are forgotten after.
func TestRetainHoldsWhatStillMoves(t *testing.T) {
	start := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	open := func(retain time.Duration) (*World, *simkit.Clock, *[]webhook.Event) {
		clock := simkit.NewFrozenClock(start)
		var evs []webhook.Event
		w, err := New(&simkit.Env{Seed: 3, Clock: clock}, Options{HistoryPayments: 100, LivePerMinute: 1, Retain: retain,
			Notify: func(e webhook.Event) { evs = append(evs, e) }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		return w, clock, &evs
	}
	all, allClock, allEvs := open(-1)
	kept, keptClock, keptEvs := open(24 * time.Hour)
	late, heldSeen := 0, 0
	gone := map[string]bool{}
	for range 8 * 24 {
		allClock.Advance(time.Hour)
		keptClock.Advance(time.Hour)
		all.Advance()
		kept.Advance()
		kept.mu.RLock()
		heldSeen = max(heldSeen, len(kept.held))
		for seq, p := range kept.held {
			id := kept.paymentID(seq)
			if got, ok := kept.lookup(id); !ok || got != seq || kept.payment(seq) != p {
				t.Fatalf("held payment %s (seq %d) not found by id", id, seq)
			}
			gone[id] = true
		}
		kept.mu.RUnlock()
	}
	if len(*allEvs) != len(*keptEvs) {
		t.Fatalf("%d notifications kept one day, %d kept all", len(*keptEvs), len(*allEvs))
	}
	for i, e := range *allEvs {
		k := (*keptEvs)[i]
		if e.ID != k.ID || e.EventData.PaymentState != k.EventData.PaymentState || !e.CreateDate.Equal(k.CreateDate) {
			t.Fatalf("notification %d: %s %s kept one day, %s %s kept all", i, k.ID, k.EventData.PaymentState, e.ID, e.EventData.PaymentState)
		}
		if e.EventData.PaymentState == payments.Returned && e.CreateDate.Sub(e.EventData.CreatedAt) > 24*time.Hour {
			late++
		}
	}
	if late == 0 || heldSeen == 0 {
		t.Fatalf("%d returns came over a day after their payment, %d payments were held at most: nothing tested", late, heldSeen)
	}
	// Six days on, every payment held earlier has returned and gone.
	keptClock.Advance(6 * 24 * time.Hour)
	kept.Advance()
	kept.mu.RLock()
	defer kept.mu.RUnlock()
	for id := range gone {
		if _, ok := kept.lookup(id); ok {
			t.Fatalf("payment %s still found by id six days after it was held", id)
		}
	}
}
