package wallets_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/views/viewtest"
	"treasury/views/wallets"
	"treasury/wire/wallet"
)

func TestVaultsGolden(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Fees and Sweeps")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"Treasury Operations", "Client Custody", "Cold Reserve", "Wallets"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame", want)
		}
	}
}

func TestWalletDetailGolden(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Fees and Sweeps")
	viewtest.Keys(tm, "enter") // Treasury Operations
	viewtest.WaitFor(t, tm, "Treasury ETH hot")
	viewtest.Keys(tm, "enter")                          // its first wallet
	viewtest.WaitAll(t, tm, "Policies (4", "Limits (1") // both calls answered
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"PROVISIONED", "raw signing on", "USDC", "TRANSFER_VOLUME", "Whitelisted destinations only", "wallets › vaults › Treasury Operations › Treasury ETH hot"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame", want)
		}
	}
}

func TestTransactionDetailGolden(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	tx := pickTx(t, e, "rejected", func(t wallet.Transaction) bool { return t.Status == wallet.TxRejected && len(t.Problems) > 0 })
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "Freezes (0)  freeze history")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{tx.ID, "REJECTED", tx.Problems[0].Reason, "cannot be frozen"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame", want)
		}
	}
}

// Drill-down from a vault to a transaction and back, a filter, sections.
func TestDrillDownAndBack(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	v := wallets.New(e.Ctx, e.P, e.Actor)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	if id, _, ok := ui.SelectedOf(v); !ok || id == "" {
		t.Fatal("no vault selected")
	}
	viewtest.Drive(v, v.Update(viewtest.Key("enter")))
	if c := v.Crumbs(); !slices.Equal(c, []string{"vaults", "Treasury Operations"}) {
		t.Fatalf("crumbs %v", c)
	}
	ui.SetFilterOf(v, "btc")
	_, rec, ok := ui.SelectedOf(v)
	if w, _ := rec.(wallet.Wallet); !ok || w.Name != "Treasury BTC" {
		t.Fatalf("filter btc selects %+v", rec)
	}
	viewtest.Drive(v, v.Update(viewtest.Key("enter")))
	if c := v.Crumbs(); len(c) != 3 || c[2] != "Treasury BTC" {
		t.Fatalf("crumbs %v", c)
	}
	out := v.Render(120, 36)
	if !strings.Contains(out, "Balances") || !strings.Contains(out, "BTC") {
		t.Fatalf("wallet page:\n%s", out)
	}
	viewtest.Drive(v, v.Update(viewtest.Key("enter")))
	if c := v.Crumbs(); len(c) != 4 || !strings.HasPrefix(c[3], "tx ") {
		t.Fatalf("crumbs %v", c)
	}
	_, rec, _ = ui.SelectedOf(v)
	if tx, _ := rec.(wallet.Transaction); tx.ID == "" {
		t.Fatal("transaction detail selects nothing")
	}
	for want := 3; want >= 1; want-- {
		if !v.Back() || len(v.Crumbs()) != want {
			t.Fatalf("back: crumbs %v, want %d", v.Crumbs(), want)
		}
	}
	if v.Back() {
		t.Fatal("back from the root")
	}
	viewtest.Drive(v, v.Update(viewtest.Key("T")))
	if c := v.Crumbs(); !slices.Equal(c, []string{"transactions"}) {
		t.Fatalf("T: crumbs %v", c)
	}
	newest := slices.MaxFunc(txsOf(t, e), func(a, b wallet.Transaction) int { return a.CreatedAt.Compare(b.CreatedAt) })
	w := walletOf(t, e, newest.WalletID)
	// The shared rows of all transactions are built on the store's
	// goroutines, and the page takes them as a store change makes it.
	// Beside the package's other tests on the shared world (under -race)
	// they were once not there after one Sync: wait for them, a bounded
	// number of times, and say what was shown if they never come.
	frame := ""
	for range 200 {
		e.P.Store.Sync()
		viewtest.Drive(v, v.Update(ui.StoreChanged{}))
		if frame = v.Render(200, 36); strings.Contains(frame, w.Name) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(frame, w.Name) {
		t.Fatalf("all transactions: no wallet name %q for the newest one (%s):\n%s", w.Name, newest.ID, frame)
	}
	viewtest.Drive(v, v.Update(ui.Open{View: "wallets", Args: []string{"transactions", "failed"}}))
	if c := v.Crumbs(); !slices.Equal(c, []string{"transactions FAILED"}) {
		t.Fatalf("open transactions failed: crumbs %v", c)
	}
	if !strings.Contains(v.Render(120, 36), "FAILED") || strings.Contains(v.Render(120, 36), "CONFIRMED") {
		t.Fatal("status filter")
	}
	viewtest.Drive(v, v.Update(viewtest.Key("E")))
	if !strings.Contains(v.Render(120, 36), "BTC to cold") {
		t.Fatal("sweeps section")
	}
	viewtest.Drive(v, v.Update(viewtest.Key("W")))
	if !strings.Contains(v.Render(120, 36), "ops-alerts") || !strings.Contains(v.Render(120, 36), "TRANSACTION, WALLET") {
		t.Fatalf("webhooks section:\n%s", v.Render(120, 36))
	}
	viewtest.Drive(v, v.Update(viewtest.Key("enter")))
	if !strings.Contains(v.Render(120, 36), "WALLET") {
		t.Fatal("subscriptions")
	}
	viewtest.Drive(v, v.Update(ui.Open{View: "wallets", Args: []string{"wallet", "Cold BTC"}}))
	if c := v.Crumbs(); !slices.Equal(c, []string{"vaults", "Cold Reserve", "Cold BTC"}) {
		t.Fatalf(":wallet Cold BTC: crumbs %v", c)
	}
}

// The sweep page drills into the last run's transactions.
func TestSweepLastRun(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	v := wallets.New(e.Ctx, e.P, e.Actor)
	viewtest.Drive(v, v.Update(ui.Open{View: "wallets", Args: []string{"sweeps"}}))
	ui.SetFilterOf(v, "polygon")
	viewtest.Drive(v, v.Update(viewtest.Key("enter")))
	out := v.Render(120, 36)
	if !strings.Contains(out, "SWEEP") {
		t.Fatalf("last run of Polygon consolidation:\n%s", out)
	}
}

// Nothing is wider than 80 columns at 80x24.
func TestFitsEightyColumns(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	v := wallets.New(e.Ctx, e.P, e.Actor)
	rej := pickTx(t, e, "rejected", func(t wallet.Transaction) bool { return t.Status == wallet.TxRejected })
	for _, args := range [][]string{nil, {"vault", "Treasury Operations"}, {"wallet", "Treasury ETH hot"},
		{"transactions"}, {"transaction", rej.ID}, {"sweeps"}, {"webhooks"}} {
		viewtest.Drive(v, v.Update(ui.Open{View: "wallets", Args: args}))
		viewtest.Fits(t, fmt.Sprint(args), v.Render(80, 20), 80, 20)
	}
}

// Without a CONTROLS credential the wallet page says why limits and
// policies are not shown.
func TestNoControlsCredential(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	p := *e.P
	p.WalletControls = nil
	v := wallets.New(e.Ctx, &p, e.Actor)
	viewtest.Drive(v, v.Update(ui.Open{View: "wallets", Args: []string{"wallet", "Treasury ETH hot"}}))
	out := v.Render(120, 36)
	if !strings.Contains(out, "need a wallet CONTROLS credential") || !strings.Contains(out, "USDC") {
		t.Fatalf("wallet page without CONTROLS:\n%s", out)
	}
}

// calls are the reads cmd makes, by family ("wallet-balances",
// "wallet-limits", "wallet-policies"), sorted, without running what their
// answers lead to.
func calls(cmd tea.Cmd) []string {
	var out []string
	var walk func(tea.Cmd)
	walk = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch m := c().(type) {
		case tea.BatchMsg:
			for _, c := range m {
				walk(c)
			}
		case viewkit.Fetched:
			out = append(out, strings.SplitN(string(m.Topic), ":", 2)[0])
		}
	}
	walk(cmd)
	slices.Sort(out)
	return out
}

// A new transactions snapshot reads the wallet's balances again, not its
// limits and policies; r reads all three.
func TestWalletRereadsBalancesOnly(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	v := wallets.New(e.Ctx, e.P, e.Actor)
	viewtest.Drive(v, v.Update(ui.Open{View: "wallets", Args: []string{"wallet", "Treasury ETH hot"}}))
	before := live.Get(e.P.Store, live.TransactionsKey).Version
	e.Advance(time.Hour)
	if live.Get(e.P.Store, live.TransactionsKey).Version == before {
		t.Fatal("no new transactions in an hour: the test proves nothing")
	}
	if got := calls(v.Update(ui.StoreChanged{})); !slices.Equal(got, []string{"wallet-balances"}) {
		t.Errorf("after new transactions the page reads %v, want the balances", got)
	}
	if got := calls(v.Update(ui.Refresh{})); !slices.Equal(got, []string{"wallet-balances", "wallet-limits", "wallet-policies"}) {
		t.Errorf("r reads %v, want the balances, limits and policies", got)
	}
}
