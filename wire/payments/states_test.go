package payments

import (
	"strings"
	"testing"
	"time"
)

// TestQuotedIsNotInFlight: the vendor's document says a QUOTED payment
// "has not yet been initiated": it is not in flight (initiated and not
// finished), but it is unfinished (it may still be initiated), and its
// quote expires at its expiresAt.
func TestQuotedIsNotInFlight(t *testing.T) {
	for st, want := range map[State][2]bool{
		Quoted: {false, true}, AwaitingFunding: {true, true}, Initiated: {true, true}, Validating: {true, true},
		Transferring: {true, true}, Completed: {false, false}, Failed: {false, false}, Declined: {false, false},
		Returned: {false, false}, "SOMETHING_NEW": {false, false},
	} {
		if st.InFlight() != want[0] || st.Unfinished() != want[1] {
			t.Errorf("%s: in flight %v, unfinished %v; want %v, %v", st, st.InFlight(), st.Unfinished(), want[0], want[1])
		}
	}
	at := time.Date(2026, 11, 24, 16, 40, 0, 0, time.UTC)
	q := &Payment{PaymentState: Quoted, ExpiresAt: at}
	if q.QuoteExpired(at.Add(-time.Second)) || !q.QuoteExpired(at) {
		t.Error("a quote expires at its expiresAt, not before")
	}
	if (&Payment{PaymentState: Quoted}).QuoteExpired(at) || (&Payment{PaymentState: Initiated, ExpiresAt: at}).QuoteExpired(at.Add(time.Hour)) {
		t.Error("a quote without expiresAt, or a payment initiated, has no quote that expires")
	}
}

// TestStateMeaning: every state of the document is said; one it does not
// know is not.
func TestStateMeaning(t *testing.T) {
	for _, st := range []State{Quoted, AwaitingFunding, Initiated, Validating, Transferring, Completed, Failed, Declined, Returned} {
		if m := StateMeaning(st); !strings.Contains(m, string(st)) {
			t.Errorf("StateMeaning(%s) = %q", st, m)
		}
	}
	if StateMeaning("NEW_STATE") != "" {
		t.Error("StateMeaning of a state it does not know")
	}
}
