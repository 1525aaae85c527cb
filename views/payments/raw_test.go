package paymentsview

import (
	"strings"
	"testing"

	"treasury/desk/live"
	"treasury/views/viewtest"
)

// TestRawViewReadsThePaymentAgain: the store holds the payments decoded,
// not as received; y on one reads it again by id (one request, counted at
// the platform) and shows the JSON the platform sends, saying so.
func TestRawViewReadsThePaymentAgain(t *testing.T) {
	t.Parallel()
	e := plainWorld(t)
	ps := live.Get(e.P.Store, live.PaymentsKey).Data
	newest := ps.At(ps.Len() - 1)
	if len(newest.RawJSON()) != 0 {
		t.Fatalf("the store holds the payment's JSON (%d bytes)", len(newest.RawJSON()))
	}
	tm := e.Program(t, New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, newest.PaymentID[:8])
	before := e.Sandbox.Stats().PaymentsByID
	viewtest.Keys(tm, "y")
	viewtest.WaitFor(t, tm, "read again now")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"as received, read again now (GET /v3/payments/{id})", `"paymentId": "`, `"originator": {`} {
		if !strings.Contains(frame, want) {
			t.Errorf("the raw view lacks %q:\n%s", want, frame)
		}
	}
	if n := e.Sandbox.Stats().PaymentsByID - before; n != 1 {
		t.Errorf("y read the payment %d times", n)
	}
}
