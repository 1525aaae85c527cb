package wallets_test

import (
	"context"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/desk/live"
	"treasury/views/viewtest"
	"treasury/views/wallets"
	"treasury/wire/wallet"
)

func txsOf(t *testing.T, e *viewtest.Env) []wallet.Transaction {
	t.Helper()
	ts, _ := live.Get(e.P.Store, live.TransactionsKey).Data, true
	if len(ts) == 0 {
		t.Fatal("no transactions in the store")
	}
	return ts
}

// pickTx returns the first transaction ok accepts.
func pickTx(t *testing.T, e *viewtest.Env, what string, ok func(wallet.Transaction) bool) wallet.Transaction {
	t.Helper()
	for _, tx := range txsOf(t, e) {
		if ok(tx) {
			return tx
		}
	}
	t.Fatalf("no %s transaction in the sandbox", what)
	return wallet.Transaction{}
}

func freezable(t wallet.Transaction) bool {
	return wallet.FreezeRuledOut(t, true) == ""
}

// sandboxTx reads a transaction from the sandbox, not the store.
func sandboxTx(t *testing.T, e *viewtest.Env, id string) wallet.Transaction {
	t.Helper()
	tx, err := e.P.Wallet.Transaction(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// onTx runs v and opens transaction id from the palette; the detail is up
// once shown is drawn.
func onTx(t *testing.T, e *viewtest.Env, v *wallets.View, id, shown string) *teatest.TestModel {
	t.Helper()
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "Fees and Sweeps")
	viewtest.Keys(tm, ":", "transaction "+id, "enter")
	viewtest.WaitFor(t, tm, shown)
	return tm
}

// walletOf is the held wallet id.
func walletOf(t *testing.T, e *viewtest.Env, id string) wallet.Wallet {
	t.Helper()
	ws, _ := live.Get(e.P.Store, live.WalletsKey).Data, true
	for _, w := range ws {
		if w.ID == id {
			return w
		}
	}
	t.Fatalf("no wallet %s held", id)
	return wallet.Wallet{}
}
