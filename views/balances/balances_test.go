package balances_test

import (
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/config"
	"treasury/data/live"
	"treasury/ui"
	"treasury/views/balances"
	"treasury/views/viewtest"
)

// history advances the sandbox clock in steps, reading the balances at
// each, so every balance has a history to draw; then reads every topic.
func history(e *viewtest.Env) {
	for range 12 {
		e.Sandbox.AdvanceClock(10 * time.Minute)
		for _, tp := range []live.Topic{live.LiquidityBalances, live.PaymentBalances} {
			e.P.Store.FetchNow(context.Background(), tp)
		}
	}
	e.Fetch()
}

// lowUSD is a world with a history whose USD balances are all below their
// alert threshold, built once and shared by the tests that only read it.
var lowUSD = viewtest.NewWorld(viewtest.Options{}, func(e *viewtest.Env) {
	a := *e.P.Alerts()
	low := config.Threshold{LowBalance: config.Given(decimal.RequireFromString("1000000000000"))}
	a.Prefunded.Currency = map[string]config.Threshold{"USD": low}
	a.Liquidity.Currency = map[string]config.Threshold{"USD": low}
	e.P.SetAlerts(a)
	history(e)
})

func TestBalancesGolden(t *testing.T) {
	e := lowUSD.Env(t)
	tm := e.Program(t, balances.New(e.Ctx, balances.Options{Runway: e.P.Runway}))
	viewtest.WaitFor(t, tm, "available")
	viewtest.Keys(tm, "down")
	frame := viewtest.Golden(t, tm)
	if !strings.Contains(frame, "Balances") {
		t.Fatal("no tab")
	}
	// The USD rows are marked, and only they.
	usd := 0
	for _, l := range strings.Split(frame, "\n") {
		f := strings.Fields(l)
		if len(f) < 3 || (f[0] != "liquidity" && f[0] != "payments") {
			continue
		}
		if f[1] == "USD" {
			usd++
		}
		if low := f[2] == "LOW"; low != (f[1] == "USD") {
			t.Errorf("row %q: LOW mark %v", l, low)
		}
	}
	if usd == 0 {
		t.Error("no USD row in the frame: the LOW marks were not checked")
	}
}

func TestTradesByPalette(t *testing.T) {
	e := lowUSD.Env(t)
	v := balances.New(e.Ctx, balances.Options{Runway: e.P.Runway})
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "available")
	viewtest.Keys(tm, ":", "trades", "enter")
	viewtest.WaitFor(t, tm, "Executed (UTC)")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "Trade id  ")
	viewtest.Keys(tm, "t")
	viewtest.WaitFor(t, tm, "Low History")
	tm.Quit()
	if c := v.Crumbs(); len(c) != 0 {
		t.Errorf("crumbs %v after t", c)
	}
}

func TestTradesGolden(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{})
	history(e)
	tm := e.Program(t, balances.New(e.Ctx, balances.Options{Runway: e.P.Runway}))
	viewtest.WaitFor(t, tm, "available")
	viewtest.Keys(tm, "t")
	viewtest.WaitFor(t, tm, "Executed (UTC)")
	viewtest.Golden(t, tm)
}

func TestBalancesDrillDownAndBack(t *testing.T) {
	e := lowUSD.Env(t)
	v := balances.New(e.Ctx, balances.Options{Runway: e.P.Runway})
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "available")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "Updated (UTC)  ")
	viewtest.Keys(tm, "esc", "t")
	viewtest.WaitFor(t, tm, "Executed (UTC)")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "Trade id  ")
	viewtest.Keys(tm, "esc", "esc")
	viewtest.WaitFor(t, tm, "Low History")
	tm.Quit()
}

func TestBalancesWidth80(t *testing.T) {
	e := lowUSD.Env(t)
	v := balances.New(e.Ctx, balances.Options{Runway: e.P.Runway})
	v.Update(ui.StoreChanged{})
	check := func(what string) {
		t.Helper()
		viewtest.Fits(t, what, v.Render(80, 20), 80, 20)
	}
	check("balances")
	v.Update(ui.Open{View: "balances", Args: []string{"trades"}})
	check("trades")
}

// TestBalancesCSVIsData: the balances' CSV has the amounts as received,
// one meaning per column, and no glyph of the table (sparklines, "—").
func TestBalancesCSVIsData(t *testing.T) {
	e := lowUSD.Env(t)
	v := balances.New(e.Ctx, balances.Options{Runway: e.P.Runway})
	v.Update(ui.StoreChanged{})
	var b strings.Builder
	if err := ui.CSVOf(v)(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil || len(recs) < 3 || recs[0][3] != "available" {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	for _, r := range recs[1:] {
		if _, err := decimal.NewFromString(r[3]); err != nil {
			t.Errorf("available %q is not a number", r[3])
		}
		if strings.ContainsAny(strings.Join(r, ""), "—▁▂▃▄▅▆▇█,") {
			t.Errorf("glyphs or grouping in %v", r)
		}
	}
}
