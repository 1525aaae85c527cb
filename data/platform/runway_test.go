package platform_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"treasury/config"
	"treasury/data/live"
	"treasury/data/money"
	"treasury/data/platform"
	"treasury/data/sandbox/sandboxtest"
)

// TestRunwayFromSandbox: the runway of each prefunded currency is built
// from the sandbox's balances and ledger once both answered, and a
// currency under alerts.runway_hours raises LOW_RUNWAY pointing at the
// ledger; without the setting no runway alert is raised.
func TestRunwayFromSandbox(t *testing.T) {
	for _, threshold := range []string{"", "100000"} {
		srv := sandboxtest.Listen(t, sandboxtest.Options())
		cfg := srv.Profile(config.Builtin())
		if threshold != "" {
			cfg.Alerts.RunwayHours = money.MustParse(threshold)
		}
		p, err := platform.Open(cfg, platform.Options{Now: srv.Clock().Now, Inline: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		srv.AdvanceClock(30 * time.Minute) // live traffic moves the accounts
		ctx := context.Background()
		p.Store.FetchNow(ctx, live.PaymentBalances)
		if s := live.Get(p.Store, p.Runway).Data; !s.At.IsZero() || len(s.Currencies) != 0 {
			t.Fatalf("a runway before the ledger answered: %+v", s)
		}
		led := p.Store.FetchNow(ctx, live.Ledger)
		s := live.Get(p.Store, p.Runway).Data
		if !s.At.Equal(led.FetchedAt) || len(s.Currencies) == 0 {
			t.Fatalf("runway %+v", s)
		}
		moving := 0
		for _, c := range s.Currencies {
			if !c.NoOutflow {
				moving++
				if want := c.Available.DivRound(c.Outflow, 1); !c.Hours.Equal(want) {
					t.Errorf("%s: %s h, want %s", c.Currency, c.Hours, want)
				}
			}
		}
		if moving == 0 {
			t.Fatal("no currency with an outflow in the sandbox's last hour: the test proves nothing")
		}
		var alerts []live.Alert
		for _, a := range p.Store.Alerts() {
			if a.Code == "LOW_RUNWAY" {
				alerts = append(alerts, a)
			}
		}
		if threshold == "" {
			if len(alerts) != 0 {
				t.Fatalf("runway alerts without runway_hours: %+v", alerts)
			}
			continue
		}
		if len(alerts) != moving {
			t.Fatalf("%d runway alerts, want %d: %+v", len(alerts), moving, alerts)
		}
		if a := alerts[0]; a.Topic != live.Ledger || a.Ref == "" || !strings.Contains(a.Title, "under 100000 h") {
			t.Fatalf("alert %+v", a)
		}
	}
}
