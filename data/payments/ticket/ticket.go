// Package ticket writes a payment as the plain-text summary a support
// engineer pastes into a ticket: who paid whom, how much, where it stands,
// the error and what to do about it, the tracking references the payout
// partner gave, and the timeline. The dashboard's Y copies it; `treasury
// get payment ID -o summary` prints it. The text is the records' own: the
// caller passes it through the sanitizer before a terminal.
package ticket

import (
	"fmt"
	"strings"
	"time"

	"treasury/data/money"
	"treasury/data/payments"
)

// Summary is what a ticket needs of one payment: the record (read by id,
// with its errors and payout details, when it could be), its state
// history (oldest first; nil when not read), and when and where it was read.
type Summary struct {
	Payment *payments.Payment
	History []payments.StateTransition
	// ReadAt is when the record was read, on the platform's clock.
	ReadAt time.Time
	// Source names where it was read (the profile and environment).
	Source string
}

// stamp writes a time in UTC to the second, dated.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") + " UTC" }

// amount writes an amount at its currency's decimals, grouped, with the
// currency after it.
func amount(n money.Number, currency string) string {
	return money.Format(n.Decimal, currency) + " " + currency
}

// Text is the summary in plain text, one fact per line, labels aligned.
func (s Summary) Text() string {
	p := s.Payment
	var b strings.Builder
	line := func(label, value string) {
		if value != "" {
			fmt.Fprintf(&b, "%-13s %s\n", label, value)
		}
	}
	name := func(nick, id string) string {
		switch {
		case nick != "" && id != "":
			return nick + " (" + id + ")"
		case nick != "":
			return nick
		}
		return id
	}
	o, d := p.Originator, p.Destination
	line("Payment", p.PaymentID)
	line("Internal id", o.InternalID)
	state := string(p.PaymentState)
	if !p.LastStateUpdatedAt.IsZero() {
		state += " since " + stamp(p.LastStateUpdatedAt)
	}
	line("State", state)
	if !p.InitiatedAt.IsZero() {
		line("Initiated", stamp(p.InitiatedAt))
	} else if !p.ExpiresAt.IsZero() {
		line("Quote expires", stamp(p.ExpiresAt))
	}
	line("Amount", amount(o.SourceAmount, o.SourceCurrency)+" → "+amount(d.DestinationAmount, d.DestinationCurrency))
	corridor := o.SourceCurrency + " → " + d.DestinationCurrency
	if d.DestinationCountry != "" {
		corridor += " (" + d.DestinationCountry + ")"
	}
	if d.DestinationBlockchainNetwork != "" {
		corridor += " on " + d.DestinationBlockchainNetwork
	}
	line("Corridor", corridor)
	if r, ok := p.AdjustedExchangeRate.Get(); ok {
		line("Rate used", r.AdjustedRate.Decimal.String())
	}
	for _, f := range p.Fees {
		line("Fee", amount(f.TotalFee, f.FeeCurrency))
	}
	line("Originator", name(o.OriginatorIdentityNickName, o.OriginatorIdentityID))
	line("Beneficiary", name(d.BeneficiaryIdentityNickName, d.BeneficiaryIdentityID))
	line("Instrument", d.BeneficiaryFinancialInstrumentID)
	if len(p.PaymentLabels) > 0 {
		line("Labels", strings.Join(p.PaymentLabels, ", "))
	}
	s.writeError(&b, line)
	s.writePayout(&b, line)
	s.writeTimeline(&b)
	read := ""
	if !s.ReadAt.IsZero() {
		read = stamp(s.ReadAt)
	}
	if s.Source != "" {
		read = strings.TrimSpace(read + " from " + s.Source)
	}
	line("Read", read)
	return b.String()
}

// writeError writes the payment's errors and, for a payment in a state
// that needs it, what to do.
func (s Summary) writeError(b *strings.Builder, line func(label, value string)) {
	p := s.Payment
	for _, e := range p.Errors {
		v := strings.TrimSpace(e.Code + " " + e.Title)
		if e.Description != "" && e.Description != e.Title {
			v += ": " + e.Description
		}
		line("Error", v)
	}
	switch {
	case p.PaymentState.Terminal():
		var pe payments.PaymentError
		if len(p.Errors) > 0 {
			pe = p.Errors[0]
		}
		a := payments.Advise(p.PaymentState, pe)
		line("Meaning", a.State)
		line("Retry", a.Retry)
		line("What to do", a.Todo)
	default:
		line("Meaning", payments.StateMeaning(p.PaymentState))
	}
}

// writePayout writes the payout partner's report: the rail and the
// tracking references a bank or a network asks for.
func (s Summary) writePayout(b *strings.Builder, line func(label, value string)) {
	p := s.Payment
	x, ok := p.PayoutExecutionDetails.Get()
	rail := string(x.PaymentRailUsed)
	if rail == "" && p.Destination.SelectedPaymentRail != "" {
		rail = p.Destination.SelectedPaymentRail + " (selected)"
	}
	line("Rail", rail)
	if ok && !x.PayoutStartTime.IsZero() {
		line("Payout start", stamp(x.PayoutStartTime))
	}
	shown := false
	for _, r := range x.TrackingReferences {
		v := string(r.Value)
		if r.Name() != string(r.ReferenceType) && r.ReferenceType != "" {
			v += " (" + string(r.ReferenceType) + ")"
		}
		line(r.Name(), v)
		shown = shown || string(r.Value) == p.CryptoTransactionHash
	}
	if p.CryptoTransactionHash != "" && !shown {
		line("Tx hash", p.CryptoTransactionHash)
	}
	if !ok && !p.Detailed {
		line("Tracking", "not read (the payment was not read by id)")
	}
}

// writeTimeline writes the state history, oldest first.
func (s Summary) writeTimeline(b *strings.Builder) {
	if s.History == nil {
		return
	}
	b.WriteString("Timeline\n")
	if len(s.History) == 0 {
		b.WriteString("  (no state change recorded)\n")
	}
	for _, t := range s.History {
		fmt.Fprintf(b, "  %s  %s → %s\n", stamp(t.UpdatedAt), t.UpdatedFrom, t.UpdatedTo)
	}
}
