package figures

import (
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire/money"
	"treasury/wire/payments"
)

// The funding planner: per prefunded currency, the top-up that carries its
// balance a number of hours at the pace that drives its runway (RunwayOf),
// what stays available once the prefunded payments in flight are debited,
// and which payments owed just in time fall due before a top-up sent now
// would arrive.

// Plan is one currency's funding plan as of At.
type Plan struct {
	Currency string
	At       time.Time
	// Available and Reserved are the prefunded balances; InFlight the
	// prefunded payments in flight (their source amounts); AfterInFlight
	// what stays available once every one of them is debited: Available
	// + Reserved - InFlight (the funds a payment reserved are debited
	// from the reserved balance; what it has not reserved yet is taken
	// from the available one).
	Available, Reserved decimal.Decimal
	InFlight            Sum
	AfterInFlight       decimal.Decimal
	// Runway is the currency's runway at the pace that drives it.
	Runway Runway
	// Hours is how long the plan carries the currency (to a tenth), Until
	// when that ends.
	Hours decimal.Decimal
	Until time.Time
	// TopUp is what to add to Available for its runway at Runway's pace
	// to be Hours: Hours × pace − Available, rounded up to the currency's
	// decimals; zero when the balance already lasts that long or nothing
	// flows out (Covered says which).
	TopUp   decimal.Decimal
	Covered bool
	// Lead is how long a top-up takes to reach the account; Arrives when
	// one sent at At does.
	Lead    time.Duration
	Arrives time.Time
	// Late are the payments of the currency owed just in time whose
	// funds are due before Arrives (past due ones among them, PastDue);
	// SendBy is the last time a top-up may be sent to arrive before the
	// next owed payment not due yet (zero when none, before At when even
	// that one is due before a top-up sent now arrives).
	Late, PastDue Sum
	SendBy        time.Time
	NextDue       time.Time
}

// PlanOf is the plan of l's currency (a line of BuildExposure, at its At)
// to carry it hours, a top-up taking lead to arrive; owing are the
// payments owed just in time (Owing), of any currency.
func PlanOf(l Line, owing []*payments.Payment, at time.Time, hours decimal.Decimal, lead time.Duration) Plan {
	c := l.Currency
	p := Plan{Currency: c, At: at, Available: l.Available, Reserved: l.Reserved, InFlight: l.Drawn, Runway: l.Runway,
		Hours: hours.Round(1), Lead: lead, Arrives: at.Add(lead)}
	p.AfterInFlight = l.Available.Add(l.Reserved).Sub(l.Drawn.Amount)
	p.Until = at.Add(time.Duration(p.Hours.Mul(decimal.NewFromInt(int64(time.Hour))).IntPart()))
	p.TopUp, p.Covered = TopUp(l.Available, l.Runway, p.Hours, c)
	for _, o := range owing {
		due := o.JITFundingExpiresAt
		if o.Originator.SourceCurrency != c || due.IsZero() {
			continue
		}
		amt := o.Originator.SourceAmount.Decimal()
		if !due.After(p.Arrives) {
			p.Late.Add(amt)
		}
		if PastDue(o, at) {
			p.PastDue.Add(amt)
		} else if p.NextDue.IsZero() || due.Before(p.NextDue) {
			p.NextDue = due
		}
	}
	if !p.NextDue.IsZero() {
		p.SendBy = p.NextDue.Add(-lead)
	}
	return p
}

// TopUp is what to add to available for its runway at r's pace to be
// hours, rounded up to currency's decimals; covered says no top-up is
// needed (the balance lasts that long, or nothing flows out).
func TopUp(available decimal.Decimal, r Runway, hours decimal.Decimal, currency string) (decimal.Decimal, bool) {
	if !r.Runs || !r.Pace.IsPositive() {
		return decimal.Zero, true
	}
	need := hours.Mul(r.Pace).Sub(available)
	if !need.IsPositive() {
		return decimal.Zero, true
	}
	places, ok := money.Places(currency)
	if !ok {
		places = 2
	}
	return need.RoundCeil(places), false
}

// PlanHours is how many hours from at to the end of the business day (the
// day's end, a time of day in loc): today's when it has not passed, else
// the next weekday's; to a tenth, rounded up. It returns the end too.
func PlanHours(at time.Time, loc *time.Location, dayEnds time.Duration) (decimal.Decimal, time.Time) {
	if loc == nil {
		loc = time.UTC
	}
	local := at.In(loc)
	y, m, d := local.Date()
	end := time.Date(y, m, d, 0, 0, 0, 0, loc).Add(dayEnds)
	for !end.After(at) || end.Weekday() == time.Saturday || end.Weekday() == time.Sunday {
		y, m, d = end.Date()
		end = time.Date(y, m, d+1, 0, 0, 0, 0, loc).Add(dayEnds)
	}
	h := decimal.NewFromInt(int64(end.Sub(at)/time.Second)).DivRound(decimal.NewFromInt(3600), 6).RoundCeil(1)
	return h, end
}

// Words say the plan in a line, as the balances view and the alerts say
// it: "top up 120,000.00 USD to last 6.2 h (to 17:00 Europe/London) at
// 45,000.00 USD/h (15m); after in flight 1,234.00 USD; a top-up sent
// now arrives 14:30 UTC: too late for 3 owed just in time (224,564.95
// USD, 2 past due)".
func (p Plan) Words(stamp func(time.Time) string) string {
	c := p.Currency
	m := func(d decimal.Decimal) string { return Money(d, c) + " " + c }
	var s string
	switch {
	case !p.Runway.Runs:
		s = "no outflow: no top-up needed at the present pace"
	case p.Covered:
		s = "no top-up needed: " + p.Runway.Text() + " ≥ " + Hours(p.Hours)
	default:
		s = fmt.Sprintf("top up %s to last %s at %s/h (%s)", m(p.TopUp), Hours(p.Hours), m(p.Runway.Pace), p.Runway.By)
	}
	s += "; after in flight " + m(p.AfterInFlight)
	if p.Late.Count > 0 {
		s += fmt.Sprintf("; a top-up sent now arrives %s: after %d owed just in time fall due (%s", stamp(p.Arrives), p.Late.Count, m(p.Late.Amount))
		if p.PastDue.Count > 0 {
			s += fmt.Sprintf(", %d past due", p.PastDue.Count)
		}
		s += ")"
	}
	if !p.SendBy.IsZero() && p.SendBy.After(p.At) {
		s += "; send by " + stamp(p.SendBy) + " for the next owed, due " + stamp(p.NextDue)
	}
	return s
}

// Plans are the plans of the prefunded currencies of e (those with a
// balance), in its order.
func Plans(e Exposure, owing []*payments.Payment, hours decimal.Decimal, lead time.Duration) []Plan {
	var out []Plan
	for _, l := range e.Lines {
		if l.HasBalance {
			out = append(out, PlanOf(l, owing, e.At, hours, lead))
		}
	}
	return slices.Clip(out)
}

// Data is the plan as data, as the dashboard's CSV writes it and `treasury
// get funding -o csv` names it: amounts at the currency's decimals, plain
// (MoneyData); hours to a tenth; times RFC 3339 (Stamp); "" for what the
// plan has not (no outflow: no pace; no owed payment: no due time).
func (p Plan) Data() []Cell {
	c := p.Currency
	m := func(d decimal.Decimal) string { return MoneyData(d, c) }
	var pace, by, rwHours string
	if p.Runway.Runs {
		pace, by = m(p.Runway.Pace), p.Runway.By
		if !p.Runway.Long {
			rwHours = p.Runway.Hours.StringFixed(1)
		}
	}
	lead := decimal.NewFromInt(int64(p.Lead/time.Second)).DivRound(decimal.NewFromInt(3600), 6).StringFixed(1)
	return []Cell{
		{"currency", c}, {"available", m(p.Available)}, {"reserved", m(p.Reserved)},
		{"prefunded_in_flight", m(p.InFlight.Amount)}, {"prefunded_in_flight_count", fmt.Sprint(p.InFlight.Count)},
		{"after_in_flight", m(p.AfterInFlight)}, {"pace_per_hour", pace}, {"pace_by", by},
		{"runway", p.Runway.Text()}, {"runway_hours", rwHours},
		{"hours", p.Hours.StringFixed(1)}, {"until", Stamp(p.Until)}, {"top_up", m(p.TopUp)}, {"covered", fmt.Sprint(p.Covered)},
		{"top_up_lead_hours", lead}, {"top_up_arrives", Stamp(p.Arrives)},
		{"owed_before_arrival", m(p.Late.Amount)}, {"owed_before_arrival_count", fmt.Sprint(p.Late.Count)},
		{"past_due_count", fmt.Sprint(p.PastDue.Count)}, {"next_due", Stamp(p.NextDue)}, {"send_by", Stamp(p.SendBy)},
	}
}
