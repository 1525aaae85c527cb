package config

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// alerts resolves a profile's alerts section (s is its key) over the
// defaults in out.
func (r *resolver) alerts(s string, p *rawAlerts, out *Alerts) {
	if p == nil {
		return
	}
	for asset, v := range p.LowBalance {
		key := joinKey(s, "low_balance."+asset)
		if !r.asset(key, asset) {
			continue
		}
		if d, ok := r.amount(key, v); ok {
			for _, b := range []*Balances{&out.Prefunded, &out.Liquidity} {
				if b.legacyLow == nil {
					b.legacyLow = map[string]Setting[decimal.Decimal]{}
				}
				b.legacyLow[asset] = Given(d)
			}
		}
	}
	if len(p.LowBalance) > 0 {
		r.warn(joinKey(s, "low_balance"), "applies to both kinds of balance: write low_balance under alerts.prefunded.<currency> and alerts.liquidity.<currency> instead")
	}
	if v := p.RunwayHours; v != "" {
		key := joinKey(s, "runway_hours")
		if d, ok := r.hours(key, v); ok && !d.IsPositive() {
			r.d.at(key, "must be positive, not %q (leave it out for the default runway alerts)", v)
		} else if ok {
			out.Prefunded.legacy.RunwayWarning = Given(d)
			r.warn(key, "write runway_warning_hours under alerts.prefunded.default instead (runway_hours is the warning level)")
		}
	}
	if v := p.RunwayWindow; v != "" {
		if d := r.duration(joinKey(s, "runway_window"), v); d > 0 {
			out.RunwayWindow = Given(d)
		}
	}
	r.balances(joinKey(s, KindPrefunded), p.Prefunded, &out.Prefunded)
	r.balances(joinKey(s, KindLiquidity), p.Liquidity, &out.Liquidity)
	r.failureRate(joinKey(s, "failure_rate"), p.FailureRate, &out.FailureRate)
	if st := p.Stale; st != nil {
		k := joinKey(s, "stale")
		if st.Warning != "" {
			if d := r.duration(joinKey(k, "warning"), st.Warning); d > 0 {
				out.Stale.Warning = Given(d)
			}
		}
		if st.Critical != "" {
			if d := r.duration(joinKey(k, "critical"), st.Critical); d > 0 {
				out.Stale.Critical = Given(d)
			}
		}
		if out.Stale.Critical.Value < out.Stale.Warning.Value {
			r.d.at(joinKey(k, "critical"), "must not be shorter than the warning (%s)", out.Stale.Warning.Value)
		}
	}
	if t := p.Terminal; t != nil {
		if t.Bell != nil {
			out.Terminal.Bell = *t.Bell
		}
		if t.Desktop != nil {
			out.Terminal.Desktop = *t.Desktop
		}
	}
	out.Webhook = r.alertWebhook(joinKey(s, "webhook"), p.Webhook)
}

// balances resolves the thresholds of one kind of balance: "default" and
// currency codes.
func (r *resolver) balances(s string, p map[string]*rawThreshold, out *Balances) {
	for name, t := range p {
		key := joinKey(s, name)
		if name != DefaultRule && !r.asset(key, name) {
			continue
		}
		th := r.threshold(key, t, out.Kind)
		if name == DefaultRule {
			out.Default = th
		} else {
			out.Currency[name] = th
		}
	}
	// Each level in effect must be below the other's.
	for name := range p {
		key := joinKey(s, name)
		eff := out.For(name)
		if name == DefaultRule {
			eff = out.Default.merge(out.builtin())
		}
		if w, c := eff.RunwayWarning.Value, eff.RunwayCritical.Value; w.IsPositive() && c.GreaterThan(w) {
			r.d.at(joinKey(key, "runway_critical_hours"), "%s h is above the warning's %s h: critical is the shorter runway", c, w)
		}
		if w, c := eff.LowBalance.Value, eff.LowBalanceCritical.Value; w.IsPositive() && c.GreaterThan(w) {
			r.d.at(joinKey(key, "low_balance_critical"), "%s is above the warning's %s: critical is the lower balance", c, w)
		}
	}
}

func (r *resolver) threshold(key string, t *rawThreshold, kind string) Threshold {
	var out Threshold
	if t == nil {
		return out
	}
	if kind == KindLiquidity {
		for k, v := range map[string]string{"runway_warning_hours": t.RunwayWarningHours, "runway_critical_hours": t.RunwayCriticalHours} {
			if v != "" {
				r.d.at(joinKey(key, k), "liquidity balances have no runway (the outflow is read from the payments ledger): set it under alerts.prefunded")
			}
		}
	} else {
		if d, ok := r.hours(joinKey(key, "runway_warning_hours"), t.RunwayWarningHours); ok {
			out.RunwayWarning = Given(d)
		}
		if d, ok := r.hours(joinKey(key, "runway_critical_hours"), t.RunwayCriticalHours); ok {
			out.RunwayCritical = Given(d)
		}
	}
	if t.LowBalance != "" {
		if d, ok := r.amount(joinKey(key, "low_balance"), t.LowBalance); ok {
			out.LowBalance = Given(d)
		}
	}
	if t.LowBalanceCritical != "" {
		if d, ok := r.amount(joinKey(key, "low_balance_critical"), t.LowBalanceCritical); ok {
			out.LowBalanceCritical = Given(d)
		}
	}
	return out
}

func (r *resolver) failureRate(s string, p *rawFailureRate, out *FailureRate) {
	if p == nil {
		return
	}
	pct := func(k, v string) (decimal.Decimal, bool) {
		if v == "" {
			return decimal.Zero, false
		}
		d, err := decimal.NewFromString(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "%")))
		if err != nil || d.IsNegative() || d.GreaterThan(decimal.NewFromInt(100)) {
			r.d.at(joinKey(s, k), "must be a percentage from 0 to 100 such as 10 or 12.5%%, not %q", v)
			return decimal.Zero, false
		}
		return d, true
	}
	if d, ok := pct("warning", p.Warning); ok {
		out.Warning = Given(d)
	}
	if d, ok := pct("critical", p.Critical); ok {
		out.Critical = Given(d)
	}
	if v := p.MinFinished; v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			r.d.at(joinKey(s, "min_finished"), "must be a whole number of payments from 1, not %q", v)
		} else {
			out.MinFinished = Given(n)
		}
	}
	if w, c := out.Warning.Value, out.Critical.Value; w.IsPositive() && c.IsPositive() && c.LessThan(w) {
		r.d.at(joinKey(s, "critical"), "%s%% is under the warning's %s%%: critical is the higher rate", c, w)
	}
}

func (r *resolver) alertWebhook(s string, p *rawAlertWebhook) *AlertWebhook {
	if p == nil {
		return nil
	}
	w := &AlertWebhook{MinSeverity: DefaultWebhookMinSeverity, PerMinute: DefaultWebhookPerMinute}
	w.URL = r.secret(s, "url", p.URL, p.URLEnv, p.URLFile, true)
	if u := w.URL.Reveal(); u != "" && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		// The value is a secret: say what is wrong without it.
		r.d.errf(joinKey(s, "url"), r.d.lines[s], "must be an http:// or https:// URL")
	}
	switch v := strings.ToLower(p.MinSeverity); v {
	case "":
	case "medium", "high":
		w.MinSeverity = v
	default:
		r.d.at(joinKey(s, "min_severity"), "must be medium or high, not %q", p.MinSeverity)
	}
	switch n := p.PerMinute; {
	case n == 0:
	case n < 1 || n > webhookMaxPerMinute:
		r.d.at(joinKey(s, "per_minute"), "must be from 1 to %d messages a minute, not %d", webhookMaxPerMinute, n)
	default:
		w.PerMinute = n
	}
	return w
}

// asset checks a currency code used as a key.
func (r *resolver) asset(key, code string) bool {
	if !assetRe.MatchString(code) {
		r.d.at(key, "must be an upper-case currency code such as USD or USDC (or default), not %q", code)
		return false
	}
	return true
}

// amount reads a balance threshold: a decimal, not negative.
func (r *resolver) amount(key, v string) (decimal.Decimal, bool) {
	return r.nonNegative(key, v, `a decimal amount such as "10000.00"`)
}

// hours reads a runway threshold: a number of hours, 0 for none; "" is
// not set.
func (r *resolver) hours(key, v string) (decimal.Decimal, bool) {
	if v == "" {
		return decimal.Zero, false
	}
	return r.nonNegative(key, v, "a number of hours such as 12 or 1.5 (0 for none)")
}

// nonNegative reads a decimal that must not be negative; what says what
// it must be.
func (r *resolver) nonNegative(key, v, what string) (decimal.Decimal, bool) {
	d, err := decimal.NewFromString(v)
	switch {
	case err != nil:
		r.d.at(key, "must be %s, not %q", what, v)
	case d.IsNegative():
		r.d.at(key, "must not be negative, not %q", v)
	default:
		return d, true
	}
	return decimal.Zero, false
}
