package paystats

import (
	"iter"
	"slices"
	"strconv"
	"strings"
	"time"

	"treasury/desk/live"
	"treasury/figures"
	"treasury/figures/runway"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Exposure is what the payments in flight commit now, per currency and by
// funding class (figures.BuildExposure), with the texts the views show of
// it. It is built once per change of the payments, the balances or the
// runway, for every session.
type Exposure struct {
	figures.Exposure
	// Payments, Balances and Runway say which inputs had answered; the
	// sheet's At is the payments' fetch: the lines are as old as the
	// oldest input.
	Payments, Balances, Runway bool
	// Owing are the payments owed just in time, the first due first
	// (figures.Owing): the records behind the lines' Owed, which the
	// funding planner weighs against a top-up's arrival.
	Owing []*payments.Payment
	// texts are the lines as short texts (Items), written once per
	// change for every session that shows them.
	texts Items
}

// Items are the exposure as short texts, each "CUR amount (count) …": the
// records' own currency codes and payins, which the caller sanitizes. Each
// funding class has its own: no payment in flight is left out.
type Items struct {
	// Out: what is paid out per currency ("MXN 2,062,596.35 (39)").
	Out []string
	// Drawn: what the prefunded payments draw from each prefunded
	// currency, of its available balance, and in hours at the pace that
	// drives its runway ("USD 9,201.57 (1) of available 1,809,411.27,
	// 0.7 h"; "…, 0.7 h 15m" when the last 15 minutes' pace drives it).
	Drawn []string
	// Owed: what the just-in-time payments awaiting their funds are owed
	// per currency, with how many are past their due time ("USD
	// 332,666.71 (27, 3 past due)"), then when the next is due ("first
	// due 14:05 UTC (USD)") and what is due within the hour ("due within
	// the hour: USD 120,000.00 (4)").
	Owed []string
	// Funded: what the just-in-time payments whose funds arrived pay from
	// a currency ("USD 777.00 (1) JIT funded").
	Funded []string
	// Credit: what the payments invoiced later pay ("EUR 5,000.00 (2)
	// credit").
	Credit []string
	// Other: what payments of a payin this build does not know pay, under
	// that payin ("EUR 5.00 (1) payin NEW_FUNDING").
	Other []string
}

// Group is items under a label.
type Group struct {
	Label string
	Items []string
}

// Groups are the items under their labels, in the order shown: what is
// paid out (out), drawn from the prefunded accounts (from), owed just in
// time (owed), and funded otherwise (else: funded just in time, credit,
// other payins, each item naming its class); a label without items is
// left out.
func (it Items) Groups() []Group {
	var out []Group
	for _, g := range []Group{{"out", it.Out}, {"from", it.Drawn}, {"owed", it.Owed},
		{"else", slices.Concat(it.Funded, it.Credit, it.Other)}} {
		if len(g.Items) > 0 {
			out = append(out, g)
		}
	}
	return out
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
		at := ps.FetchedAt
		if !at.IsZero() {
			at = s.PlatformTime(apierr.Payments, at)
		}
		e := BuildExposure(ps.Data, bal.Data, sheet.Data, at)
		e.Payments, e.Balances, e.Runway = ps.Loaded(), bal.Loaded(), sheet.Loaded()
		return e
	}, live.CombineOptions[Exposure]{}, srcs...)
}

// BuildExposure sums the payments in flight of ps per currency and funding
// beside the balances and the runway sheet, as of at.
func BuildExposure(ps *live.PaymentSet, bal payments.Balances, sheet runway.Sheet, at time.Time) Exposure {
	e := Exposure{Exposure: figures.BuildExposure(all(ps), bal, sheet, at), Owing: figures.Owing(all(ps))}
	e.texts = e.items()
	return e
}

// all is every payment of ps.
func all(ps *live.PaymentSet) iter.Seq[*payments.Payment] {
	return func(yield func(*payments.Payment) bool) {
		if ps == nil {
			return
		}
		for i := range ps.Len() {
			if !yield(ps.At(i)) {
				return
			}
		}
	}
}

// Items are the exposure as short texts, written when it was built.
func (e Exposure) Items() Items { return e.texts }

func (e Exposure) items() Items {
	var it Items
	var first time.Time
	var firstCur string
	var soon []string
	for _, l := range e.Lines {
		c := l.Currency
		if l.Out.Count > 0 {
			it.Out = append(it.Out, c+" "+counted(l.Out, c))
		}
		if l.Drawn.Count > 0 || l.HasBalance && l.Reserved.IsPositive() {
			f := c + " " + counted(l.Drawn, c)
			if l.HasBalance {
				f += " of available " + figures.Money(l.Available, c)
			}
			if l.HasHours {
				f += ", " + figures.Hours(l.Hours)
				if l.Runway.By == figures.ByBurn {
					f += " " + figures.ByBurn
				}
			}
			it.Drawn = append(it.Drawn, f)
		}
		if l.Owed.Count > 0 {
			f := c + " " + figures.Money(l.Owed.Amount, c) + " (" + strconv.Itoa(l.Owed.Count)
			if l.PastDue.Count > 0 {
				f += ", " + strconv.Itoa(l.PastDue.Count) + " past due"
			}
			it.Owed = append(it.Owed, f+")")
			if !l.FirstDue.IsZero() && (first.IsZero() || l.FirstDue.Before(first)) {
				first, firstCur = l.FirstDue, c
			}
			if l.DueSoon.Count > 0 {
				soon = append(soon, c+" "+counted(l.DueSoon, c))
			}
		}
		if l.Funded.Count > 0 {
			it.Funded = append(it.Funded, c+" "+counted(l.Funded, c)+" JIT funded")
		}
		if l.Credit.Count > 0 {
			it.Credit = append(it.Credit, c+" "+counted(l.Credit, c)+" credit")
		}
		for _, o := range l.Others {
			it.Other = append(it.Other, c+" "+counted(o.Sum, c)+" payin "+o.Name)
		}
	}
	if !first.IsZero() {
		it.Owed = append(it.Owed, "first due "+due(first, e.At)+" ("+firstCur+")")
	}
	if len(soon) > 0 {
		it.Owed = append(it.Owed, "due within the hour: "+strings.Join(soon, ", "))
	}
	return it
}

// counted is a sum and how many payments make it: "1,234.50 (3)".
func counted(s figures.Sum, currency string) string {
	return figures.Money(s.Amount, currency) + " (" + strconv.Itoa(s.Count) + ")"
}

// due is a due time in UTC: "14:05 UTC" on at's day, else with its date.
func due(t, at time.Time) string {
	t = t.UTC()
	if y, m, d := t.Date(); !at.IsZero() {
		if ay, am, ad := at.UTC().Date(); y == ay && m == am && d == ad {
			return t.Format("15:04 UTC")
		}
	}
	return t.Format("2006-01-02 15:04 UTC")
}
