package client_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/payments/client"
)

// TestErrorsAreTypedAndNotRetried: unknown ids, another organization's
// payment, a missing scope and a bad page are typed *apierr.Error values
// with their code, and none is retried.
func TestErrorsAreTypedAndNotRetried(t *testing.T) {
	faces(t, nil, testErrorsAreTypedAndNotRetried)
}

func testErrorsAreTypedAndNotRetried(t *testing.T, srv *sandbox.Server, _ bool) {
	ctx := context.Background()
	c, w := fullClient(t, srv, client.Options{})
	const unknown = "00000000-0000-4000-8000-000000000000"

	_, err := c.Get(ctx, unknown)
	wantAPIErr(t, "Get unknown", err, http.StatusNotFound, "USR_002", apierr.ClassNotFound)
	_, err = c.StateHistory(ctx, unknown)
	wantAPIErr(t, "StateHistory unknown", err, http.StatusNotFound, "USR_002", apierr.ClassNotFound)
	// The document answers an identity it does not know, and one without
	// instruments, with one 404: both are no instruments.
	if ins, err := c.Instruments(ctx, "no-such-identity"); err != nil || len(ins) != 0 {
		t.Fatalf("Instruments of an unknown identity: %v, %v; want none", ins, err)
	}
	// A reference that is not a uuid is no paymentId: nothing is sent.
	if _, err := c.Get(ctx, "INV-0000001"); !errors.Is(err, client.ErrNotPaymentID) || apierr.ClassOf(err) != apierr.ClassNotFound {
		t.Fatalf("Get of a non-uuid: %v, want ErrNotPaymentID of class not found", err)
	}

	foreign := srv.Info().Samples["foreign_payment_id"]
	if foreign == "" {
		t.Fatal("no foreign_payment_id sample")
	}
	_, err = c.Get(ctx, foreign)
	wantAPIErr(t, "Get foreign", err, http.StatusForbidden, "AUTH_051", apierr.ClassForbidden)
	_, err = c.StateHistory(ctx, foreign)
	wantAPIErr(t, "StateHistory foreign", err, http.StatusForbidden, "AUTH_051", apierr.ClassForbidden)

	_, err = c.ByInternalID(ctx, "no-such-internal-id")
	if !errors.Is(err, client.ErrNoPayment) || apierr.ClassOf(err) != apierr.ClassNotFound {
		t.Fatalf("ByInternalID unknown: %v, want ErrNoPayment and class not found", err)
	}
	if _, err := c.Get(ctx, ""); err == nil || apierr.ClassOf(err) != apierr.ClassUnknown {
		t.Fatalf("Get of an empty id: %v, want a local error", err)
	}
	_, err = c.LedgerPage(ctx, "XYZ", time.Time{}, time.Time{}, 10, 0)
	wantAPIErr(t, "ledger of an unconfigured currency", err, http.StatusInternalServerError, "CFG_001", apierr.ClassOperator)

	cr := srv.Credentials()
	limited, lw := newClient(t, srv, cr.PaymentsLimitedClientID, cr.PaymentsLimitedClientSecret, client.Options{})
	_, err = limited.Balances(ctx)
	wantAPIErr(t, "limited Balances", err, http.StatusForbidden, "AUTH_002", apierr.ClassForbidden)
	_, err = limited.Ledger(ctx, sandboxtest.Start().AddDate(0, 0, -1), time.Time{})
	wantAPIErr(t, "limited Ledger", err, http.StatusForbidden, "AUTH_002", apierr.ClassForbidden)
	for _, err := range limited.LedgerOf(ctx, "USD", time.Time{}, time.Time{}) {
		wantAPIErr(t, "limited LedgerOf", err, http.StatusForbidden, "AUTH_002", apierr.ClassForbidden)
	}
	if ps, err := limited.AllFiltered(ctx, payments.Filter{PaymentStates: []payments.State{payments.Failed}}); err != nil || len(ps) == 0 {
		t.Fatalf("the limited client may still search: %d payments, %v", len(ps), err)
	}
	if n := len(w.All()) + len(lw.All()); n != 0 {
		t.Fatalf("%d retries of errors that must not be retried", n)
	}
}

// setFaults replaces the sandbox faults through its control API.
func setFaults(t *testing.T, srv *sandbox.Server, f sandbox.FaultSettings) {
	t.Helper()
	if st := sandboxtest.Do(t, http.MethodPut, srv.Endpoints().Control+"/faults", "", f, nil); st != http.StatusOK {
		t.Fatalf("PUT faults: HTTP %d", st)
	}
}

// TestSystemErrorBurstIsRetried: every request answers SYS_001 500 until
// the second backoff wait clears the fault; the search, a POST marked
// idempotent, then succeeds on its third attempt after waits of 2 s and
// 4 s plus jitter. A burst that outlasts five attempts gives the SYS_ error.
func TestSystemErrorBurstIsRetried(t *testing.T) {
	srv := start(t, nil)
	ctx := context.Background()
	c, w := fullClient(t, srv, client.Options{PageSize: 100})
	if _, err := c.TokenTest(ctx); err != nil { // hold a token before the issuer fails too
		t.Fatal(err)
	}
	want, err := c.AllFiltered(ctx, payments.Filter{})
	if err != nil {
		t.Fatal(err)
	}

	setFaults(t, srv, sandbox.FaultSettings{ErrorRate: 1})
	w.Then = func(n int) {
		if n == 2 {
			setFaults(t, srv, sandbox.FaultSettings{})
		}
	}
	got, err := c.AllFiltered(ctx, payments.Filter{})
	if err != nil {
		t.Fatalf("after the burst: %v", err)
	}
	if len(got) != len(want) || got[len(got)-1].PaymentID != want[len(want)-1].PaymentID {
		t.Fatalf("after the burst read %d payments, want %d", len(got), len(want))
	}
	d := w.All()
	if len(d) != 2 || d[0] < 2200*time.Millisecond || d[0] > 2400*time.Millisecond || d[1] < 4400*time.Millisecond || d[1] > 4800*time.Millisecond {
		t.Fatalf("waits %v, want 2 s and 4 s plus 10-20 %%", d)
	}

	w.Then = nil
	setFaults(t, srv, sandbox.FaultSettings{ErrorRate: 1})
	_, err = c.Get(ctx, want[0].PaymentID)
	wantAPIErr(t, "a burst of five", err, http.StatusInternalServerError, "SYS_001", apierr.ClassRetry)
	if d := w.All(); len(d) != 2+4 {
		t.Fatalf("%d waits in all, want 2 + 4 (five attempts)", len(d))
	}
}
