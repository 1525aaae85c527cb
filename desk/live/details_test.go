package live

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"treasury/wire/payments"
)

// TestReasonsAreReadOncePerFailure: every payment in a terminal failure
// state that arrived without its errors (the filter's records carry none)
// and that an alert needs is read by id once, all of them however many,
// and folded in; the same list records polled again read nothing more; a
// failure that arrives later is read too, alone.
func TestReasonsAreReadOncePerFailure(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	calls := map[string]int{}
	var list []payments.Payment
	for i := range 300 {
		list = append(list, full(fmt.Sprintf("f-%03d", i), payments.Failed, t0.Add(time.Duration(i)*time.Second)))
	}
	list = append(list, full("f-quiet", payments.Failed, t0), full("ok-1", payments.Completed, t0))
	late := full("f-late", payments.Failed, t0.Add(time.Hour))
	byID := map[string]payments.Payment{late.PaymentID: late}
	for _, p := range list {
		byID[p.PaymentID] = p
	}
	s := New(Options{ReadPayment: func(ctx context.Context, id string) (payments.Payment, error) {
		mu.Lock()
		calls[id]++
		mu.Unlock()
		p := byID[id]
		p.Detailed = true
		if id != "f-quiet" { // the platform may give no reason at all
			p.Errors = []payments.PaymentError{{Code: "USR_031", Type: "USER_ERROR", Title: "Invalid beneficiary account"}}
		}
		return p, nil
	}, AlertNeeds: func(*payments.Payment, time.Time) bool { return true }})
	defer s.Close()
	sub := s.Subscribe()
	defer sub.Close()
	sub.Watch(Payments)
	s.PutPayments(list)
	waitFor(t, s, sub, func(ps *PaymentSet) bool {
		for _, p := range list {
			if q, _ := ps.Get(p.PaymentID); q == nil || q.PaymentState == payments.Failed && !q.Detailed {
				return false
			}
		}
		return true
	})
	if n := s.DetailsPending(); n != 0 {
		t.Fatalf("%d reads still pending once every reason is read", n)
	}
	s.PutPayments(list) // the next poll: the same list records
	s.PutPayments([]payments.Payment{late})
	waitFor(t, s, sub, func(ps *PaymentSet) bool { p, _ := ps.Get("f-late"); return p != nil && p.Detailed })
	s.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 302 {
		t.Fatalf("%d payments read by id, want the 302 failures", len(calls))
	}
	for id, n := range calls {
		if n != 1 || id == "ok-1" {
			t.Fatalf("%s read %d times", id, n)
		}
	}
	ps := Get(s, PaymentsKey).Data
	if p, _ := ps.Get("f-007"); len(p.Errors) != 1 || p.Errors[0].Code != "USR_031" {
		t.Fatalf("f-007 errors %+v", p.Errors)
	}
}

// waitFor waits, on the subscription, until cond holds of the payments.
func waitFor(t *testing.T, s *Store, sub *Subscription, cond func(*PaymentSet) bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond(Get(s, PaymentsKey).Data) {
		select {
		case <-sub.C():
		case <-deadline:
			ps := Get(s, PaymentsKey).Data
			left := 0
			for i := range ps.Len() {
				if p := ps.At(i); p.PaymentState == payments.Failed && !p.Detailed {
					left++
				}
			}
			t.Fatalf("condition not met; %d pending, %d of %d not detailed", s.DetailsPending(), left, ps.Len())
		}
	}
}

// BenchmarkReadReasons1000Failures: a window opened with 1,000 failures
// whose reasons the filter did not carry; the reads themselves cost
// nothing here (the platform's latency is not the store's): what is
// measured is the store's work to queue them, read them four at a time and
// fold the answers in batches, until every one is Detailed.
func BenchmarkReadReasons1000Failures(b *testing.B) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	list := make([]payments.Payment, 1000)
	byID := make(map[string]payments.Payment, len(list))
	for i := range list {
		list[i] = full(fmt.Sprintf("f-%04d", i), payments.Failed, t0.Add(time.Duration(i)*time.Second))
		d := list[i]
		d.Detailed = true
		d.Errors = []payments.PaymentError{{Code: "USR_031", Type: "USER_ERROR", Title: "Invalid beneficiary account"}}
		byID[d.PaymentID] = d
	}
	b.ReportAllocs()
	for b.Loop() {
		s := New(Options{ReadPayment: func(ctx context.Context, id string) (payments.Payment, error) { return byID[id], nil },
			AlertNeeds: func(*payments.Payment, time.Time) bool { return true }})
		s.PutPayments(list)
		s.Sync()
		if s.DetailsPending() != 0 {
			b.Fatal("reads pending after Sync")
		}
		s.Close()
	}
}

// TestReasonOfAPaymentThatFailsWhileWatched: a payment first read by id
// while in flight, then notified FAILED, then polled FAILED, is read by id
// again in its failed state and its reason folded in; a list record that
// carries the errors itself (as some servers' do) is not dropped for the
// record read in flight.
func TestReasonOfAPaymentThatFailsWhileWatched(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	for _, listCarriesErrors := range []bool{false, true} {
		var mu sync.Mutex
		server := full("p1", payments.Initiated, t0)
		reads := 0
		s := New(Options{ReadPayment: func(ctx context.Context, id string) (payments.Payment, error) {
			mu.Lock()
			defer mu.Unlock()
			reads++
			p := server
			p.Detailed = true
			return p, nil
		}})
		sub := s.Subscribe()
		sub.Watch(Payments)
		s.ApplyPaymentEvent(notification("p1", payments.Initiated, t0, t0))
		s.WantDetails([]string{"p1"}) // a session shows it
		waitFor(t, s, sub, func(ps *PaymentSet) bool { p, _ := ps.Get("p1"); return p != nil && p.Detailed })

		failedAt := t0.Add(time.Minute)
		mu.Lock()
		server = full("p1", payments.Failed, t0)
		server.LastStateUpdatedAt = failedAt
		server.Errors = []payments.PaymentError{{Code: "SYS_003", Type: "SYSTEM_ERROR", Title: "Payout partner timeout"}}
		mu.Unlock()
		s.ApplyPaymentEvent(notification("p1", payments.Failed, t0, failedAt))
		polled := full("p1", payments.Failed, t0)
		polled.LastStateUpdatedAt = failedAt
		if listCarriesErrors {
			polled.Errors = server.Errors
		}
		s.PutPayments([]payments.Payment{polled})
		s.WantDetails([]string{"p1"}) // still shown, now failed: asked again
		waitFor(t, s, sub, func(ps *PaymentSet) bool {
			p, _ := ps.Get("p1")
			return p != nil && p.PaymentState == payments.Failed && len(p.Errors) == 1 && p.Errors[0].Code == "SYS_003"
		})
		s.Sync()
		mu.Lock()
		if reads < 2 && !listCarriesErrors {
			t.Errorf("read by id %d times: the failed state was never read", reads)
		}
		mu.Unlock()
		sub.Close()
		s.Close()
	}
}

// TestReasonsAreReadWhenShown: with no alert needing them, the failures
// of a window are not read by id; those sessions show are, each once
// however many sessions show it, and only while they lack their reason;
// a server whose list records carry the errors is never read.
func TestReasonsAreReadWhenShown(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	calls := map[string]int{}
	var list []payments.Payment
	for i := range 500 {
		list = append(list, full(fmt.Sprintf("f-%03d", i), payments.Failed, t0.Add(time.Duration(i)*time.Second)))
	}
	carries := full("f-carries", payments.Declined, t0)
	carries.Errors = []payments.PaymentError{{Code: "USR_066", Title: "Beneficiary limit exceeded"}}
	list = append(list, carries)
	byID := map[string]payments.Payment{}
	for _, p := range list {
		byID[p.PaymentID] = p
	}
	s := New(Options{ReadPayment: func(ctx context.Context, id string) (payments.Payment, error) {
		mu.Lock()
		calls[id]++
		mu.Unlock()
		p := byID[id]
		p.Detailed = true
		p.Errors = []payments.PaymentError{{Code: "USR_031", Title: "Invalid beneficiary account"}}
		return p, nil
	}, AlertNeeds: func(p *payments.Payment, now time.Time) bool { return false }})
	defer s.Close()
	s.PutPayments(list)
	s.Sync()
	if len(calls) != 0 {
		t.Fatalf("%d failures of the window read by id with nobody showing them", len(calls))
	}
	shown := []string{"f-499", "f-498", "f-497", "f-carries"}
	for range 20 { // twenty sessions on the same rows
		s.WantDetails(shown)
	}
	s.Sync()
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != 3 || calls["f-499"] != 1 || calls["f-carries"] != 0 {
		t.Fatalf("reads by id %v, want the three shown that lack their reason, once each", calls)
	}
	if p, _ := Get(s, PaymentsKey).Data.Get("f-498"); !p.Detailed || p.Errors[0].Code != "USR_031" {
		t.Fatalf("the reason read was not folded in: %+v", p)
	}
}
