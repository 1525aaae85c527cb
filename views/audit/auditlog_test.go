package auditview_test

import (
	"testing"

	"treasury/desk/audit"
	"treasury/desk/live"
	auditview "treasury/views/audit"
	"treasury/views/viewtest"
	"treasury/views/wallets"
	"treasury/wire/wallet"
)

var tester = audit.Who{Via: audit.ViaLocal, User: "tester"}

func appendRec(t *testing.T, e *viewtest.Env, r audit.Record) audit.Record {
	t.Helper()
	got, err := e.Audit.Append(r)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// appendTwo appends a local freeze that was done, then a sweep over SSH
// that failed.
func appendTwo(t *testing.T, e *viewtest.Env) {
	t.Helper()
	appendRec(t, e, audit.Record{Who: tester, Profile: "sandbox", Environment: "test", Action: "freeze",
		Target: audit.Target{Kind: "transaction", ID: "tx-1", Detail: map[string]string{"qty": "10.5", "asset": "USDC"}},
		Reason: "suspected fraud", MutationID: "m-1", Outcome: audit.OutcomeDone})
	appendRec(t, e, audit.Record{Who: audit.Who{Via: audit.ViaSSH, User: "ben", Key: "SHA256:abc", Role: "operator"},
		Profile: "sandbox", Environment: "test", Action: "sweep", Target: audit.Target{Kind: "sweep", ID: "s-1"},
		MutationID: "m-2", Outcome: audit.OutcomeFailed, ErrorCode: "ERR017.006", Error: "sweep already running"})
}

// Lines appear newest first, and a line appended while the view is open
// appears at the top without a key or a tick: the writer refreshes the
// store's Audit topic.
func TestAuditShowsNewestFirstAndFollowsAppends(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	appendTwo(t, e)
	tm := e.Program(t, auditview.New(e.Ctx))
	viewtest.WaitFor(t, tm, "ERR017.006")
	appendRec(t, e, audit.Record{Who: tester, Profile: "sandbox", Environment: "test", Action: "lock",
		Target: audit.Target{Kind: "endpoint", ID: "ep-9"}, Outcome: audit.OutcomeCancelled, IntentID: "i-3"})
	viewtest.WaitFor(t, tm, "endpoint ep-9")
	viewtest.Golden(t, tm)
}

// Enter shows a line in full: who, the ids, its place in the chain.
func TestAuditDetail(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	r := appendRec(t, e, audit.Record{Who: audit.Who{Via: audit.ViaSSH, User: "ben", Key: "SHA256:abc", Role: "operator", From: "10.1.2.3:5000"},
		Profile: "sandbox", Environment: "test", Action: "unlock", Target: audit.Target{Kind: "endpoint", ID: "ep-9",
			Detail: map[string]string{"alias": "cold"}}, IntentID: "i-9", RequestID: "req-7", Outcome: audit.OutcomeDone})
	tm := e.Program(t, auditview.New(e.Ctx))
	viewtest.WaitFor(t, tm, "endpoint cold ep-9")
	viewtest.Keys(tm, "enter")
	viewtest.WaitAll(t, tm, "SHA256:abc", "10.1.2.3:5000", "i-9", "req-7", r.Hash[:20], audit.Genesis[:20])
	tm.Quit()
}

// An action done in one session appears in another session's :audit
// (each its own program and context, one store and one log).
func TestActionAppearsInEverySession(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	var tx wallet.Transaction
	for _, x := range live.Get(e.P.Store, live.TransactionsKey).Data {
		if wallet.FreezeRuledOut(x, true) == "" {
			tx = x
			break
		}
	}
	if tx.ID == "" {
		t.Fatal("no freezable transaction")
	}
	other := *e.Ctx // another session: its own size, the same store
	watcher := e.ProgramOf(t, &other, viewtest.Width, viewtest.Height, auditview.New(&other))
	viewtest.WaitFor(t, watcher, "no action attempted yet")

	actor := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, actor, "Fees and Sweeps")
	viewtest.Keys(actor, ":", "transaction "+tx.ID, "enter")
	viewtest.WaitFor(t, actor, "not frozen (f freezes)")
	viewtest.Keys(actor, "f")
	viewtest.WaitFor(t, actor, "Freeze wallet transaction")
	viewtest.Keys(actor, "esc") // cancelled: on the record too
	viewtest.WaitFor(t, actor, "cancelled, nothing sent: freeze of transaction")
	viewtest.WaitFor(t, watcher, "cancelled")
	viewtest.Keys(actor, "f")
	viewtest.WaitFor(t, actor, "Freeze wallet transaction")
	// The reason is before Cancel (shift+tab); enter there moves on to
	// the action, enter runs it. The attempt line comes first, then its
	// outcome.
	viewtest.Keys(actor, "shift+tab", "hold for review", "enter", "enter")
	viewtest.WaitFor(t, actor, "froze transaction")
	viewtest.WaitAll(t, watcher, "attempt", "done", "hold for review")
	actor.Quit()
	watcher.Quit()
}
