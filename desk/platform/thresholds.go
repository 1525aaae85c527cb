package platform

import (
	"context"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"treasury/config"
	"treasury/desk/live"
	"treasury/figures"
	"treasury/wire/liquidity"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// The alert thresholds in effect: the profile's at start, replaced whole
// by SetAlerts (the app's editor) with no restart. Every judge reads them
// when it runs, so a new threshold applies from the next judgement, which
// SetAlerts makes at once.

// Alerts are the alert settings in effect (never nil; do not change it).
func (p *Platform) Alerts() *config.Alerts { return p.alerts.Load() }

// SetAlerts puts new alert settings in effect for every session and judges
// the alerts again on the data held.
func (p *Platform) SetAlerts(a config.Alerts) {
	p.alerts.Store(&a)
	p.Store.Rejudge()
	p.judgeStale()
}

// severity is the alert severity of a threshold's level: a warning is
// MEDIUM, critical HIGH (the severities of spec 7.1 rule 4).
func severity(critical bool) live.Severity {
	if critical {
		return live.High
	}
	return live.Medium
}

// level is a word for a severity of a threshold, in alert titles.
func level(critical bool) string {
	if critical {
		return "critical"
	}
	return "warning"
}

// lowBalance is the alert of an available balance under its kind's
// threshold for its currency, critical under the critical one.
func lowBalance(kind, currency string, available decimal.Decimal, t config.Threshold, topic live.Topic, now time.Time) (live.Alert, bool) {
	warn, crit := t.LowBalance.Value, t.LowBalanceCritical.Value
	critical := crit.IsPositive() && available.LessThan(crit)
	if !critical && !(warn.IsPositive() && available.LessThan(warn)) {
		return live.Alert{}, false
	}
	under := warn
	if critical {
		under = crit
	}
	return live.Alert{
		Key:      "low-balance:" + kind + ":" + currency,
		Severity: severity(critical),
		Code:     "LOW_BALANCE",
		Title: fmt.Sprintf("%s %s balance %s is under %s (%s)", currency, kind, money.Format(available, currency),
			money.Format(under, currency), level(critical)),
		Guidance: "Fund the account or slow outgoing payments in " + currency + ".",
		Since:    now, Last: now, Count: 1, Topic: topic, Ref: currency,
	}, true
}

func (p *Platform) lowLiquidity(data []liquidity.Balance, now time.Time) []live.Alert {
	var out []live.Alert
	a := p.Alerts()
	for _, b := range data {
		if al, ok := lowBalance(config.KindLiquidity, b.Asset, b.Available, a.Liquidity.For(b.Asset), live.LiquidityBalances, now); ok {
			out = append(out, al)
		}
	}
	return out
}

func (p *Platform) lowPayments(data payments.Balances, now time.Time) []live.Alert {
	// One balance per currency: the sum over funding types, as the
	// runway and the overview count it.
	sums := map[string]decimal.Decimal{}
	var order []string
	for _, b := range data.Balances {
		if _, ok := sums[b.Currency]; !ok {
			order = append(order, b.Currency)
		}
		sums[b.Currency] = sums[b.Currency].Add(b.AvailableBalance.Decimal())
	}
	var out []live.Alert
	a := p.Alerts()
	for _, c := range order {
		if al, ok := lowBalance(config.KindPrefunded, c, sums[c], a.Prefunded.For(c), live.PaymentBalances, now); ok {
			out = append(out, al)
		}
	}
	return out
}

// failureRate raises an alert when, of the payments that finished within
// the window (their last change to COMPLETED, FAILED, DECLINED or
// RETURNED), enough failed or were declined.
func failureRate(ps *live.PaymentSet, fr config.FailureRate, now time.Time) (live.Alert, bool) {
	r := live.FailureRate(ps, now.Add(-fr.Window), now)
	failed, finished := r.Failed, r.Finished
	rate, ok := r.Percent()
	if !ok || finished < fr.MinFinished.Value {
		return live.Alert{}, false
	}
	critical := fr.Critical.Value.IsPositive() && rate.GreaterThanOrEqual(fr.Critical.Value)
	if !critical && !(fr.Warning.Value.IsPositive() && rate.GreaterThanOrEqual(fr.Warning.Value)) {
		return live.Alert{}, false
	}
	at := fr.Warning.Value
	if critical {
		at = fr.Critical.Value
	}
	return live.Alert{
		Key: "failure-rate", Severity: severity(critical), Code: "FAILURE_RATE",
		Title: fmt.Sprintf("%s%% of payments failed or were declined in the last %s (%d of %d finished; %s at %s%%)",
			rate.StringFixed(1), figures.SpanWords(fr.Window), failed, finished, level(critical), at.String()),
		Guidance: "Group the failures by reason (enter) for the codes behind the rate; a single code points at one partner or corridor.",
		Count:    failed, Topic: live.Payments, Ref: "failed",
	}, true
}

// staleInterval is how often the stale feeds are judged (real time).
const staleInterval = 5 * time.Second

// watchStale judges the stale feeds until ctx ends.
func (p *Platform) watchStale(ctx context.Context) {
	t := time.NewTicker(staleInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			p.judgeStale()
		}
	}
}

func (p *Platform) judgeStale() {
	s := p.Alerts().Stale
	p.Store.JudgeStale(s.Warning.Value, s.Critical.Value)
}
