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

	"treasury/figures"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// Summary is what a ticket needs of one payment: the record (read by id,
// with its errors and payout details, when it could be), its state
// history (oldest first; nil when not read), its ledger trail (nil when
// not read) and when and where it was read.
type Summary struct {
	Payment *payments.Payment
	History []payments.StateTransition
	// Trail is the payment's lines of the prefunded ledger and whether
	// its funds came back (figures.TrailOf); nil when the ledger was not
	// read (Unread says why).
	Trail *figures.Trail
	// ReadAt is when the record was read, on the platform's clock.
	ReadAt time.Time
	// Source names where it was read (the profile and environment).
	Source string
	// Unread says what could not be read and why ("its errors and payout
	// details: …", "its timeline: …"), one entry each.
	Unread []string
}

// stamp writes a time in UTC to the second, dated.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") + " UTC" }

// amount writes an amount at its currency's decimals, grouped, with the
// currency after it.
func amount(n money.Number, currency string) string {
	return money.Format(n.Decimal(), currency) + " " + currency
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
		line("Rate used", "1 "+o.SourceCurrency+" = "+r.AdjustedRate.Decimal().String()+" "+d.DestinationCurrency)
	}
	for _, f := range p.Fees {
		line("Fee", amount(f.TotalFee, f.FeeCurrency))
	}
	for _, x := range p.Taxes {
		line("Tax", amount(x.TotalTaxes, x.TaxCurrency))
	}
	if !p.Detailed && len(p.Fees) == 0 && len(p.Taxes) == 0 {
		line("Fees, taxes", "not read (the payment was not read by id)")
	}
	line("Funding", figures.FundingWords(p, s.ReadAt, stamp))
	line("Originator", name(o.OriginatorIdentityNickName, o.OriginatorIdentityID))
	line("Beneficiary", name(d.BeneficiaryIdentityNickName, d.BeneficiaryIdentityID))
	line("Instrument", d.BeneficiaryFinancialInstrumentID)
	if len(p.PaymentLabels) > 0 {
		line("Labels", strings.Join(p.PaymentLabels, ", "))
	}
	s.writeError(&b, line)
	s.writePayout(&b, line)
	s.writeTrail(&b, line)
	s.writeTimeline(&b)
	for _, u := range s.Unread {
		line("Not read", u)
	}
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

// writeError writes the payment's errors, each with its time, and one
// retry verdict (figures.Verdict) with why when they disagree; for a
// payment in flight, what its state means.
func (s Summary) writeError(b *strings.Builder, line func(label, value string)) {
	p := s.Payment
	for _, e := range p.Errors {
		v := strings.TrimSpace(e.Code + " " + e.Title)
		if e.Description != "" && e.Description != e.Title {
			v += ": " + e.Description
		}
		if at := errorTime(e.Timestamp); at != "" {
			v += " (at " + at + ")"
		}
		line("Error", v)
	}
	if len(p.Errors) == 0 && p.PaymentState.FailedTerminal() && !p.Detailed {
		line("Error", "not read (the payment was not read by id)")
	}
	if !p.PaymentState.Terminal() {
		line("Meaning", payments.StateMeaning(p.PaymentState))
		return
	}
	a := figures.VerdictOf(p)
	line("Meaning", a.State)
	line("Retry", a.Retry)
	line("Why", a.Why)
	line("What to do", a.Todo)
}

// errorTime is an error's timestamp as every time of the summary is
// written; one that is not an RFC 3339 time as received.
func errorTime(ts string) string {
	ts = strings.TrimSpace(ts)
	if at, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		return stamp(at)
	}
	return ts
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

// writeTrail says whether the funds came back (figures.Trail.Words) and
// lists the payment's ledger lines as the ledger holds them: time,
// operation, amount, the available balance before and after, and how a
// line without a reference was tied to it.
func (s Summary) writeTrail(b *strings.Builder, line func(label, value string)) {
	t := s.Trail
	if t == nil {
		return
	}
	line("Funds", t.Words(stamp))
	if len(t.Lines) == 0 {
		return
	}
	b.WriteString("Ledger\n")
	for _, l := range t.Lines {
		tx := l.Tx
		fmt.Fprintf(b, "  %s  %-7s %s  available %s → %s", stamp(tx.CreatedDttm), tx.Operation, amount(tx.Amount, tx.Currency),
			money.Format(tx.AvailableBalanceBefore.Decimal(), tx.Currency), money.Format(tx.AvailableBalanceAfter.Decimal(), tx.Currency))
		if tx.Status != "" && tx.Status != payments.TxnSuccess {
			fmt.Fprintf(b, "  %s", tx.Status)
		}
		if l.Tie.ByAmount {
			b.WriteString("  (no txnReference: tied by amount and time)")
		}
		b.WriteString("\n")
	}
}
