package columns

import (
	"time"

	"treasury/figures"
	"treasury/wire/payments"
)

// ExpiredMark follows the state of a QUOTED payment whose quote expired
// (its expiresAt passed on the platform's clock): it will never be
// initiated.
const ExpiredMark = " (expired)"

// NotYet is the cell of a field a partial record does not know yet (a
// payment known only from a webhook notification, being read in full):
// not a blank, which would say the field is empty.
const NotYet = "…"

// Payments are a payment's short columns, sized to the payments held (up
// to the widest values the document defines: a state such as
// AWAITING_FUNDING, a 5-letter currency such as RLUSD in the amounts and
// the corridor). As a table narrows the least useful give way first: the
// time of the last change, then the internal id, the payout, the name;
// the state, the payment id and the error code stay, even at 80 columns.
// Times are UTC; at.Now is the platform's time (a quote expired, a time
// of today).
func Payments() Set[*payments.Payment] {
	return Set[*payments.Payment]{
		{Title: "Initiated", Width: len("01-02 15:04"), Priority: 7,
			Text: func(p *payments.Payment, _ At) string { return TimeAs(p.InitiatedAt, "01-02 15:04") },
			Sort: func(p *payments.Payment) Sort { return Time(p.When()) }},
		{Title: "Payment id", Width: 9, Max: 36, Flex: 3, Priority: 10,
			Text: func(p *payments.Payment, _ At) string { return p.PaymentID }},
		{Title: "Internal id", Max: 24, Priority: 3,
			Text: func(p *payments.Payment, _ At) string { return partial(p, p.InternalID()) }}, // "—" for a quote not initiated
		{Title: "State", Max: max(payments.StateWidth, len(payments.Quoted)+len(ExpiredMark)), Priority: 11,
			Text: func(p *payments.Payment, at At) string { return PaymentState(p, at.Now) }},
		{Title: "Error", Max: 12, Priority: 9,
			Text: func(p *payments.Payment, _ At) string { return figures.ErrorCodes(p) }},
		{Title: "Retry", Max: len("UNKNOWN"), Priority: 2,
			Text: func(p *payments.Payment, _ At) string { return figures.RetryOf(p).Word() }},
		{Title: "Sent", Max: 24, Align: Right, Priority: 8,
			Text: func(p *payments.Payment, _ At) string {
				return Amount(p.Originator.SourceAmount.Decimal(), p.Originator.SourceCurrency)
			},
			Sort: func(p *payments.Payment) Sort { return Decimal(p.Originator.SourceAmount.Decimal()) }},
		{Title: "Corridor", Max: 2*payments.CurrencyWidth + 4, Priority: 6,
			Text: func(p *payments.Payment, _ At) string { return Corridor(p) }},
		{Title: "Since", Max: len("01-02 15:04"), Priority: 1,
			Text: func(p *payments.Payment, at At) string { return since(p.LastStateUpdatedAt, at.Now) },
			Sort: func(p *payments.Payment) Sort { return Time(p.LastStateUpdatedAt) }},
		{Title: "Payout", Max: 24, Align: Right, Priority: 4,
			Text: func(p *payments.Payment, _ At) string {
				return Amount(p.Destination.DestinationAmount.Decimal(), p.Destination.DestinationCurrency)
			},
			Sort: func(p *payments.Payment) Sort { return Decimal(p.Destination.DestinationAmount.Decimal()) }},
		{Title: "Beneficiary", Max: 32, Flex: 1, Priority: 5,
			Text: func(p *payments.Payment, _ At) string { return partial(p, p.Destination.BeneficiaryIdentityNickName) }},
	}
}

// partial is s, or NotYet for a partial record.
func partial(p *payments.Payment, s string) string {
	if p.Partial {
		return NotYet
	}
	return s
}

// PaymentState is the payment's state, marked expired for a quote whose
// time has passed at now.
func PaymentState(p *payments.Payment, now time.Time) string {
	s := string(p.PaymentState)
	if p.QuoteExpired(now) {
		s += ExpiredMark
	}
	return s
}

// Corridor is "GBP→EUR FR": source and destination currencies and the
// destination country ("GBP→EUR …" while a partial record does not know
// the country yet).
func Corridor(p *payments.Payment) string {
	s := p.Originator.SourceCurrency + "→" + p.Destination.DestinationCurrency
	switch c := p.Destination.DestinationCountry; {
	case p.Partial:
		s += " " + NotYet
	case c != "":
		s += " " + c
	}
	return s
}

// since is the time of day in UTC of a time of now's day, else its date
// and time: "15:13" today, "11-23 15:13" before (the Initiated column's
// form).
func since(t, now time.Time) string {
	switch {
	case t.IsZero():
		return "—"
	case t.Unix()/86400 == now.Unix()/86400:
		return t.UTC().Format("15:04")
	}
	return t.UTC().Format("01-02 15:04")
}
