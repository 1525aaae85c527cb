package client_test

import (
	"context"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/wire/payments"
	"treasury/wire/payments/client"
)

// TestChangedReadsTransitions: Changed answers every payment whose state
// changed at or after the instant asked, and only those, from a server of
// the document. Of a server known to take only the spec's filter (the
// variant) it asks nothing: it says it cannot answer, and that is no
// error (the platform's tests cover a server that refuses the range type).
func TestChangedReadsTransitions(t *testing.T) {
	faces(t, nil, func(t *testing.T, srv *sandbox.Server, variant bool) {
		ctx := context.Background()
		c, _ := fullClient(t, srv, client.Options{})
		if variant { // the client learns the spec's filter as it does from the poll's first read
			if _, err := c.AllFiltered(ctx, payments.Filter{AfterTimestamp: new(srv.Clock().Now())}); err != nil {
				t.Fatal(err)
			}
		}
		after := srv.Clock().Now()
		srv.AdvanceClock(20 * time.Minute)
		got, ok, err := c.Changed(ctx, after)
		if err != nil {
			t.Fatal(err)
		}
		if variant {
			if ok || len(got) != 0 || !c.Dialect().NarrowFilter {
				t.Fatalf("a server of the spec's filter: ok %v, %d payments, dialect %+v", ok, len(got), c.Dialect())
			}
			return
		}
		all, err := c.AllFiltered(ctx, payments.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, p := range all {
			if !p.LastStateUpdatedAt.Before(after) {
				want[p.PaymentID] = true
			}
		}
		if !ok || len(want) == 0 {
			t.Fatalf("ok %v, %d payments changed in 20 minutes of traffic: the test proves nothing", ok, len(want))
		}
		for _, p := range got {
			if !want[p.PaymentID] {
				t.Errorf("payment %s last changed at %s, before %s", p.PaymentID, p.LastStateUpdatedAt, after)
			}
			delete(want, p.PaymentID)
		}
		for id := range want {
			t.Errorf("payment %s changed and was not answered", id)
		}
	})
}
