package figures

import (
	"cmp"
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/figures/runway"
	"treasury/wire/payments"
)

// Sum is an amount and how many payments make it.
type Sum struct {
	Amount decimal.Decimal
	Count  int
}

// Add counts one payment of amount d.
func (s *Sum) Add(d decimal.Decimal) { s.Amount, s.Count = s.Amount.Add(d), s.Count+1 }

// Named is a sum under a name: the payments of a payin this build does not
// know, under that payin.
type Named struct {
	Name string
	Sum
}

// Line is one currency's exposure: what the payments in flight commit in
// it, by how each is funded (FundingOf).
type Line struct {
	Currency string
	// Out is what the payments in flight pay out in this currency
	// (destination amounts).
	Out Sum
	// Drawn is what the prefunded payments in flight paid from this
	// currency draw from its prefunded account (source amounts).
	Drawn Sum
	// Owed is what the just-in-time payments awaiting their funds
	// (AWAITING_FUNDING) are owed by the customer in this currency: all of
	// them, PastDue those whose jitFundingExpiresAt has passed at the
	// sheet's At, DueSoon those due within DueSoon of it; FirstDue is the
	// earliest due time not passed (zero when none).
	Owed, PastDue, DueSoon Sum
	FirstDue               time.Time
	// Funded is what the just-in-time payments in flight whose funds
	// arrived pay from this currency: owed no more, drawn from no account
	// here.
	Funded Sum
	// Credit is what the payments invoiced later pay from this currency.
	Credit Sum
	// Others are the payments of payins this build does not know, each
	// under its own name, by name.
	Others []Named
	// Available and Reserved are the prefunded balances (summed over
	// funding types) as the payments interface answered them;
	// HasBalance says the currency has one.
	Available, Reserved decimal.Decimal
	HasBalance          bool
	// Runway is the currency's runway (Runs false without one); Hours is
	// Drawn at the pace that drives it (Runway.By): the share of the
	// runway the prefunded payments in flight take. HasHours is false
	// without an outflow or a prefunded payment in flight.
	Runway   Runway
	Hours    decimal.Decimal
	HasHours bool
}

// Other is the sum of the payments of payin name (zero when none).
func (l Line) Other(name string) Sum {
	for _, o := range l.Others {
		if o.Name == name {
			return o.Sum
		}
	}
	return Sum{}
}

// Exposure is the exposure of every currency at one time.
type Exposure struct {
	// At is the time due times are judged at (the payments' read, on the
	// platform's clock).
	At time.Time
	// Lines: the prefunded currencies first, as the balances list them,
	// then the others by currency.
	Lines []Line
}

// BuildExposure sums the payments in flight of ps per currency and
// funding, beside the prefunded balances and the runway sheet, as of at.
func BuildExposure(ps iter.Seq[*payments.Payment], bal payments.Balances, sheet runway.Sheet, at time.Time) Exposure {
	out := Exposure{At: at}
	index := map[string]int{}
	line := func(cur string) *Line {
		i, ok := index[cur]
		if !ok {
			i = len(out.Lines)
			index[cur] = i
			out.Lines = append(out.Lines, Line{Currency: cur})
		}
		return &out.Lines[i]
	}
	for _, b := range bal.Balances {
		l := line(b.Currency)
		l.HasBalance = true
		l.Reserved = l.Reserved.Add(b.ReservedBalance.Decimal())
		l.Available = l.Available.Add(b.AvailableBalance.Decimal())
	}
	prefunded := len(out.Lines)
	for p := range ps {
		if !p.PaymentState.InFlight() {
			continue
		}
		o, d := p.Originator, p.Destination
		if d.DestinationCurrency != "" {
			line(d.DestinationCurrency).Out.Add(d.DestinationAmount.Decimal())
		}
		if o.SourceCurrency == "" {
			continue
		}
		l, amt := line(o.SourceCurrency), o.SourceAmount.Decimal()
		switch f := FundingOf(p); f.Class {
		case Prefunded:
			l.Drawn.Add(amt)
		case JustInTime:
			if !Owed(p) {
				l.Funded.Add(amt)
				continue
			}
			l.Owed.Add(amt)
			due := p.JITFundingExpiresAt
			switch {
			case due.IsZero():
			case PastDue(p, at):
				l.PastDue.Add(amt)
			default:
				if l.FirstDue.IsZero() || due.Before(l.FirstDue) {
					l.FirstDue = due
				}
				if !due.After(at.Add(DueSoon)) {
					l.DueSoon.Add(amt)
				}
			}
		case Credit:
			l.Credit.Add(amt)
		default:
			i := slices.IndexFunc(l.Others, func(n Named) bool { return n.Name == f.Payin })
			if i < 0 {
				i = len(l.Others)
				l.Others = append(l.Others, Named{Name: f.Payin})
			}
			l.Others[i].Add(amt)
		}
	}
	for i := range out.Lines {
		l := &out.Lines[i]
		if c, ok := sheet.Find(l.Currency); ok {
			l.Runway = RunwayOf(c)
			if l.Drawn.Count > 0 {
				l.Hours, l.HasHours = l.Runway.HoursOf(l.Drawn.Amount)
			}
		}
		slices.SortFunc(l.Others, func(a, b Named) int { return cmp.Compare(a.Name, b.Name) })
	}
	rest := out.Lines[prefunded:]
	slices.SortFunc(rest, func(a, b Line) int { return cmp.Compare(a.Currency, b.Currency) })
	return out
}

// Empty reports whether nothing is in flight.
func (e Exposure) Empty() bool {
	for _, l := range e.Lines {
		n := l.Out.Count + l.Drawn.Count + l.Owed.Count + l.Funded.Count + l.Credit.Count
		for _, o := range l.Others {
			n += o.Count
		}
		if n > 0 {
			return false
		}
	}
	return true
}

// Owing is the payments owed just in time (awaiting their funds) of ps,
// oldest due first (those without a due time last): the records
// behind every line's Owed, for a view of what the customer owes.
func Owing(ps iter.Seq[*payments.Payment]) []*payments.Payment {
	var out []*payments.Payment
	for p := range ps {
		if FundingOf(p).Class == JustInTime && Owed(p) {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b *payments.Payment) int {
		da, db := a.JITFundingExpiresAt, b.JITFundingExpiresAt
		switch {
		case da.IsZero() != db.IsZero():
			if da.IsZero() {
				return 1
			}
			return -1
		}
		return cmp.Or(da.Compare(db), cmp.Compare(a.PaymentID, b.PaymentID))
	})
	return out
}

// Cell is one figure of a record in data: its column's name (snake_case,
// the one style of every CSV header) and its value as data outputs write
// it.
type Cell struct{ Name, Value string }

// Data is the line's figures as data, a column per funding class, as the
// dashboard's CSV writes them and `treasury get exposure -o csv` names
// them: amounts at the currency's decimals, plain (MoneyData); counts;
// hours to a tenth; times RFC 3339 (Stamp); the runway as the screen
// writes it ("> 30 d"), its hours and end only under 30 days. A figure
// the currency has not is "".
func (l Line) Data() []Cell {
	c := l.Currency
	m := func(d decimal.Decimal) string { return MoneyData(d, c) }
	n := func(k int) string { return strconv.Itoa(k) }
	var avail, reserved, hours, rw, rwHours, by, empty string
	if l.HasBalance {
		avail, reserved = m(l.Available), m(l.Reserved)
	}
	if l.HasHours {
		hours = l.Hours.StringFixed(1)
	}
	if l.Runway.Currency != "" {
		rw = l.Runway.Text()
		if l.Runway.Runs {
			by = l.Runway.By
			if !l.Runway.Long {
				rwHours, empty = l.Runway.Hours.StringFixed(1), Stamp(l.Runway.Empty)
			}
		}
	}
	var other []string
	for _, o := range l.Others {
		other = append(other, o.Name+" "+m(o.Amount)+" ("+n(o.Count)+")")
	}
	return []Cell{
		{"currency", c}, {"available", avail}, {"reserved", reserved},
		{"pays_out", m(l.Out.Amount)}, {"pays_out_count", n(l.Out.Count)},
		{"prefunded", m(l.Drawn.Amount)}, {"prefunded_count", n(l.Drawn.Count)}, {"prefunded_hours", hours},
		{"owed_just_in_time", m(l.Owed.Amount)}, {"owed_just_in_time_count", n(l.Owed.Count)},
		{"past_due", m(l.PastDue.Amount)}, {"past_due_count", n(l.PastDue.Count)}, {"first_due", Stamp(l.FirstDue)},
		{"due_within_hour", m(l.DueSoon.Amount)}, {"due_within_hour_count", n(l.DueSoon.Count)},
		{"funded_just_in_time", m(l.Funded.Amount)}, {"funded_just_in_time_count", n(l.Funded.Count)},
		{"credit", m(l.Credit.Amount)}, {"credit_count", n(l.Credit.Count)}, {"other", strings.Join(other, "; ")},
		{"runway", rw}, {"runway_hours", rwHours}, {"runway_by", by}, {"empty_at", empty},
	}
}
