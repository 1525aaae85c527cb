package platform

import (
	"slices"
	"time"

	"treasury/desk/live"
	"treasury/kit/words"
	"treasury/wire/apierr"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
)

// Sustained declines (spec 7.1 rule 4, USR_062 to USR_067): this many
// payments declined within DeclineWindow raise a medium alert.
const (
	DeclineThreshold = 5
	DeclineWindow    = 15 * time.Minute
)

// quoteSamples charts each pair's mid rate at every quote fetched (not
// the whole window held, again at each poll).
func quoteSamples(qs, _ []liquidity.Quote) []live.Sample {
	out := make([]live.Sample, 0, len(qs))
	for i := len(qs) - 1; i >= 0; i-- { // oldest first
		x := qs[i]
		f, _ := x.Mid().Float64()
		out = append(out, live.Sample{Series: live.SeriesRate + x.Pair(), At: x.CreatedAt, Value: f})
	}
	return out
}

func liquidityBalanceSamples(_, bs []liquidity.Balance) []live.Sample {
	out := make([]live.Sample, 0, len(bs))
	for _, b := range bs {
		f, _ := b.Available.Float64()
		at := b.UpdatedAt
		out = append(out, live.Sample{Series: live.SeriesLiquidityBalance + b.Asset, At: at, Value: f})
	}
	return out
}

func paymentBalanceSamples(_, bs payments.Balances) []live.Sample {
	out := make([]live.Sample, 0, len(bs.Balances))
	for _, b := range bs.Balances {
		f, _ := b.AvailableBalance.Float64()
		out = append(out, live.Sample{Series: live.SeriesPaymentsBalance + b.Currency, At: bs.Timestamp, Value: f})
	}
	return out
}

// FailureWindow is how far back failed payments raise the failures alert.
const FailureWindow = time.Hour

// alertNeeds says whether the alerts need p's reason read by id: a
// payment that failed, was declined or returned within FailureWindow of
// now (the failures alert points at its newest, the declines alert counts
// those of DeclineWindow by their codes). Older failures are read when a
// session shows them (live.Store.WantDetails).
func alertNeeds(p *payments.Payment, now time.Time) bool {
	return p.PaymentState.FailedTerminal() && !p.LastStateUpdatedAt.Before(now.Add(-max(FailureWindow, DeclineWindow)))
}

// judgePayments are the payments feed's data alerts: paymentAlerts, the
// payments owed just in time past or near their due time (owedAlerts)
// and the failure rate, with the thresholds in effect.
func (p *Platform) judgePayments(ps *live.PaymentSet, now time.Time) []live.Alert {
	out := append(paymentAlerts(ps, now), owedAlerts(ps, now)...)
	if a, ok := failureRate(ps, p.Alerts().FailureRate, now); ok {
		out = append(out, a)
	}
	return out
}

// paymentAlerts are the payments feed's data alerts: sustained declines
// and recent failures, each pointing at the newest such payment so that
// the alerts view opens its error and guidance in one key.
func paymentAlerts(ps *live.PaymentSet, now time.Time) []live.Alert {
	out := declineAlerts(ps, now)
	var newest *payments.Payment
	n := 0
	cut := now.Add(-FailureWindow)
	for i := ps.Len() - 1; i >= 0; i-- {
		p := ps.At(i)
		if p.PaymentState == payments.Failed && !p.LastStateUpdatedAt.Before(cut) {
			n++
			if newest == nil || p.LastStateUpdatedAt.After(newest.LastStateUpdatedAt) {
				newest = p
			}
		}
	}
	if n == 0 {
		return out
	}
	return append(out, live.Alert{
		Key: "failures", Severity: live.Low, Code: "FAILED",
		Title:    words.Count(n, "payment") + " failed in the last hour; newest " + newest.PaymentID,
		Guidance: "Open the payment for its error code and what to do.",
		Since:    newest.LastStateUpdatedAt, Last: newest.LastStateUpdatedAt, Count: n,
		Topic: live.Payments, Ref: newest.PaymentID,
	})
}

// declineAlerts raises one medium alert while payments keep being
// declined (USR_062 to USR_067: the receiving side refuses them), pointing
// at the newest one.
func declineAlerts(ps *live.PaymentSet, now time.Time) []live.Alert {
	var recent []*payments.Payment
	unread := 0
	cut := now.Add(-DeclineWindow)
	for i := ps.Len() - 1; i >= 0; i-- {
		p := ps.At(i)
		if p.PaymentState != payments.Declined || p.LastStateUpdatedAt.Before(cut) {
			continue
		}
		switch {
		case resolvable(p):
			recent = append(recent, p)
		case len(p.Errors) == 0 && !p.Detailed:
			unread++ // its reason is being read (GET /v3/payments/{id})
		}
	}
	if len(recent) < DeclineThreshold {
		return nil
	}
	byTime := func(a, b *payments.Payment) int { return a.LastStateUpdatedAt.Compare(b.LastStateUpdatedAt) }
	newest, oldest := slices.MaxFunc(recent, byTime), slices.MinFunc(recent, byTime)
	title := words.Count(len(recent), "payment") + " declined in the last " + words.Count(int(DeclineWindow.Minutes()), "minute")
	if unread > 0 {
		title += " (the reasons of " + words.Count(unread, "more decline") + " are still being read)"
	}
	return []live.Alert{{
		Key: "declines", Severity: live.Medium, Code: "USR_062..USR_067",
		Title:    title,
		Guidance: "Sustained declines: check the destinations' details and limits with the operator before retrying.",
		Since:    oldest.LastStateUpdatedAt, Last: newest.LastStateUpdatedAt, Count: len(recent),
		Topic: live.Payments, Ref: newest.PaymentID,
	}}
}

// resolvable reports whether a payment was declined for one of the account
// conditions of spec 7.1 (USR_062 to USR_067): the declines whose run is
// an alert. A decline for another reason, or whose reason is not known
// yet, is not counted.
func resolvable(p *payments.Payment) bool {
	for _, e := range p.Errors {
		if apierr.IsResolvable(e.Code) {
			return true
		}
	}
	return false
}

// newestLedgerFirst orders ledger transactions newest first (a partial
// read keeps its error).
func newestLedgerFirst(txs []payments.LedgerTransaction, err error) ([]payments.LedgerTransaction, error) {
	if txs == nil && err != nil {
		return nil, err
	}
	slices.SortStableFunc(txs, func(a, b payments.LedgerTransaction) int { return b.CreatedDttm.Compare(a.CreatedDttm) })
	return txs, err
}
