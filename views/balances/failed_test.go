package balances_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/sandbox"
	"treasury/views/balances"
	"treasury/views/viewtest"
)

// TestOneInterfaceFailing: with a wrong payments secret the liquidity
// balances are shown, and the payments balances are named as missing with
// their error; the table never reads as if it held every balance.
func TestOneInterfaceFailing(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) {
		c.Payments.ClientSecret = config.NewSecret("not-the-secret")
	}})
	tm := e.Program(t, balances.New(e.Ctx, balances.Options{Runway: e.P.Runway}))
	viewtest.WaitFor(t, tm, "could not be read")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"⚠ incomplete: balances: 1 of 2 could not be read", "payments balances: ✖", "liquidity"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q", want)
		}
	}
	if strings.Contains(frame, "no balances returned") || strings.Contains(frame, "not-the-secret") {
		t.Errorf("an empty-state sentence or the secret:\n%s", frame)
	}
}

// TestBothUnreachable: with neither interface reachable the body names
// both failures where the balances would be, and shows no empty table,
// chart or zero; the trades section names its own failure.
func TestBothUnreachable(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Profile: func(c *config.Config) {
		c.Liquidity.BaseURL = "http://127.0.0.1:1"
		c.Payments.BaseURL = "http://127.0.0.1:1"
	}})
	tm := e.Program(t, balances.New(e.Ctx, balances.Options{Runway: e.P.Runway}))
	viewtest.WaitFor(t, tm, "Could not read balances")
	viewtest.Keys(tm, "t")
	viewtest.WaitFor(t, tm, "Could not read trades")
	viewtest.Keys(tm, "t")
	viewtest.WaitFor(t, tm, "Could not read balances")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"Could not read balances", "2 of 2 could not be read", "liquidity balances:", "payments balances:",
		"connection refused", "profiles.sandbox.liquidity.base_url"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q", want)
		}
	}
	for _, bad := range []string{"no balances returned", "no data yet", "Available"} {
		if strings.Contains(frame, bad) {
			t.Errorf("the frame shows %q:\n%s", bad, frame)
		}
	}
}

// TestStaleBalancesStay: balances read once and then failing stay shown,
// marked stale with their age and the error.
func TestStaleBalancesStay(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()}) // the page shows no trades
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{UnavailableRate: 1}); err != nil {
		t.Fatal(err)
	}
	e.Advance(90 * 1e9) // 90 s: every topic fails once
	tm := e.Program(t, balances.New(e.Ctx, balances.Options{Runway: e.P.Runway}))
	viewtest.WaitFor(t, tm, "STALE")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"STALE (fetched <2m ago", "503", "liquidity", "payments"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q:\n%s", want, frame)
		}
	}
}
