package platform_test

import (
	"context"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// TestWiderWindowShownAsItComes: a view asking for 90 days over a
// history of thousands of payments sees them in parts, newest first,
// before the read ends: each set shown says it holds back to where it
// was read (never further), holding every payment the platform has since
// then, and the last holds the whole window.
func TestWiderWindowShownAsItComes(t *testing.T) {
	opts := sandboxtest.Options()
	opts.HistoryPayments, opts.Observe = 20_000, func(sandbox.Exchange) {}
	srv, p := openOn(t, opts)
	ctx := context.Background()
	p.Store.FetchNow(ctx, live.Payments) // the default window
	now := srv.Clock().Now()
	since := now.Add(-120 * 24 * time.Hour)
	all, err := p.Payments.AllFiltered(ctx, payments.Filter{AfterTimestamp: &since})
	if err != nil {
		t.Fatal(err)
	}
	sub := p.Store.Subscribe()
	defer sub.Close()
	sub.Watch(live.Window(live.Payments, 90*24*time.Hour))
	type seen struct {
		since time.Time
		n     int
	}
	var sets []seen
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range sub.C() {
			ps := live.Get(p.Store, live.PaymentsKey).Data
			if n := len(sets); n == 0 || sets[n-1].n != ps.Len() {
				sets = append(sets, seen{ps.Since(), ps.Len()})
				// Every payment of the platform initiated since the set
				// says it holds is held.
				for _, x := range all {
					if _, ok := ps.Get(x.PaymentID); !ok && !x.When().Before(ps.Since()) && !x.PaymentState.Unfinished() {
						t.Errorf("the set says it holds since %v, lacks %s of %v", ps.Since(), x.PaymentID, x.When())
						return
					}
				}
			}
			if ps.Since().Before(now.Add(-89 * 24 * time.Hour)) {
				return
			}
		}
	}()
	p.Store.FetchNow(ctx, live.Payments)
	<-done
	if len(sets) < 3 {
		t.Fatalf("the wider window was shown in %d parts: %+v", len(sets), sets)
	}
	for i := 1; i < len(sets); i++ {
		if sets[i].since.After(sets[i-1].since) || sets[i].n < sets[i-1].n {
			t.Fatalf("part %d went back: %+v after %+v", i, sets[i], sets[i-1])
		}
	}
	ps := live.Get(p.Store, live.PaymentsKey).Data
	held := 0
	for _, x := range all {
		if _, ok := ps.Get(x.PaymentID); ok {
			held++
		}
	}
	if ps.Since().After(now.Add(-89*24*time.Hour)) || held < len(all)*8/10 {
		t.Fatalf("at the end the set holds %d of %d back to %v", held, len(all), ps.Since())
	}
}
