package paymentsview

import (
	"strings"
	"testing"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/alerts"
	"treasury/views/ledger"
	"treasury/views/viewkit"
	"treasury/views/viewtest"
	"treasury/wire/payments"
)

// TestPaymentsFromAlertInThreeKeys: from the header's alert count, `a`
// opens the alerts, and `enter` on a payments alert opens that payment's
// detail with its error and the guidance: two keys.
func TestPaymentsFromAlertInThreeKeys(t *testing.T) {
	e := shared.Env(t)
	var first *live.Alert
	at := 0 // its row: more severe alerts (a runway) come first
	for i, a := range e.P.Store.Alerts() {
		if a.Topic == live.Payments && a.Ref != "" && a.Code != "FAILURE_RATE" {
			first, at = &a, i
			break
		}
	}
	if first == nil {
		t.Fatal("the seeded world raised no payments alert in ten minutes")
	}
	tm := e.Program(t, New(e.Ctx, e.P), alerts.New(e.Ctx, nil))
	viewtest.WaitFor(t, tm, "payments per state")
	viewtest.Keys(tm, "a")
	viewtest.WaitFor(t, tm, "enter opens")
	for range at {
		viewtest.Keys(tm, "down")
	}
	viewtest.WaitFor(t, tm, "enter opens "+first.Ref)
	viewtest.Keys(tm, "enter")
	viewtest.WaitAll(t, tm, "Payment "+first.Ref, "Why it is", "retry?", "what to do")
	// esc goes back to the alerts, where the operator came from, not to
	// the payments' root, which they never opened.
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "enter opens")
	if frame := viewtest.Frame(t, tm); !strings.Contains(strings.Split(frame, "\n")[2], "[2 Alerts]") {
		t.Fatalf("esc from the payment the alert opened did not go back to the alerts:\n%s", frame)
	}
}

// TestLedgerRowOpensItsPaymentAndEscComesBack: enter on a ledger row opens
// its payment under a trail that names the payment only, although the
// payments view was left on FAILED by reason (it read "payments › FAILED
// by reason › …" over an INITIATED payment); esc goes back to the ledger.
func TestLedgerRowOpensItsPaymentAndEscComesBack(t *testing.T) {
	e := shared.Env(t)
	probe := ledger.New(e.Ctx, e.P)
	e.P.Store.Sync()
	probe.Update(ui.StoreChanged{})
	_, rec, ok := ui.SelectedOf(probe)
	tx, _ := rec.(payments.LedgerTransaction)
	if !ok || tx.Reference() == "" {
		t.Fatalf("the ledger's first row names no payment: %#v", rec)
	}
	tm := e.Program(t, New(e.Ctx, e.P), ledger.New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "payments per state")
	viewtest.Keys(tm, "]", "]", "]")
	viewtest.WaitFor(t, tm, "payments › FAILED by reason")
	viewtest.Keys(tm, ":", "ledger", "enter")
	viewtest.WaitAll(t, tm, "Created (UTC)", "Before", "After")
	viewtest.Keys(tm, "enter")
	viewtest.WaitAll(t, tm, "Payment "+tx.Reference(), "payments › "+viewkit.Short(tx.Reference(), 10))
	viewtest.Keys(tm, "esc")
	viewtest.WaitAll(t, tm, "Created (UTC)", "Before", "After")
	frame := viewtest.Frame(t, tm)
	if tabs := strings.Split(frame, "\n")[2]; !strings.Contains(tabs, "[2 Ledger]") || strings.Contains(tabs, "payments ›") {
		t.Fatalf("esc from the payment did not go back to the ledger:\n%s", frame)
	}
}
