package live

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"treasury/wire/money"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

// full is a payment as a read by id or a poll gives it: parties,
// internalId, country, payout and fees, with its JSON as received.
func full(id string, st payments.State, at time.Time) payments.Payment {
	p := pay(id, st, at)
	p.Originator.InternalID, p.Originator.OriginatorIdentityID, p.Originator.OriginatorIdentityNickName = "INV-7", "orig-1", "Acme"
	p.Destination = payments.Destination{DestinationCurrency: "INR", DestinationAmount: money.N(money.MustParse("830.00")),
		DestinationCountry: "IN", Payout: "IN_IMPS", BeneficiaryIdentityID: "ben-1", BeneficiaryIdentityNickName: "Priya"}
	p.Fees = []payments.FeeSummary{{TotalFee: money.N(money.MustParse("1.50")), FeeCurrency: "USD"}}
	p.SetRaw([]byte(`{"paymentId":"` + id + `","paymentState":"` + string(st) + `"}`))
	return p
}

func notification(id string, st payments.State, initiated, at time.Time) webhook.Event {
	return webhook.Event{ID: id + "/" + string(st), EventType: "PAYMENT_STATE_TRANSITION", CreateDate: at,
		EventData: webhook.EventData{PaymentID: id, PaymentState: st, CreatedAt: initiated,
			SourceCurrency: "USD", SourceAmount: money.N(money.MustParse("10.00")),
			DestinationCurrency: "INR", PayoutAmount: money.N(money.MustParse("830.00"))}}
}

// TestNotifiedPaymentIsPartialUntilRead: a payment first known through a
// notification is held as Partial (the notification carries no parties,
// internalId or fees); a full read completes it, keeping the
// notification's later state when the read is of an earlier one.
func TestNotifiedPaymentIsPartialUntilRead(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	s := New(Options{})
	s.ApplyPaymentEvent(notification("p1", payments.Initiated, t0, t0.Add(time.Second)))
	got, _ := Get(s, PaymentsKey).Data.Get("p1")
	if got == nil || !got.Partial || got.PaymentState != payments.Initiated {
		t.Fatalf("a payment known only from a notification is not marked partial: %+v", got)
	}
	s.ApplyPaymentEvent(notification("p1", payments.Transferring, t0, t0.Add(time.Minute)))
	s.PutPayment(full("p1", payments.Validating, t0.Add(30*time.Second))) // a read of an earlier state
	got, _ = Get(s, PaymentsKey).Data.Get("p1")
	if got.Partial || got.InternalID() != "INV-7" || got.Destination.BeneficiaryIdentityNickName != "Priya" || len(got.Fees) != 1 {
		t.Fatalf("the full read did not complete the partial record: %+v", got)
	}
	if got.PaymentState != payments.Transferring || !got.LastStateUpdatedAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("the read of an earlier state moved the payment back to %s at %v", got.PaymentState, got.LastStateUpdatedAt)
	}
	if len(got.RawJSON()) != 0 {
		t.Fatalf("a combined record still claims to be the JSON received: %s", got.RawJSON())
	}
}

// TestNotificationNeverBlanksAFullRecord: a notification about a payment
// held in full moves its state and keeps every field the notification
// does not carry; the record is not marked partial, and it no longer
// claims to be the JSON received (which says the old state).
func TestNotificationNeverBlanksAFullRecord(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	s := New(Options{})
	s.PutPayment(full("p1", payments.Initiated, t0))
	s.ApplyPaymentEvent(notification("p1", payments.Completed, t0, t0.Add(time.Minute)))
	got, _ := Get(s, PaymentsKey).Data.Get("p1")
	if got.PaymentState != payments.Completed {
		t.Fatalf("the notification did not move a payment read from the network: %s", got.PaymentState)
	}
	if got.Partial || got.InternalID() != "INV-7" || got.Destination.Payout != "IN_IMPS" || got.Originator.OriginatorIdentityNickName != "Acme" || len(got.Fees) != 1 {
		t.Fatalf("the notification blanked fields of the full record: %+v", got)
	}
	if len(got.RawJSON()) != 0 {
		t.Fatalf("the moved record still shows the JSON received in the old state: %s", got.RawJSON())
	}
	// The same through MergePayments directly: a partial record never
	// replaces a fuller one's fields.
	ps := merge(nil, []payments.Payment{full("p2", payments.Initiated, t0)})
	ps = merge(ps, []payments.Payment{{PaymentID: "p2", PaymentState: payments.Validating, InitiatedAt: t0, LastStateUpdatedAt: t0.Add(time.Second), Partial: true}})
	if p, _ := ps.Get("p2"); p.Partial || p.PaymentState != payments.Validating || p.InternalID() != "INV-7" {
		t.Fatalf("merge of a partial record over a full one: %+v", p)
	}
}

// TestPartialPaymentIsReadByIDWhenShown: a payment first known through a
// notification is left partial for the next poll while nobody shows it;
// shown (asked for, by as many sessions as show it), it is read by id at
// once, once however many notifications arrive meanwhile; a read that
// fails leaves it partial.
func TestPartialPaymentIsReadByIDWhenShown(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	calls := map[string]int{}
	release := make(chan struct{})
	s := New(Options{ReadPayment: func(ctx context.Context, id string) (payments.Payment, error) {
		mu.Lock()
		calls[id]++
		mu.Unlock()
		<-release
		if id == "broken" {
			return payments.Payment{}, errors.New("dial tcp: connection refused")
		}
		return full(id, payments.Initiated, t0), nil
	}})
	defer s.Close()
	sub := s.Subscribe()
	defer sub.Close()
	sub.Watch(Payments)
	s.ApplyPaymentEvent(notification("p1", payments.Initiated, t0, t0.Add(time.Second)))
	s.ApplyPaymentEvent(notification("p1", payments.Validating, t0, t0.Add(2*time.Second)))
	s.ApplyPaymentEvent(notification("broken", payments.Initiated, t0, t0.Add(time.Second)))
	s.Sync()
	mu.Lock()
	if len(calls) != 0 {
		t.Fatalf("read by id with nobody showing them: %v", calls)
	}
	mu.Unlock()
	for range 3 { // three sessions show them
		s.WantDetails([]string{"p1", "broken", "not-held"})
	}
	close(release)
	deadline := time.After(5 * time.Second)
	for {
		if p, _ := Get(s, PaymentsKey).Data.Get("p1"); p != nil && !p.Partial {
			if p.InternalID() != "INV-7" || p.PaymentState != payments.Validating {
				t.Fatalf("completed record %+v", p)
			}
			break
		}
		select {
		case <-sub.C():
		case <-deadline:
			t.Fatal("the partial payment was not read by id")
		}
	}
	// The failing read may still be queued: wait until it was made, then
	// Close waits for it to end.
	for tried := false; !tried; {
		mu.Lock()
		tried = calls["broken"] > 0
		mu.Unlock()
		select {
		case <-deadline:
			t.Fatal("the second partial payment was not read by id")
		case <-time.After(time.Millisecond):
		}
	}
	s.Close() // waits for the reads under way
	mu.Lock()
	defer mu.Unlock()
	if calls["p1"] != 1 || calls["broken"] != 1 {
		t.Fatalf("reads by id %v, want one per partial payment", calls)
	}
	if p, _ := Get(s, PaymentsKey).Data.Get("broken"); p == nil || !p.Partial {
		t.Fatalf("a payment whose read failed is not left partial: %+v", p)
	}
}
