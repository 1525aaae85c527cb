package live

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"treasury/wire/payments"
	"treasury/wire/webhook"
)

// transition is a PAYMENT_STATE_TRANSITION of payment id to st at at.
func transition(n int, id string, st payments.State, at time.Time) webhook.Event {
	ev := webhook.Event{ID: fmt.Sprintf("n%d", n), EventType: webhook.EventPaymentStateTransition, CreateDate: at}
	ev.EventData.PaymentID, ev.EventData.PaymentState, ev.EventData.CreatedAt = id, st, at
	return ev
}

// TestApplyPaymentEventsAsOneAtATime: a batch of notifications (a payment
// moved twice, one of its notifications arriving after a later one, a
// payment held, a payment first known from them) leaves the payments and
// the arrivals as applying them one at a time does.
func TestApplyPaymentEventsAsOneAtATime(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	evs := []webhook.Event{
		transition(1, "p1", payments.Validating, t0.Add(time.Minute)),
		transition(2, "p1", payments.Completed, t0.Add(3*time.Minute)),
		transition(3, "p1", payments.Transferring, t0.Add(2*time.Minute)), // after a later one: not applied
		transition(4, "p2", payments.Failed, t0.Add(time.Minute)),
		transition(5, "p3", payments.Initiated, t0.Add(time.Minute)),   // first known here: partial
		transition(6, "p2", payments.Validating, t0.Add(-time.Minute)), // older than what is held
	}
	now := func() time.Time { return t0.Add(time.Hour) }
	one, batch := New(Options{Now: now}), New(Options{Now: now})
	for _, s := range []*Store{one, batch} {
		s.PutPayments([]payments.Payment{pay("p1", payments.Initiated, t0), pay("p2", payments.Initiated, t0)})
	}
	for _, ev := range evs {
		one.ApplyPaymentEvent(ev)
	}
	batch.ApplyPaymentEvents(evs)
	a, b := Get(one, PaymentsKey).Data, Get(batch, PaymentsKey).Data
	if a.Len() != 3 || b.Len() != a.Len() {
		t.Fatalf("%d payments one at a time, %d in a batch; want 3", a.Len(), b.Len())
	}
	for _, id := range []string{"p1", "p2", "p3"} {
		x, _ := a.Get(id)
		y, _ := b.Get(id)
		if !reflect.DeepEqual(x, y) {
			t.Errorf("%s one at a time %+v\nin a batch %+v", id, x, y)
		}
		xs, ys := one.Arrivals(id), batch.Arrivals(id)
		if !reflect.DeepEqual(xs, ys) {
			t.Errorf("%s arrivals one at a time %+v\nin a batch %+v", id, xs, ys)
		}
	}
	if p, _ := b.Get("p1"); p.PaymentState != payments.Completed {
		t.Errorf("p1 is %s, want COMPLETED (its latest notification)", p.PaymentState)
	}
	if p, _ := b.Get("p3"); !p.Partial {
		t.Error("p3, known only from a notification, is not partial")
	}
	if as := batch.Arrivals("p1"); len(as) != 3 || as[2].Applied {
		t.Errorf("p1 arrivals %+v: the third, older than the second, must not be applied", as)
	}
}

// BenchmarkApplyPaymentEvents20k folds notifications into a store holding
// 20,000 payments (a sandbox at 240x keeps a day: about 17,000), one at a
// time and in batches of 64, per notification.
func BenchmarkApplyPaymentEvents20k(b *testing.B) {
	for _, size := range []int{1, 64} {
		b.Run(fmt.Sprintf("batch=%d", size), func(b *testing.B) {
			t0 := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
			s := New(Options{})
			id := func(j int) string { return fmt.Sprintf("%08x-3f7a-4d47-9a52-2a4c1d7e0000", j) }
			held := make([]payments.Payment, 20000)
			for j := range held {
				held[j] = pay(id(j), payments.Initiated, t0.Add(time.Duration(j)*time.Second))
			}
			s.PutPayments(held)
			evs := make([]webhook.Event, 0, size)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				evs = append(evs, transition(i, id(i%20000), payments.Transferring, t0.Add(time.Duration(20000+i)*time.Second)))
				if len(evs) == size {
					s.ApplyPaymentEvents(evs)
					evs = evs[:0]
				}
			}
			s.ApplyPaymentEvents(evs)
		})
	}
}
