package balances_test

import (
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/config"
	histfile "treasury/desk/history"
	"treasury/desk/live"
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
	e := lowUSD.Env(t)
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

// archiveXRP gives e a history file holding the liquidity XRP balance
// every 10 minutes from 3 days to 3 hours ago (a ramp from 30M to about
// 34M): older than the store's memory, which holds the last 2 hours.
func archiveXRP(t *testing.T, e *viewtest.Env) {
	now := e.Sandbox.Clock().Now()
	start := now.Add(-3 * 24 * time.Hour)
	var b histfile.Batch
	for m := start; m.Before(now.Add(-3 * time.Hour)); m = m.Add(10 * time.Minute) {
		v := 30e6 + float64(m.Sub(start)/time.Minute)*1000
		b.Balances = append(b.Balances, histfile.Balance{Currency: "XRP", Kind: histfile.Liquidity, Minute: m, Available: v, Low: v, High: v})
	}
	e.Archive(t, b)
}

// TestBalancesWeekGolden: w cycles the chart's window; the week is read
// from the history file and followed by the memory's last 2 hours, and
// its title says that 3 days of the 7 are held; the 30 days say the same
// 3 days, and the hour reads the memory alone.
func TestBalancesWeekGolden(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	history(e)
	archiveXRP(t, e)
	tm := e.Program(t, balances.New(e.Ctx, balances.Options{Runway: e.P.Runway}))
	viewtest.WaitFor(t, tm, "available USD · liquidity  (last 24h window, 2h held")
	viewtest.Keys(tm, "down", "w")
	viewtest.WaitFor(t, tm, "available XRP · liquidity  (last 7d window, 3d held, UTC; w: window)")
	viewtest.Keys(tm, "w")
	viewtest.WaitFor(t, tm, "available XRP · liquidity  (last 30d window, 3d held, UTC; w: window)")
	viewtest.Keys(tm, "w")
	viewtest.WaitFor(t, tm, "available XRP · liquidity  (last 1h, UTC; w: window)")
	// One key at a time: the flashes of two keys may arrive in either
	// order, and the golden frame holds the last.
	viewtest.Keys(tm, "w")
	viewtest.WaitAll(t, tm, "available XRP · liquidity  (last 24h window, 2h held, UTC; w: window)", "balance chart of the last 24h")
	viewtest.Keys(tm, "w")
	viewtest.WaitAll(t, tm, "available XRP · liquidity  (last 7d window, 3d held, UTC; w: window)", "balance chart of the last 7d")
	frame := viewtest.Golden(t, tm)
	if !strings.Contains(frame, "30.0M└") || !strings.Contains(frame, "Nov 13 11h UTC") {
		t.Errorf("the week's chart does not reach down to the history's first balance (30M):\n%s", frame)
	}
}
