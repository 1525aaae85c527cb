package platform

import (
	"time"

	"treasury/desk/live"
	"treasury/figures"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Alert codes of the payments owed just in time.
const (
	// CodeJITPastDue: a payment's jitFundingExpiresAt passed and its
	// funds have not come (HIGH).
	CodeJITPastDue = "JIT_PAST_DUE"
	// CodeJITDueSoon: a payment's funds are due within figures.DueSoon
	// and have not come (MEDIUM).
	CodeJITDueSoon = "JIT_DUE_SOON"
)

// owedAlerts raise an alert per payment owed just in time (figures.Owed)
// whose due time has passed (HIGH) or comes within figures.DueSoon
// (MEDIUM), naming the payment, its amount and its due time, at now (the
// platform's time). One key per payment: one that passes its due time is
// the same alert, raised; one funded (it moves on) closes it.
func owedAlerts(ps *live.PaymentSet, now time.Time) []live.Alert {
	if ps == nil || ps.CountByState()[payments.AwaitingFunding] == 0 {
		return nil
	}
	var out []live.Alert
	for i := range ps.Len() {
		p := ps.At(i)
		due := p.JITFundingExpiresAt
		if !figures.Owed(p) || due.IsZero() || due.After(now.Add(figures.DueSoon)) {
			continue
		}
		o := p.Originator
		who := o.OriginatorIdentityNickName
		if who == "" {
			who = o.OriginatorIdentityID
		}
		if who != "" {
			who = " by " + who
		}
		what := "payment " + p.PaymentID + " owed " + figures.Money(o.SourceAmount.Decimal(), o.SourceCurrency) + " " + o.SourceCurrency + who
		a := live.Alert{Key: "jit-due:" + p.PaymentID, Interface: apierr.Payments, Topic: live.Payments, Ref: p.PaymentID,
			Since: now, Last: now, Count: 1, Due: due}
		if figures.PastDue(p, now) {
			a.Severity, a.Code, a.Since = live.High, CodeJITPastDue, due
			a.Title = what + ": its just-in-time funds were due by " + figures.Stamp(due) + " and have not come"
			a.Guidance = "The originator has not funded it: ask them for the funds (its internalId is their reference) or expect the platform to decline it. " +
				":payments owed lists every payment owed, the first due first."
		} else {
			a.Severity, a.Code = live.Medium, CodeJITDueSoon
			a.Title = what + ": its just-in-time funds are due by " + figures.Stamp(due) + ", within the hour"
			a.Guidance = "Its funds have not come yet: remind the originator before " + figures.Stamp(due) + ". :payments owed lists every payment owed."
		}
		out = append(out, a)
	}
	return out
}
