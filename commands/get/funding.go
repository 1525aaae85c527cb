package get

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/platform"
	"treasury/figures"
	payclient "treasury/wire/payments/client"
)

// fundingRow is one prefunded currency of `treasury get funding`: the
// funding plan (figures.PlanOf), the figures of the balances view's
// funding plan as data. Its CSV columns are figures.Plan.Data's names.
type fundingRow struct {
	Currency string `json:"currency"`
	// The prefunded balance, and what stays available once every
	// prefunded payment in flight is debited.
	Available          amount `json:"available"`
	Reserved           amount `json:"reserved"`
	PrefundedInFlight  amount `json:"prefundedInFlight"`
	PrefundedInFlightN int    `json:"prefundedInFlightCount"`
	AfterInFlight      amount `json:"afterInFlight"`
	// The pace that drives the runway (runwayBy: weighted or 15m) and the
	// runway at it; null without an outflow.
	PacePerHour *amount `json:"pacePerHour"`
	PaceBy      string  `json:"paceBy"`
	Runway      string  `json:"runway"`
	RunwayHours *hours  `json:"runwayHours"`
	// The plan: carried Hours, until Until; the top-up that does it at
	// that pace (zero and covered when none is needed).
	Hours   hours  `json:"hours"`
	Until   stamp  `json:"until"`
	TopUp   amount `json:"topUp"`
	Covered bool   `json:"covered"`
	// A top-up sent now: when it arrives, the payments owed just in time
	// of the currency due before then (past due ones among them), the
	// next one not due yet and the last time to send one for it.
	TopUpLeadHours    hours  `json:"topUpLeadHours"`
	TopUpArrives      stamp  `json:"topUpArrives"`
	OwedBeforeArrival amount `json:"owedBeforeArrival"`
	OwedBeforeN       int    `json:"owedBeforeArrivalCount"`
	PastDueN          int    `json:"pastDueCount"`
	NextDue           *stamp `json:"nextDue"`
	SendBy            *stamp `json:"sendBy"`
}

// parseHours reads --hours: a positive number of hours, at most 30 days.
func parseHours(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(strings.TrimSuffix(strings.TrimSpace(s), "h"))
	switch {
	case err != nil:
		return decimal.Zero, fmt.Errorf("--hours %q is not a number of hours such as 8 or 8.5", s)
	case !d.IsPositive():
		return decimal.Zero, errors.New("--hours must be positive (leave it out for the end of the business day)")
	case d.GreaterThan(decimal.NewFromInt(30 * 24)):
		return decimal.Zero, errors.New("--hours is at most 720 (30 days)")
	}
	return d, nil
}

// readFunding reads what the exposure is built from and plans each
// prefunded currency for --hours, else to the end of the business day in
// the profile's time zone (funding: time_zone, day_ends).
func readFunding(ctx context.Context, p *platform.Platform, c *payclient.Client, a getArgs) (any, error) {
	now := a.now()
	ex, _, owing, err := exposureOf(ctx, p, c, now)
	if err != nil {
		return nil, err
	}
	f := p.Config.Funding
	h := a.hours
	if !h.IsPositive() {
		h, _ = figures.PlanHours(now, f.Zone, f.DayEnds)
	}
	plans := figures.Plans(ex, owing, h, f.TopUpLead)
	rows := make([]fundingRow, 0, len(plans))
	for _, pl := range plans {
		rows = append(rows, fundingRowOf(pl))
	}
	return rows, nil
}

// fundingRowOf is a plan as a row.
func fundingRowOf(p figures.Plan) fundingRow {
	am := func(d decimal.Decimal) amount { return amount{d, p.Currency} }
	r := fundingRow{Currency: p.Currency, Available: am(p.Available), Reserved: am(p.Reserved),
		PrefundedInFlight: am(p.InFlight.Amount), PrefundedInFlightN: p.InFlight.Count, AfterInFlight: am(p.AfterInFlight),
		Runway: p.Runway.Text(), Hours: hours{p.Hours}, Until: stamp{p.Until}, TopUp: am(p.TopUp), Covered: p.Covered,
		TopUpLeadHours: hours{decimal.NewFromInt(int64(p.Lead/time.Second)).DivRound(decimal.NewFromInt(3600), 6)}, TopUpArrives: stamp{p.Arrives},
		OwedBeforeArrival: am(p.Late.Amount), OwedBeforeN: p.Late.Count, PastDueN: p.PastDue.Count}
	if p.Runway.Runs {
		r.PacePerHour, r.PaceBy = ptr(am(p.Runway.Pace)), p.Runway.By
		if !p.Runway.Long {
			r.RunwayHours = &hours{p.Runway.Hours}
		}
	}
	if !p.NextDue.IsZero() {
		r.NextDue, r.SendBy = &stamp{p.NextDue}, &stamp{p.SendBy}
	}
	return r
}

// fundingTitles are the short table's columns: the balances view's
// funding plan.
var fundingTitles = []string{"CURRENCY", "AVAILABLE", "AFTER IN FLIGHT", "PACE/H", "BY", "RUNWAY", "HOURS", "TOP-UP",
	"ARRIVES (UTC)", "OWED BEFORE (N)", "SEND BY (UTC)"}

// short is the row as the short table shows it: amounts as the dashboard
// writes them (figures.Money), "" for what the currency has not.
func (r fundingRow) short() []string {
	c := r.Currency
	m := func(a amount) string { return figures.Money(a.Decimal, c) }
	at := func(t *stamp) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04")
	}
	pace, top, owed := "", m(r.TopUp), ""
	if r.PacePerHour != nil {
		pace = m(*r.PacePerHour)
	}
	if r.Covered {
		top = "none"
	}
	if r.OwedBeforeN > 0 {
		owed = m(r.OwedBeforeArrival) + " (" + strconv.Itoa(r.OwedBeforeN) + ")"
	}
	return []string{c, m(r.Available), m(r.AfterInFlight), pace, r.PaceBy, r.Runway, r.Hours.StringFixed(1), top,
		at(&r.TopUpArrives), owed, at(r.SendBy)}
}
