package figures

import (
	"slices"
	"strings"
	"testing"
	"time"

	"treasury/figures/runway"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// TestTopUpCarriesTheRunway: the planner's top-up, added to the available
// balance and the runway computed again from the same ledger, gives a
// runway of the plan's hours at the same pace, for the weighted pace and
// for a burst (the last 15 minutes' pace driving it).
func TestTopUpCarriesTheRunway(t *testing.T) {
	at := now
	ago := func(m int) time.Time { return at.Add(-time.Duration(m) * time.Minute) }
	mv := func(when time.Time, before, after string) payments.LedgerTransaction {
		return payments.LedgerTransaction{Currency: "USD", Operation: payments.OpReserve, TxnSource: payments.SrcPayment, CreatedDttm: when,
			AvailableBalanceBefore: money.N(money.MustParse(before)), AvailableBalanceAfter: money.N(money.MustParse(after))}
	}
	steady := []payments.LedgerTransaction{mv(ago(600), "90000", "80000"), mv(ago(300), "80000", "70000"), mv(ago(60), "70000", "60000")}
	burst := append(slices.Clone(steady), mv(ago(5), "60000", "30000"))
	for name, ledger := range map[string][]payments.LedgerTransaction{"weighted": steady, "burst": burst} {
		bal := func(avail string) payments.Balances {
			return payments.Balances{Balances: []payments.Balance{{Currency: "USD", FundingType: "FUNDED", AvailableBalance: money.N(money.MustParse(avail))}}}
		}
		opts := runway.Options{At: at, From: at.Add(-24 * time.Hour)}
		sheet := runway.Compute(bal("3000"), ledger, opts)
		for _, hours := range []string{"6.2", "24.0", "71.3"} {
			e := BuildExposure(func(func(*payments.Payment) bool) {}, bal("3000"), sheet, at)
			p := PlanOf(e.Lines[0], nil, at, d(hours), time.Hour)
			if p.Covered || !p.TopUp.IsPositive() {
				t.Fatalf("%s %s h: plan %+v", name, hours, p)
			}
			again := runway.Compute(bal(d("3000").Add(p.TopUp).String()), ledger, opts)
			c, _ := again.Find("USD")
			r := RunwayOf(c)
			if !r.Hours.Equal(d(hours)) || r.By != p.Runway.By || !r.Pace.Equal(p.Runway.Pace) {
				t.Errorf("%s: topped up by %s: runway %s h by %s at %s/h, want %s h by %s at %s/h", name, p.TopUp, r.Hours, r.By, r.Pace,
					hours, p.Runway.By, p.Runway.Pace)
			}
		}
		if name == "burst" && sheet.Currencies[0].BurnHours.GreaterThanOrEqual(sheet.Currencies[0].Hours) {
			t.Fatalf("the burst does not drive the runway: %+v", sheet.Currencies[0])
		}
	}
	// A balance that lasts longer needs nothing; no outflow neither.
	if top, covered := TopUp(d("100"), Runway{Runs: true, Pace: d("10")}, d("5"), "USD"); !covered || !top.IsZero() {
		t.Errorf("covered: %s %v", top, covered)
	}
	if _, covered := TopUp(d("0"), Runway{}, d("5"), "USD"); !covered {
		t.Error("no outflow needs a top-up")
	}
	// Rounded up to the currency's decimals: the runway is not short of N.
	if top, _ := TopUp(d("0"), Runway{Runs: true, Pace: d("10.001")}, d("1"), "JPY"); top.String() != "11" {
		t.Errorf("JPY top-up %s", top)
	}
}

// TestPlanHoursToTheEndOfTheDay: to the end of today's business day in
// the profile's zone, the next weekday's once it has passed.
func TestPlanHoursToTheEndOfTheDay(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	fri := time.Date(2026, 5, 1, 14, 0, 0, 0, time.UTC) // a Friday, 10:00 in New York
	for _, c := range []struct {
		at   time.Time
		want string
		end  time.Time
	}{
		{fri, "7.0", time.Date(2026, 5, 1, 17, 0, 0, 0, ny)},
		{fri.Add(6*time.Hour + 59*time.Minute), "0.1", time.Date(2026, 5, 1, 17, 0, 0, 0, ny)},
		{fri.Add(8 * time.Hour), "71.0", time.Date(2026, 5, 4, 17, 0, 0, 0, ny)}, // Friday evening: Monday
	} {
		h, end := PlanHours(c.at, ny, 17*time.Hour)
		if h.StringFixed(1) != c.want || !end.Equal(c.end) {
			t.Errorf("at %s: %s h to %s, want %s to %s", c.at, h, end, c.want, c.end)
		}
	}
}

// TestPlanOwedBeforeTheTopUp: the owed just in time of the currency due
// before a top-up sent now arrives, the past due among them, and when to
// send one for the next that is not due yet.
func TestPlanOwedBeforeTheTopUp(t *testing.T) {
	jit := func(id, amt string, due time.Duration) *payments.Payment {
		p := pay(id, payments.AwaitingFunding, PayinJIT, "USD", "MXN", amt, "1")
		p.JITFundingExpiresAt = now.Add(due)
		return p
	}
	owing := Owing(slices.Values([]*payments.Payment{jit("a", "100", -time.Minute), jit("b", "200", 20*time.Minute),
		jit("c", "300", 3*time.Hour), pay("e", payments.AwaitingFunding, PayinJIT, "EUR", "MXN", "9", "1")}))
	l := Line{Currency: "USD", HasBalance: true, Available: d("1000"), Reserved: d("50"), Drawn: sum("80", 2),
		Runway: Runway{Runs: true, Hours: d("10"), Pace: d("100"), By: ByWeighted}}
	p := PlanOf(l, owing, now, d("4"), time.Hour)
	if !sameSum(p.Late, sum("300", 2)) || !sameSum(p.PastDue, sum("100", 1)) || !p.NextDue.Equal(now.Add(20*time.Minute)) ||
		!p.SendBy.Equal(now.Add(-40*time.Minute)) || !p.AfterInFlight.Equal(d("970")) || !p.Covered {
		t.Fatalf("plan %+v", p)
	}
	w := p.Words(hm)
	for _, want := range []string{"no top-up needed: 10.0 h ≥ 4.0 h", "after in flight 970.00 USD", "arrives 13:00:00: after 2 owed just in time fall due (300.00 USD, 1 past due)"} {
		if !strings.Contains(w, want) {
			t.Errorf("words %q lack %q", w, want)
		}
	}
}
