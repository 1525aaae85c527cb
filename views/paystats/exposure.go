package paystats

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"treasury/data/live"
	"treasury/data/money"
	"treasury/data/payments"
	"treasury/data/runway"
)

// Exposure is what is committed per currency now: the payments in flight
// (initiated, not finished), by the currency they pay out in and by the
// currency they are paid from, against the prefunded balances (reserved
// and available) and the runway of each. It is built once per change of
// the payments, the balances or the runway, for every session.
type Exposure struct {
	Lines []ExposureLine // the prefunded currencies first, as the balances list them, then by currency
	// Payments, Balances and Runway say which inputs had answered, and
	// At is the payments' fetch: the lines are as old as the oldest.
	Payments, Balances, Runway bool
	At                         time.Time
	// outs and froms are the lines as short texts (Items), written once
	// per change for every session that shows them.
	outs, froms []string
}

// ExposureLine is one currency's exposure.
type ExposureLine struct {
	Currency string
	// Out is the destination amounts of the payments in flight paying out
	// in this currency, OutCount how many; In is the source amounts of
	// those paid from it (what the prefunded account still owes), InCount
	// how many.
	Out, In           decimal.Decimal
	OutCount, InCount int
	// Reserved and Available are the prefunded balances (summed over
	// funding types); Prefunded says the currency has one.
	Reserved, Available decimal.Decimal
	Prefunded           bool
	// InHours is In at the runway's weighted net outflow per hour: the
	// share of the runway the payments in flight take; HasHours is false
	// without an outflow.
	InHours  decimal.Decimal
	HasHours bool
}

// ExposureOf registers the exposure derivation over the payment set, the
// prefunded balances and the runway sheet rw (a zero key: no runway).
func ExposureOf(s *live.Store, rw live.Key[runway.Sheet]) live.Key[Exposure] {
	srcs := []live.Topic{live.Payments, live.PaymentBalances}
	if rw != (live.Key[runway.Sheet]{}) {
		srcs = append(srcs, rw.Topic())
	}
	return live.Combine(s, "exposure", func(_ Exposure, in live.Inputs) Exposure {
		ps, bal := live.Input(in, live.PaymentsKey), live.Input(in, live.PaymentBalancesKey)
		var sheet live.Snap[runway.Sheet]
		if rw != (live.Key[runway.Sheet]{}) {
			sheet = live.Input(in, rw)
		}
		e := BuildExposure(ps.Data, bal.Data, sheet.Data)
		e.Payments, e.Balances, e.Runway = ps.Loaded(), bal.Loaded(), sheet.Loaded()
		e.At = ps.FetchedAt
		return e
	}, live.CombineOptions[Exposure]{}, srcs...)
}

// BuildExposure sums the payments in flight of ps per currency beside the
// balances and the runway sheet.
func BuildExposure(ps *live.PaymentSet, bal payments.Balances, sheet runway.Sheet) Exposure {
	var out Exposure
	index := map[string]int{}
	line := func(cur string) *ExposureLine {
		i, ok := index[cur]
		if !ok {
			i = len(out.Lines)
			index[cur] = i
			out.Lines = append(out.Lines, ExposureLine{Currency: cur})
		}
		return &out.Lines[i]
	}
	for _, b := range bal.Balances {
		l := line(b.Currency)
		l.Prefunded = true
		l.Reserved = l.Reserved.Add(b.ReservedBalance.Decimal)
		l.Available = l.Available.Add(b.AvailableBalance.Decimal)
	}
	prefunded := len(out.Lines)
	if ps != nil {
		for i := range ps.Len() {
			p := ps.At(i)
			if !p.PaymentState.InFlight() {
				continue
			}
			o, d := p.Originator, p.Destination
			if d.DestinationCurrency != "" {
				l := line(d.DestinationCurrency)
				l.Out, l.OutCount = l.Out.Add(d.DestinationAmount.Decimal), l.OutCount+1
			}
			if o.SourceCurrency != "" {
				l := line(o.SourceCurrency)
				l.In, l.InCount = l.In.Add(o.SourceAmount.Decimal), l.InCount+1
			}
		}
	}
	for i := range out.Lines {
		l := &out.Lines[i]
		if c, ok := sheet.Find(l.Currency); ok && !c.NoOutflow && c.Outflow.IsPositive() {
			l.InHours, l.HasHours = l.In.Div(c.Outflow).Round(1), true
		}
	}
	rest := out.Lines[prefunded:]
	slices.SortFunc(rest, func(a, b ExposureLine) int { return cmp.Compare(a.Currency, b.Currency) })
	out.outs, out.froms = out.items()
	return out
}

// Items are the exposure as short texts, for a line or two (written when
// the exposure is built): what is paid
// out per currency ("MXN 2,062,596.35 (39)") and what is paid from each
// prefunded currency, of its balance, in hours of its outflow ("USD
// 262,166.38 of 478,934.27 = 5.0 h of outflow"). The texts are the
// records' own: the caller sanitizes them.
func (e Exposure) Items() (outs, froms []string) { return e.outs, e.froms }

func (e Exposure) items() (outs, froms []string) {
	for _, l := range e.Lines {
		if l.OutCount > 0 {
			outs = append(outs, l.Currency+" "+amount(l.Out, l.Currency)+" ("+strconv.Itoa(l.OutCount)+")")
		}
		if l.InCount > 0 || l.Prefunded && l.Reserved.IsPositive() {
			f := l.Currency + " " + amount(l.In, l.Currency)
			if l.Prefunded {
				f += " of " + amount(l.Reserved.Add(l.Available), l.Currency)
			}
			if l.HasHours {
				f += " = " + l.InHours.StringFixed(1) + " h of outflow"
			}
			froms = append(froms, f)
		}
	}
	return outs, froms
}

// amount is an amount at its currency's decimals, grouped.
func amount(d decimal.Decimal, currency string) string { return money.Format(d, currency) }
