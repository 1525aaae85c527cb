// Package exposure says what the payments in flight commit per currency,
// by how each is funded: what they pay out, what the prefunded ones draw
// from the prefunded account (against its available balance, the figure
// the Balances view and the overview show under that name), and, apart
// from it, what the just-in-time funded ones are owed by the customer and
// by when.
//
// Funding is the originator's payin (the vendor's document: "Details
// about how this payment is funded"; its values are the quote's
// payinCategory): PRE_FUNDING and FUNDED draw the prefunded account;
// JIT_FUNDING is paid by the customer before jitFundingExpiresAt, and is
// owed while the payment is AWAITING_FUNDING (once past it, it was
// funded); CREDIT_FUNDING and T_PLUS_ONE are invoiced later. A payment
// whose payin is empty is taken as prefunded (the document's default,
// FUNDED, and what a server that does not say it means); a value this
// build does not know is counted apart, as funded otherwise, and named.
//
// Amounts stay decimals; the hours of outflow are the prefunded draw over
// the runway's weighted outflow (data/runway), to a tenth.
package exposure

import (
	"cmp"
	"iter"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"treasury/data/payments"
	"treasury/data/runway"
)

// Funding is how a payment is funded.
type Funding int

// Fundings.
const (
	Prefunded  Funding = iota // PRE_FUNDING, FUNDED, or not said
	JustInTime                // JIT_FUNDING
	Credit                    // CREDIT_FUNDING, T_PLUS_ONE: invoiced
	Other                     // a payin this build does not know
)

// Payin values of the vendor's document.
const (
	PayinPrefunding = "PRE_FUNDING"
	PayinFunded     = "FUNDED"
	PayinJIT        = "JIT_FUNDING"
	PayinCredit     = "CREDIT_FUNDING"
	PayinTPlusOne   = "T_PLUS_ONE"
)

// FundingOf is how p is funded, from its originator's payin.
func FundingOf(p *payments.Payment) Funding {
	switch p.Originator.Payin {
	case "", PayinPrefunding, PayinFunded:
		return Prefunded
	case PayinJIT:
		return JustInTime
	case PayinCredit, PayinTPlusOne:
		return Credit
	}
	return Other
}

// DueSoon is the span ahead in which a just-in-time amount is "due soon".
const DueSoon = time.Hour

// Line is one currency's exposure.
type Line struct {
	Currency string
	// Out is what the payments in flight pay out in this currency
	// (destination amounts), OutCount how many.
	Out      decimal.Decimal
	OutCount int
	// Drawn is what the prefunded payments in flight paid from this
	// currency draw from its prefunded account (source amounts),
	// DrawnCount how many.
	Drawn      decimal.Decimal
	DrawnCount int
	// Owed is what the just-in-time payments awaiting funding are owed in
	// this currency, OwedCount how many; FirstDue the earliest of their
	// jitFundingExpiresAt (zero when none says one), DueSoon and
	// DueSoonCount what is due within DueSoon of the sheet's At.
	Owed         decimal.Decimal
	OwedCount    int
	FirstDue     time.Time
	DueSoon      decimal.Decimal
	DueSoonCount int
	// Funded is what the payments funded otherwise (invoiced, or a payin
	// this build does not know: Payins names them) pay from this
	// currency, FundedCount how many.
	Funded      decimal.Decimal
	FundedCount int
	Payins      []string
	// Available and Reserved are the prefunded balances (summed over
	// funding types) as the payments interface answered them;
	// HasBalance says the currency has one.
	Available, Reserved decimal.Decimal
	HasBalance          bool
	// Hours is Drawn at the runway's weighted net outflow per hour: the
	// share of the runway the prefunded payments in flight take;
	// HasHours is false without an outflow.
	Hours    decimal.Decimal
	HasHours bool
}

// Sheet is the exposure of every currency at one time.
type Sheet struct {
	// At is the time the due-soon amounts are counted from (the
	// payments' read, on the platform's clock).
	At time.Time
	// Lines: the prefunded currencies first, as the balances list them,
	// then the others by currency.
	Lines []Line
}

// Build sums the payments in flight of ps per currency and funding, beside
// the prefunded balances and the runway sheet, as of at.
func Build(ps iter.Seq[*payments.Payment], bal payments.Balances, sheet runway.Sheet, at time.Time) Sheet {
	out := Sheet{At: at}
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
			l := line(d.DestinationCurrency)
			l.Out, l.OutCount = l.Out.Add(d.DestinationAmount.Decimal()), l.OutCount+1
		}
		if o.SourceCurrency == "" {
			continue
		}
		l, amt := line(o.SourceCurrency), o.SourceAmount.Decimal()
		switch FundingOf(p) {
		case Prefunded:
			l.Drawn, l.DrawnCount = l.Drawn.Add(amt), l.DrawnCount+1
		case JustInTime:
			if p.PaymentState != payments.AwaitingFunding {
				continue // funded: owed no more, drawn from nothing here
			}
			l.Owed, l.OwedCount = l.Owed.Add(amt), l.OwedCount+1
			if due := p.JITFundingExpiresAt; !due.IsZero() {
				if l.FirstDue.IsZero() || due.Before(l.FirstDue) {
					l.FirstDue = due
				}
				if !due.After(at.Add(DueSoon)) {
					l.DueSoon, l.DueSoonCount = l.DueSoon.Add(amt), l.DueSoonCount+1
				}
			}
		default:
			l.Funded, l.FundedCount = l.Funded.Add(amt), l.FundedCount+1
			if pi := cmp.Or(o.Payin, "?"); !slices.Contains(l.Payins, pi) {
				l.Payins = append(l.Payins, pi)
			}
		}
	}
	for i := range out.Lines {
		l := &out.Lines[i]
		if c, ok := sheet.Find(l.Currency); ok && !c.NoOutflow && c.Outflow.IsPositive() {
			l.Hours, l.HasHours = l.Drawn.Div(c.Outflow).Round(1), true
		}
		slices.Sort(l.Payins)
	}
	rest := out.Lines[prefunded:]
	slices.SortFunc(rest, func(a, b Line) int { return cmp.Compare(a.Currency, b.Currency) })
	return out
}

// Empty reports whether nothing is in flight.
func (s Sheet) Empty() bool {
	for _, l := range s.Lines {
		if l.OutCount+l.DrawnCount+l.OwedCount+l.FundedCount > 0 {
			return false
		}
	}
	return true
}
