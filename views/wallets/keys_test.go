package wallets_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/views/viewtest"
	"treasury/views/wallets"
)

// A profile's keys: rebind the view's actions and the table's: the footer
// and ? (both read the bindings) show the keys in force, the new key acts, the old one does nothing.
func TestReboundKeys(t *testing.T) {
	t.Parallel()
	file := []byte("profiles:\n  s:\n    environment: sandbox\n    keys:\n      freeze: F\n      unfreeze: alt+u\n      mark: m\n      transactions: X\n")
	parsed, _, err := config.Parse("config.yaml", file, "s", nil)
	if err != nil {
		t.Fatal(err)
	}
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) { c.Keys = parsed.Keys }})
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Fees and Sweeps")
	viewtest.Keys(tm, "T") // the old key of the section: nothing
	viewtest.Keys(tm, "X")
	viewtest.WaitFor(t, tm, "wallets › transactions")
	viewtest.Keys(tm, "/", pickTx(t, e, "freezable", freezable).ID, "enter") // one that can be frozen
	viewtest.WaitAll(t, tm, "wallets › transactions", "F freeze the transaction")

	viewtest.Keys(tm, "space", "m") // space marks no more; m does
	viewtest.WaitAll(t, tm, "✓ 1 marked", "F freeze 1 marked")
	viewtest.Keys(tm, "f") // the old key: nothing
	viewtest.Keys(tm, "F")
	viewtest.WaitFor(t, tm, "Freeze 1 transaction")
	frame := viewtest.Frame(t, tm)
	if !strings.Contains(frame, "Freeze 1 transaction") {
		t.Errorf("F did not open the freeze:\n%s", frame)
	}
}
