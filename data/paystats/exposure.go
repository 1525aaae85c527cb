package paystats

import (
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/data/apierr"
	"treasury/data/exposure"
	"treasury/data/live"
	"treasury/data/money"
	"treasury/data/payments"
	"treasury/data/runway"
)

// Exposure is what the payments in flight commit now, per currency and by
// funding (data/exposure), with the texts the views show of it. It is
// built once per change of the payments, the balances or the runway, for
// every session.
type Exposure struct {
	exposure.Sheet
	// Payments, Balances and Runway say which inputs had answered; the
	// sheet's At is the payments' fetch: the lines are as old as the
	// oldest input.
	Payments, Balances, Runway bool
	// texts are the lines as short texts (Items), written once per
	// change for every session that shows them.
	texts Items
}

// Items are the exposure as short texts, each "CUR amount (count) …": the
// records' own currency codes, which the caller sanitizes.
type Items struct {
	// Out: what is paid out per currency ("MXN 2,062,596.35 (39)").
	Out []string
	// Drawn: what the prefunded payments draw from each prefunded
	// currency, of its available balance, and in hours of its weighted
	// outflow ("USD 9,201.57 (1) of available 1,809,411.27, 0.7 h").
	Drawn []string
	// Owed: what the just-in-time payments awaiting their funds are owed
	// per currency ("USD 332,666.71 (27)"), then when the first is due
	// ("first due 14:05 UTC (USD)") and what is due within the hour ("due
	// within the hour: USD 120,000.00 (4)"). Per currency, each line of
	// the sheet has its own first due time.
	Owed []string
	// Otherwise: what payments funded otherwise (invoiced) pay from a
	// currency, with their payin ("EUR 5,000.00 (2) funded
	// CREDIT_FUNDING").
	Otherwise []string
}

// Group is items under a label.
type Group struct {
	Label string
	Items []string
}

// Groups are the items under their labels, in the order shown: what is
// paid out (out), drawn from the prefunded accounts (from), owed just in
// time (owed) and funded otherwise (else); a label without items is left
// out.
func (it Items) Groups() []Group {
	var out []Group
	for _, g := range []Group{{"out", it.Out}, {"from", it.Drawn}, {"owed", it.Owed}, {"else", it.Otherwise}} {
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
	e := Exposure{Sheet: exposure.Build(all(ps), bal, sheet, at)}
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
		if l.OutCount > 0 {
			it.Out = append(it.Out, c+" "+counted(l.Out, l.OutCount, c))
		}
		if l.DrawnCount > 0 || l.HasBalance && l.Reserved.IsPositive() {
			f := c + " " + counted(l.Drawn, l.DrawnCount, c)
			if l.HasBalance {
				f += " of available " + amount(l.Available, c)
			}
			if l.HasHours {
				f += ", " + l.Hours.StringFixed(1) + " h"
			}
			it.Drawn = append(it.Drawn, f)
		}
		if l.OwedCount > 0 {
			it.Owed = append(it.Owed, c+" "+counted(l.Owed, l.OwedCount, c))
			if !l.FirstDue.IsZero() && (first.IsZero() || l.FirstDue.Before(first)) {
				first, firstCur = l.FirstDue, c
			}
			if l.DueSoonCount > 0 {
				soon = append(soon, c+" "+counted(l.DueSoon, l.DueSoonCount, c))
			}
		}
		if l.FundedCount > 0 {
			it.Otherwise = append(it.Otherwise, c+" "+counted(l.Funded, l.FundedCount, c)+" funded "+strings.Join(l.Payins, ", "))
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

// counted is an amount and how many payments make it: "1,234.50 (3)".
func counted(d decimal.Decimal, n int, currency string) string {
	return amount(d, currency) + " (" + strconv.Itoa(n) + ")"
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

// amount is an amount at its currency's decimals, grouped.
func amount(d decimal.Decimal, currency string) string { return money.Format(d, currency) }
