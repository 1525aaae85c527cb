package wallets_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/sandbox"
	"treasury/views/viewtest"
	"treasury/views/wallets"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// A support engineer freezes the nine transactions of one fraud ring, of
// two wallets and more, in one dialog: a filter shows them, * marks all
// shown, f asks once with one reason. One of them was frozen meanwhile
// (elsewhere, not through this dashboard): read again when the dialog
// opens, it is left out with why. The platform holds one answer a while
// (the dialog waits, its spinner says for what). The audit log has nine
// attempts: eight done, each under its own mutationId, and one refused
// with its reason; the platform holds eight new freezes, each under the
// key the log recorded. The result names each; the marks of those done
// are dropped.
func TestFreezeNineMarkedTransactions(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	ring := nineOfTwoWallets(t, e)
	ids := make([]string, len(ring)) // as the table shows them: cut
	for i, tx := range ring {
		ids[i] = tx.ID[:8]
	}
	// Frozen elsewhere: no line of this dashboard's log.
	elsewhere := actions.New(actions.Clients{Transactions: e.P.WalletTransactions}, actions.Identity{}, nil)
	if _, _, err := elsewhere.FreezeTx(context.Background(), walletclient.Route{}, ring[3], true, "another team", actions.Key{ID: actions.NewKey()}); err != nil {
		t.Fatal(err)
	}
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{AnswerLatency: sandbox.Duration(1500 * time.Millisecond), Path: ring[6].ID + "/freeze"}); err != nil {
		t.Fatal(err)
	}

	tm := markAndFreeze(t, e, ids)
	viewtest.WaitFor(t, tm, "Freeze 8 transactions")
	viewtest.Keys(tm, "shift+tab", "fraud ring 7", "enter", "enter")
	viewtest.WaitFor(t, tm, "waiting for the wallet interface: 8 transactions")
	viewtest.WaitAll(t, tm, "froze 8 of 9 transactions", "1 of 9 transactions not done",
		"refused, not sent: frozen already")
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "✓ 1 marked") // the one not done stays marked, for a retry
	viewtest.Keys(tm, "esc")              // esc clears the marks before it goes back
	viewtest.WaitFor(t, tm, "1 mark cleared: nothing was sent")
	tm.Quit()

	es := auditOf(t, e)
	done, refused := map[string]string{}, 0
	for _, r := range es {
		switch {
		case r.Outcome == audit.OutcomeDone && r.Reason == "fraud ring 7":
			done[r.Target.ID] = r.MutationID
		case r.Outcome == audit.OutcomeRefused && r.Target.ID == ring[3].ID && r.Reason == "fraud ring 7" &&
			strings.Contains(r.Error, "frozen already"):
			refused++
		default:
			t.Errorf("audit line %+v", r)
		}
	}
	if len(es) != 9 || len(done) != 8 || refused != 1 {
		t.Fatalf("audit: %d attempts, %d done, %d refused; want 9, 8 and 1", len(es), len(done), refused)
	}
	keys := map[string]bool{}
	for i, tx := range ring {
		got := sandboxTx(t, e, tx.ID)
		h := got.FreezeInfo.History
		if !got.FreezeInfo.IsFrozen || len(h) != len(tx.FreezeInfo.History)+1 {
			t.Errorf("transaction %d: frozen %v with %d freezes", i, got.FreezeInfo.IsFrozen, len(h))
			continue
		}
		if i == 3 {
			continue
		}
		if last := h[len(h)-1]; last.Action != wallet.ActionFreeze || !strings.EqualFold(last.MutationID, done[tx.ID]) {
			t.Errorf("transaction %d: the platform holds %+v, the log %s", i, last, done[tx.ID])
		}
		keys[done[tx.ID]] = true
	}
	if len(keys) != 8 {
		t.Errorf("%d keys for eight freezes", len(keys))
	}
}

// The batch's dialog at 120x40 without colour: the totals per asset, the
// one left out and why, each transaction to freeze in columns.
func TestFreezeMarkedDialogGolden(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	ring := nineOfTwoWallets(t, e)
	ids := make([]string, len(ring))
	for i, tx := range ring {
		ids[i] = tx.ID[:8]
	}
	elsewhere := actions.New(actions.Clients{Transactions: e.P.WalletTransactions}, actions.Identity{}, nil)
	if _, _, err := elsewhere.FreezeTx(context.Background(), walletclient.Route{}, ring[3], true, "another team", actions.Key{ID: actions.NewKey()}); err != nil {
		t.Fatal(err)
	}
	tm := markAndFreeze(t, e, ids)
	viewtest.WaitFor(t, tm, "Freeze 8 transactions")
	viewtest.Golden(t, tm)
}

// markAndFreeze shows every transaction, filters those of ids (as the
// table shows them), marks all shown and presses f.
func markAndFreeze(t *testing.T, e *viewtest.Env, ids []string) *teatest.TestModel {
	t.Helper()
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Fees and Sweeps")
	viewtest.Keys(tm, "T")
	viewtest.WaitFor(t, tm, "wallets › transactions")
	viewtest.Keys(tm, "/", "~("+strings.Join(ids, "|")+")", "enter")
	viewtest.WaitFor(t, tm, fmt.Sprintf("%d/274 rows", len(ids)))
	viewtest.Keys(tm, "*")
	viewtest.WaitAll(t, tm, fmt.Sprintf("✓ %d marked", len(ids)), fmt.Sprintf("f freeze %d marked", len(ids)))
	viewtest.Keys(tm, "f")
	return tm
}

// nineOfTwoWallets are nine freezable transactions held, of two wallets
// at least.
func nineOfTwoWallets(t *testing.T, e *viewtest.Env) []wallet.Transaction {
	t.Helper()
	var out []wallet.Transaction
	wallets := map[string]int{}
	for _, tx := range txsOf(t, e) {
		if freezable(tx) && len(out) < 9 && wallets[tx.WalletID] < 5 {
			out = append(out, tx)
			wallets[tx.WalletID]++
		}
	}
	if len(out) < 9 || len(wallets) < 2 {
		t.Fatalf("nine freezable transactions of two wallets: %d of %d", len(out), len(wallets))
	}
	return out
}

// In production a batch asks for the number of records typed, not the end
// of an id; cancelled, each record that would have gone is recorded as
// cancelled, with the reason typed, and nothing is sent.
func TestBatchInProdTypesTheCountAndCancelsEach(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Prod: true, Skip: viewtest.NoLiquidityHistory()})
	ring := nineOfTwoWallets(t, e)[:3]
	ids := make([]string, len(ring))
	for i, tx := range ring {
		ids[i] = tx.ID[:8]
	}
	tm := markAndFreeze(t, e, ids)
	viewtest.WaitAll(t, tm, "Freeze 3 transactions", "type 3 to confirm")
	viewtest.Keys(tm, "shift+tab", "shift+tab", "ring", "tab", "9", "tab", "tab", "enter")
	viewtest.WaitFor(t, tm, "type 3 (the number of transactions to freeze) first")
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "cancelled, nothing sent: freeze of 3 transactions")
	tm.Quit()
	es := auditOf(t, e)
	if len(es) != 3 {
		t.Fatalf("%d audit lines, want one per transaction: %+v", len(es), es)
	}
	for _, r := range es {
		if r.Outcome != audit.OutcomeRefused || r.Reason != "ring" || r.Error != actions.ErrWrongCode.Error() {
			t.Errorf("audit %+v: want refused for the wrong code, with the reason typed", r)
		}
	}
	for i, tx := range ring {
		if got := sandboxTx(t, e, tx.ID); got.FreezeInfo.IsFrozen || len(got.FreezeInfo.History) != len(tx.FreezeInfo.History) {
			t.Errorf("transaction %d was frozen: %+v", i, got.FreezeInfo)
		}
	}
}
