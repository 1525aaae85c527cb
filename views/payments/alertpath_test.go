package paymentsview

import (
	"testing"

	"treasury/data/live"
	"treasury/views/alerts"
	"treasury/views/viewtest"
)

// TestPaymentsFromAlertInThreeKeys: from the header's alert count, `a`
// opens the alerts, and `enter` on a payments alert opens that payment's
// detail with its error and the guidance: two keys.
func TestPaymentsFromAlertInThreeKeys(t *testing.T) {
	e := shared.Env(t)
	var first *live.Alert
	for _, a := range e.P.Store.Alerts() {
		if a.Topic == live.Payments && a.Ref != "" {
			first = &a
			break
		}
	}
	if first == nil {
		t.Fatal("the seeded world raised no payments alert in ten minutes")
	}
	tm := e.Program(t, New(e.Ctx, e.P), alerts.New(e.Ctx))
	viewtest.WaitFor(t, tm, "payments per state")
	viewtest.Keys(tm, "a")
	viewtest.WaitFor(t, tm, "enter opens")
	viewtest.Keys(tm, "enter")
	viewtest.WaitAll(t, tm, "Payment "+first.Ref, "Why it is", "retry?", "what to do")
	tm.Quit()
}
