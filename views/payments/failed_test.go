package paymentsview

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/sandbox"
	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/wire/payments"
)

// TestPaymentsUnreachable: with the payments interface unreachable, the
// body names the refused connection and the profile key where the
// payments would be: no empty table, no scope bar of zeros, no chart.
func TestPaymentsUnreachable(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(),
		Profile: func(c *config.Config) { c.Payments.BaseURL = "http://127.0.0.1:1" }})
	tm := e.Program(t, New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "Could not read payments")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"Could not read payments", "connection refused", "profiles.sandbox.payments.base_url"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q:\n%s", want, frame)
		}
	}
	for _, bad := range []string{"no payments in this scope", "[all 0]", "payments per state"} {
		if strings.Contains(frame, bad) {
			t.Errorf("the frame shows %q:\n%s", bad, frame)
		}
	}
}

// TestPaymentsDetailSectionsFailing: a failed payment's detail opened
// while every call fails shows the record held, the state history's
// failure in full where the history would be (never "no state change"),
// and the ledger read before, marked stale with its age and the error.
func TestPaymentsDetailSectionsFailing(t *testing.T) {
	t.Parallel()
	e := plainWorld(t)
	failed := newestIn(t, e, payments.Failed)
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{ErrorRate: 1}); err != nil {
		t.Fatal(err)
	}
	e.Advance(30 * 1e9)
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{failed.PaymentID}})
	body := v.Render(120, 120)
	for _, want := range []string{"Payment " + failed.PaymentID, "Could not read the state history:", "SYS_",
		"what to do:", "STALE (the ledger read <40s ago", "RESERVE", "no webhook notifications: this dashboard runs no webhook receiver"} {
		if !strings.Contains(body, want) {
			t.Errorf("the detail lacks %q:\n%s", want, body)
		}
	}
	for _, bad := range []string{"no state change", "none held for this payment"} {
		if strings.Contains(body, bad) {
			t.Errorf("the detail shows %q:\n%s", bad, body)
		}
	}
}
