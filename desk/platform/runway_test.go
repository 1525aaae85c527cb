package platform_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/figures/runway"
	"treasury/process/sandboxprofile"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/money"
)

// sandboxPlatform is a platform on a frozen sandbox half an hour after
// its start (live traffic has moved the accounts), with cfg changed by
// change first.
func sandboxPlatform(t *testing.T, change func(*config.Config)) *platform.Platform {
	t.Helper()
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	cfg := sandboxprofile.Of(srv, config.Builtin())
	if change != nil {
		change(cfg)
	}
	p, err := platform.Open(cfg, platform.Options{Now: srv.Clock().Now, Inline: true, BackfillBudget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	srv.AdvanceClock(30 * time.Minute)
	return p
}

func alertsOf(p *platform.Platform, code string) []live.Alert {
	var out []live.Alert
	for _, a := range p.Store.Alerts() {
		if a.Code == code {
			out = append(out, a)
		}
	}
	return out
}

// TestRunwayFromSandbox: with no alert settings, the runway of each
// prefunded currency is built from the sandbox's balances and ledger once
// both answered, weighted over six hours, the bank's top-ups (whenever a
// payment would overdraw an account) left out of the pace; the sandbox's
// USD account lasts under six hours at its payments' pace, which is
// critical, and the alert says when it runs out and points at the ledger.
func TestRunwayFromSandbox(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, Inline: true, BackfillBudget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	// An hour of traffic: the USD account is topped up by the bank in it.
	srv.AdvanceClock(time.Hour)
	ctx := context.Background()
	p.Store.FetchNow(ctx, live.PaymentBalances)
	if s := live.Get(p.Store, p.Runway).Data; !s.At.IsZero() || len(s.Currencies) != 0 || len(alertsOf(p, "LOW_RUNWAY")) != 0 {
		t.Fatalf("a runway before the ledger answered: %+v", s)
	}
	led := p.Store.FetchNow(ctx, live.Ledger)
	s := live.Get(p.Store, p.Runway).Data
	if !s.At.Equal(led.FetchedAt) || s.Window != 6*time.Hour || !s.From.Equal(led.FetchedAt.Add(-platform.LedgerWindow)) || len(s.Currencies) == 0 {
		t.Fatalf("runway %+v", s)
	}
	usd, ok := s.Find("USD")
	if !ok || usd.NoOutflow || usd.Funding == 0 || usd.Level != runway.Critical {
		t.Fatalf("USD %+v: want an outflow, top-ups left out, critical", usd)
	}
	for _, c := range s.Currencies {
		if !c.NoOutflow {
			if want := c.Available.DivRound(c.Outflow, 1); !c.Hours.Equal(want) {
				t.Errorf("%s: %s h, want %s", c.Currency, c.Hours, want)
			}
		}
	}
	var a live.Alert
	for _, x := range alertsOf(p, "LOW_RUNWAY") {
		if x.Ref == "USD" {
			a = x
		}
	}
	if a.Ref != "USD" || a.Topic != live.Ledger || a.Severity != live.High || !strings.Contains(a.Title, "empty ≈ ") ||
		!strings.Contains(a.Title, "at the 6 h weighted pace (") || !strings.Contains(a.Title, "at the last 15 min's pace (") ||
		!strings.HasSuffix(a.Title, "(critical under 6 h)") || !strings.Contains(a.Guidance, "the shorter runway is the one judged") {
		t.Errorf("alert %+v", a)
	}
	// Each currency's level is the shorter runway's: the one the alert
	// says first.
	for _, c := range s.Currencies {
		h, _, _, ok := c.Runway()
		if ok && c.Level != c.Limits.Level(h) {
			t.Errorf("%s: level %s for a runway of %s h", c.Currency, c.Level, h)
		}
	}
}

// TestThresholdsApplyAtOnce: new settings put in effect (the alerts
// editor) judge the data held again, without a read: the runway alerts go
// when their levels are turned off and come back at the level set, and a
// low balance is judged per kind of balance.
func TestThresholdsApplyAtOnce(t *testing.T) {
	p := sandboxPlatform(t, func(c *config.Config) {
		c.Alerts.Prefunded.Default.RunwayWarning = config.Setting[decimal.Decimal]{Set: true}
		c.Alerts.Prefunded.Default.RunwayCritical = config.Setting[decimal.Decimal]{Set: true}
	})
	ctx := context.Background()
	for _, tp := range []live.Topic{live.PaymentBalances, live.Ledger, live.LiquidityBalances} {
		p.Store.FetchNow(ctx, tp)
	}
	if as := alertsOf(p, "LOW_RUNWAY"); len(as) != 0 {
		t.Fatalf("runway alerts with their levels off: %+v", as)
	}
	requests := p.Store.Snapshot(live.Ledger).FetchedAt

	a := *p.Alerts()
	a.Prefunded.Currency = map[string]config.Threshold{"USD": {
		RunwayWarning: config.Given(money.MustParse("100000")),
		LowBalance:    config.Given(money.MustParse("1000000000000"))}}
	a.Liquidity.Currency = map[string]config.Threshold{"USD": {
		LowBalanceCritical: config.Given(money.MustParse("1000000000000"))}}
	p.SetAlerts(a)
	p.Store.Sync()
	if !p.Store.Snapshot(live.Ledger).FetchedAt.Equal(requests) {
		t.Error("the ledger was read again: new settings should judge the data held")
	}
	rw := alertsOf(p, "LOW_RUNWAY")
	if len(rw) != 1 || rw[0].Ref != "USD" || rw[0].Severity != live.Medium || !strings.Contains(rw[0].Title, "(warning under 100000 h)") {
		t.Fatalf("runway alerts %+v", rw)
	}
	low := map[string]live.Alert{}
	for _, x := range alertsOf(p, "LOW_BALANCE") {
		low[x.Key] = x
	}
	pre, liq := low["low-balance:prefunded:USD"], low["low-balance:liquidity:USD"]
	if len(low) != 2 || pre.Severity != live.Medium || pre.Topic != live.PaymentBalances || liq.Severity != live.High ||
		liq.Topic != live.LiquidityBalances || !strings.Contains(liq.Title, "USD liquidity balance") || !strings.Contains(liq.Title, "(critical)") {
		t.Fatalf("low balance alerts %+v", low)
	}
}
