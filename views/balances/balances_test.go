package balances_test

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/shopspring/decimal"

	"treasury/ui"
	"treasury/views/balances"
	"treasury/views/viewtest"
)

// history advances the sandbox clock in steps so every balance has a
// history to draw.
func history(e *viewtest.Env) {
	for range 12 {
		e.Advance(10 * time.Minute)
	}
}

func TestBalancesGolden(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{})
	e.P.Config.Alerts.LowBalance["USD"] = decimal.RequireFromString("1000000000000")
	history(e)
	tm := e.Program(t, balances.New(e.Ctx))
	viewtest.WaitFor(t, tm, "available")
	viewtest.Keys(tm, "down")
	frame := viewtest.Golden(t, tm)
	if !strings.Contains(frame, "Balances") || !strings.Contains(frame, "LOW") {
		t.Fatal("no tab or no low-balance mark")
	}
}

func TestTradesGolden(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{})
	history(e)
	tm := e.Program(t, balances.New(e.Ctx))
	viewtest.WaitFor(t, tm, "available")
	viewtest.Keys(tm, "t")
	viewtest.WaitFor(t, tm, "Executed (UTC)")
	viewtest.Golden(t, tm)
}

func TestBalancesDrillDownAndBack(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{})
	v := balances.New(e.Ctx)
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "available")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "Updated (UTC)  ")
	viewtest.Keys(tm, "esc", "t")
	viewtest.WaitFor(t, tm, "Executed (UTC)")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "Trade id  ")
	viewtest.Keys(tm, "esc", "esc")
	viewtest.WaitFor(t, tm, "History (avail.)")
	tm.Quit()
}

func TestBalancesWidth80(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{})
	e.P.Config.Alerts.LowBalance["USD"] = decimal.RequireFromString("1000000000000")
	history(e)
	v := balances.New(e.Ctx)
	v.Update(ui.StoreChanged{})
	check := func(what string) {
		t.Helper()
		out := v.Render(80, 20)
		for i, l := range strings.Split(out, "\n") {
			if w := lipgloss.Width(l); w > 80 {
				t.Errorf("%s: line %d is %d wide: %q", what, i, w, l)
			}
		}
		if n := strings.Count(out, "\n") + 1; n > 20 {
			t.Errorf("%s: %d lines", what, n)
		}
	}
	check("balances")
	v.Update(ui.Open{View: "balances", Args: []string{"trades"}})
	check("trades")
}
