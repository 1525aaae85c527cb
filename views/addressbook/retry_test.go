package addressbook_test

import (
	"testing"

	"treasury/desk/audit"
	"treasury/sandbox"
	"treasury/views/viewtest"
	"treasury/wire/custody"
)

// TestLockRetryAfterUnknownReusesIntentID: a lock whose submission meets
// 500s has an unknown outcome; l again proposes the same intent id, and
// the dialog says it is a retry.
func TestLockRetryAfterUnknownReusesIntentID(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	ep := endpoints(t, e)[0]
	if ep.Lock != custody.LockUnlocked {
		t.Fatalf("first endpoint is %s", ep.Lock)
	}
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, ep.Alias)
	// The intent's post answers 500 (the endpoint is read before it).
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{ErrorRate: 1, Path: "/intents"}); err != nil {
		t.Fatal(err)
	}
	viewtest.Keys(tm, "l")
	viewtest.WaitFor(t, tm, "Lock endpoint "+ep.Alias)
	viewtest.Keys(tm, "shift+tab", "rotation", "enter", "enter")
	viewtest.WaitAll(t, tm, "outcome unknown", "l again reconciles intent id")
	first := auditOf(t, e, ep.ID)
	if len(first) != 1 || first[0].Outcome != audit.OutcomeUnknown || first[0].IntentID == "" {
		t.Fatalf("audit %+v", first)
	}
	id := first[0].IntentID
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{}); err != nil {
		t.Fatal(err)
	}
	viewtest.Keys(tm, "esc", "l")
	viewtest.WaitAll(t, tm, "retry of "+id, `reason "rotation"`)
	viewtest.Keys(tm, "shift+tab", "rotation, retried", "enter", "enter")
	viewtest.WaitFor(t, tm, id+" accepted (requestId") // in the dialog
	quit(t, tm)
	got := auditOf(t, e, ep.ID)
	if len(got) != 2 || got[1].Outcome != audit.OutcomeDone || got[1].IntentID != id || got[1].Reason != "rotation, retried" {
		t.Fatalf("audit %+v, want the retry ok under %s", got, id)
	}
}
