package balances_test

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/figures"
	"treasury/views/balances"
	"treasury/views/viewtest"
)

// TestFundingPlanGolden: f opens the funding plan: a row per prefunded
// currency with its top-up to the end of the business day (17:00 UTC by
// default: 7.5 h from the sandbox's 09:30 start plus its two hours of
// history), the balance after the payments in flight and the payments
// owed just in time due before a top-up lands; + carries it an hour
// longer, and the top-up shown is figures.PlanOf's for those hours.
func TestFundingPlanGolden(t *testing.T) {
	e := lowUSD.Env(t)
	v := balances.New(e.Ctx, balances.Options{Runway: e.P.Runway, Funding: config.DefaultFunding()})
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "funding plan")
	viewtest.Keys(tm, "f")
	viewtest.WaitAll(t, tm, "funding plan: each currency carried", "Top-up", "After in flight")
	viewtest.Keys(tm, "+")
	viewtest.WaitFor(t, tm, "as asked")
	frame := viewtest.Golden(t, tm)

	ex := live.Get(e.P.Store, paystats.ExposureOf(e.P.Store, e.P.Runway)).Data
	h, _ := figures.PlanHours(ex.At, time.UTC, 17*time.Hour)
	h = h.Add(decimal.NewFromInt(1)).Floor()
	for _, p := range figures.Plans(ex.Exposure, ex.Owing, h, time.Hour) {
		top := "none"
		if !p.Covered {
			top = figures.Money(p.TopUp, p.Currency)
		}
		found := false
		for _, l := range strings.Split(frame, "\n") {
			if f := strings.Fields(l); len(f) > 2 && (f[0] == p.Currency || f[0] == "▸" && f[1] == p.Currency) && strings.Contains(l, " "+top+" ") {
				found = true
			}
		}
		if !found {
			t.Errorf("no row of %s with its top-up %s for %s h:\n%s", p.Currency, top, h, frame)
		}
	}
}
