package wallets_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/views/wallets"
	"treasury/wire/wallet"
)

func auditOf(t *testing.T, e *viewtest.Env) []audit.Record {
	t.Helper()
	return e.Outcomes(t)
}

// A freeze then an unfreeze through the UI: key, reason, enter (to the
// action's button), enter.
// The sandbox holds each new state, the detail shows it, and the audit log
// has both, ok, each with its own mutationId.
func TestFreezeThenUnfreeze(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "not frozen (f freezes)")

	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "Freeze wallet transaction")
	viewtest.Keys(tm, "shift+tab", "hold for review", "enter", "enter")
	viewtest.WaitFor(t, tm, "froze transaction "+tx.ID)
	viewtest.Keys(tm, "esc")
	viewtest.WaitAll(t, tm, "FROZEN · progress is paused", "Freezes (1)  freeze history")
	if got := sandboxTx(t, e, tx.ID); !got.FreezeInfo.IsFrozen {
		t.Fatal("the sandbox does not hold the transaction frozen")
	}

	viewtest.Keys(tm, "U")
	viewtest.WaitFor(t, tm, "Unfreeze wallet transaction")
	viewtest.Keys(tm, "shift+tab", "reviewed, fine", "enter", "enter")
	viewtest.WaitFor(t, tm, "unfroze transaction "+tx.ID)
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "Freezes (2)  freeze history")
	got := sandboxTx(t, e, tx.ID)
	if got.FreezeInfo.IsFrozen || len(got.FreezeInfo.History) != len(tx.FreezeInfo.History)+2 {
		t.Fatalf("sandbox: frozen %v with %d freezes, want unfrozen after 2 more than %d", got.FreezeInfo.IsFrozen,
			len(got.FreezeInfo.History), len(tx.FreezeInfo.History))
	}
	tm.Quit()

	es := auditOf(t, e)
	if len(es) != 2 {
		t.Fatalf("%d audit entries, want 2: %+v", len(es), es)
	}
	for i, want := range []struct{ action, reason string }{{"freeze", "hold for review"}, {"unfreeze", "reviewed, fine"}} {
		a := es[i]
		if a.Action != want.action || a.Outcome != audit.OutcomeDone || a.Reason != want.reason || a.Target.ID != tx.ID ||
			a.Target.Detail["wallet"] != tx.WalletID || a.MutationID == "" || a.Who.User != "tester" || a.Who.Via != audit.ViaLocal {
			t.Errorf("audit %d: %+v, want %s ok", i, a, want.action)
		}
	}
	if es[0].MutationID == es[1].MutationID {
		t.Error("the freeze and the unfreeze share a mutationId")
	}
}

// A transaction that ended (FAILED, CONFIRMED) cannot be frozen: the
// platform refuses it (ERR010.008). Its freeze is not offered, and the key
// pressed anyway says why; nothing is sent.
func TestFreezeRuledOutForAnEndedTransaction(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	for _, status := range []string{wallet.TxFailed, wallet.TxConfirmed} {
		tx := pickTx(t, e, status, func(t wallet.Transaction) bool { return t.Status == status })
		tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "Freezes")
		sent := e.Sandbox.Stats().Requests["wallet"]
		viewtest.Keys(tm, "f")
		viewtest.WaitFor(t, tm, "is "+status+": it ended")
		if frame := viewtest.Frame(t, tm); strings.Contains(frame, "f freeze") || strings.Contains(frame, "Freeze wallet transaction") {
			t.Fatalf("%s: the freeze is offered:\n%s", status, frame)
		}
		if n := e.Sandbox.Stats().Requests["wallet"] - sent; n > 1 { // the store may poll once
			t.Fatalf("%s: %d wallet requests after the key", status, n)
		}
		tm.Quit()
	}
	if es := auditOf(t, e); len(es) != 0 {
		t.Fatalf("audit %+v, want nothing attempted", es)
	}
}

// triggerFirstSweep triggers the first sweep, idle in a world of its own,
// from the sweeps section, and waits for its start.
func triggerFirstSweep(t *testing.T) (*viewtest.Env, *teatest.TestModel, []wallet.SweepConfig) {
	t.Helper()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	sws, _ := live.Get(e.P.Store, live.SweepsKey).Data, true
	if len(sws) == 0 || sws[0].SweepRunning {
		t.Fatalf("want an idle first sweep, have %+v", sws)
	}
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Fees and Sweeps")
	viewtest.Keys(tm, "E")
	viewtest.WaitFor(t, tm, "Last swept")
	viewtest.Keys(tm, "t")
	viewtest.WaitFor(t, tm, "Trigger sweep")
	viewtest.Keys(tm, "tab", "enter")
	viewtest.WaitFor(t, tm, "started: instance")
	return e, tm, sws
}

// A running sweep is not offered a second run (the interface would refuse
// it, ERR017.006): its key is not shown, pressing it says why, and
// nothing is sent.
func TestTriggerNotOfferedWhileRunning(t *testing.T) {
	t.Parallel()
	e, tm, sws := triggerFirstSweep(t)
	viewtest.Keys(tm, "esc")
	viewtest.WaitAll(t, tm, "BTC to cold storage", "RUNNING")
	sent := e.Sandbox.Stats().Requests["wallet"]
	viewtest.Keys(tm, "t")
	viewtest.WaitFor(t, tm, "is running: a run cannot be triggered until it ends")
	frame := viewtest.Frame(t, tm)
	if strings.Contains(frame, "Trigger sweep") || strings.Contains(frame, "t trigger") {
		t.Fatalf("a running sweep offers a trigger:\n%s", frame)
	}
	if n := e.Sandbox.Stats().Requests["wallet"] - sent; n > 1 { // the store may poll once
		t.Fatalf("%d wallet requests after the key", n)
	}
	es := auditOf(t, e)
	if len(es) != 1 || es[0].Outcome != audit.OutcomeDone || es[0].Target.ID != sws[0].ID || es[0].Target.Detail["instance"] == "" {
		t.Fatalf("audit %+v", es)
	}
}

// After a trigger the result dialog shows the sweep's state read before
// it under the "before" heading, not as its state now.
func TestTriggerResultLabelsTheOldStateBefore(t *testing.T) {
	t.Parallel()
	_, tm, sws := triggerFirstSweep(t)
	frame := viewtest.Frame(t, tm)
	head, at := strings.Index(frame, "Before the action"), strings.Index(frame, "State        "+sws[0].Status+", idle")
	if strings.Contains(frame, "will start") || at < 0 || head < 0 || head > at {
		t.Fatalf("want no intro and the state before under its heading:\n%s", frame)
	}
}

// A prod session must type the id's last four characters before the
// confirm button works.
func TestProdTypesIDEnd(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Prod: true, Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "not frozen (f freezes)")
	viewtest.Keys(tm, "f")
	viewtest.WaitAll(t, tm, "type "+tx.ID[len(tx.ID)-4:]+" to confirm", "Environment: PROD")
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "cancelled, nothing sent")
	if es := auditOf(t, e); len(es) != 1 || es[0].Outcome != audit.OutcomeCancelled || es[0].Target.ID != tx.ID {
		t.Fatalf("a cancelled dialog audited %+v", es)
	}
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "to confirm")
	// Reason, then enter: the code is still needed, so enter goes there
	// and, the code empty, stays and says so.
	viewtest.Keys(tm, "shift+tab", "shift+tab", "prod hold", "enter", "enter")
	viewtest.WaitFor(t, tm, "enter does nothing yet: type "+tx.ID[len(tx.ID)-4:])
	// Code, enter: the action's button, which says what enter does; esc
	// cancels, and the footer says nothing was sent.
	viewtest.Keys(tm, tx.ID[len(tx.ID)-4:], "enter")
	viewtest.WaitFor(t, tm, "[ enter: Freeze ]")
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "cancelled, nothing sent: freeze of transaction "+tx.ID)
	if es := auditOf(t, e); len(es) != 2 || es[1].Outcome != audit.OutcomeCancelled || es[1].Reason != "prod hold" {
		t.Fatalf("the cancel is not on the record with its reason: %+v", es)
	}
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "to confirm")
	viewtest.Keys(tm, "shift+tab", tx.ID[len(tx.ID)-4:], "shift+tab", "prod hold", "enter", "enter")
	viewtest.WaitFor(t, tm, "froze transaction "+tx.ID)
	tm.Quit()
	if es := auditOf(t, e); len(es) != 3 || es[2].Environment != "prod" || es[2].Outcome != audit.OutcomeDone {
		t.Fatalf("audit %+v", es)
	}
}

// Read-only: no action key is offered, pressing one says why, and nothing
// reaches the sandbox.
func TestReadOnlyRefuses(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{ReadOnly: true, Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	v := wallets.New(e.Ctx, e.P, e.Actor)
	for _, args := range [][]string{{"transactions"}, {"transaction", tx.ID}, {"sweeps"}} {
		viewtest.Drive(v, v.Update(ui.Open{View: "wallets", Args: args}))
		for _, b := range v.Keys() {
			for _, k := range b.Keys() {
				if k == "f" || k == "U" || k == "t" {
					t.Errorf("%v: action key %q offered in read-only", args, k)
				}
			}
		}
		for _, c := range v.Commands() {
			if strings.Contains(c.Name, "freeze") || strings.Contains(c.Name, "trigger") {
				t.Errorf("palette offers %s", c.Name)
			}
		}
	}
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "READ-ONLY")
	viewtest.Keys(tm, ":", "transaction "+tx.ID, "enter")
	viewtest.WaitFor(t, tm, "not frozen")
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "read-only session")
	tm.Quit()
	if sandboxTx(t, e, tx.ID).FreezeInfo.IsFrozen {
		t.Fatal("frozen in read-only")
	}
	if es := auditOf(t, e); len(es) != 1 || es[0].Outcome != audit.OutcomeRefused || es[0].Action != actions.Freeze ||
		es[0].Target.ID != tx.ID || !strings.Contains(es[0].Error, "read-only") {
		t.Fatalf("audit in read-only: %+v, want the freeze refused", es)
	}
}

// A credential that is not TRANSACTIONS: the interface answers 403
// ERR000.002 and the flash says so.
func TestFreezeNeedsTransactionsCredential(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	act := actions.New(actions.Clients{Transactions: e.P.Wallet}, e.Actor.Identity(), e.Audit)
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, act), tx.ID, "not frozen (f freezes)")
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "Freeze wallet transaction")
	viewtest.Keys(tm, "shift+tab", "hold", "enter", "enter")
	viewtest.WaitFor(t, tm, "ERR000.002")
	tm.Quit()
	if sandboxTx(t, e, tx.ID).FreezeInfo.IsFrozen {
		t.Fatal("frozen with a monitoring credential")
	}
}

// After a freeze the result dialog does not show the transaction's state
// as read before it as current: the intro ("will be frozen") is gone, and
// the old status line stands under the "before" heading, above the result
// that says what the freeze left.
func TestFreezeResultLabelsTheOldStateBefore(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "not frozen (f freezes)")
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "Freeze wallet transaction")
	viewtest.Keys(tm, "shift+tab", "hold for review", "enter", "enter")
	viewtest.WaitFor(t, tm, "froze transaction "+tx.ID)
	frame := viewtest.Frame(t, tm)
	old := "Status       " + tx.Status + ", not frozen"
	heading := strings.Index(frame, "Before the action")
	at := strings.Index(frame, old)
	result := strings.Index(frame, "✔ froze transaction")
	switch {
	case result < 0:
		t.Fatalf("no result in the dialog:\n%s", frame)
	case strings.Contains(frame, "will be frozen"):
		t.Errorf("the result still says what the freeze will do:\n%s", frame)
	case at < 0:
		t.Errorf("the result does not show the state before the freeze (%q):\n%s", old, frame)
	case heading < 0 || heading > at:
		t.Errorf("the state before the freeze is shown as current, not under a before heading:\n%s", frame)
	}
}
