package wallets_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"treasury/data/live"
	"treasury/data/wallet"
	"treasury/views/viewkit"
	"treasury/views/viewtest"
	"treasury/views/wallets"
)

// drive runs cmd and feeds the view every answer of its calls (Loaded),
// as the shell would, synchronously; other messages are returned.
func drive(v *wallets.View, cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	var out []tea.Msg
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, drive(v, c)...)
		}
	case viewkit.Loaded:
		out = append(out, drive(v, v.Update(msg))...)
	case nil:
	default:
		out = append(out, msg)
	}
	return out
}

func key(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func txsOf(t *testing.T, e *viewtest.Env) []wallet.Transaction {
	t.Helper()
	ts, _ := e.P.Store.Snapshot(live.Transactions).Data.([]wallet.Transaction)
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
	return t.Status != wallet.TxRejected && t.Status != wallet.TxFailed && !t.FreezeInfo.IsFrozen
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

// waitAll waits until the output read from now on holds every string.
func waitAll(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}
