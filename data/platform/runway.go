package platform

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"treasury/config"
	"treasury/data/apierr"
	"treasury/data/live"
	"treasury/data/money"
	"treasury/data/runway"
)

// runwayKey registers the runway of the prefunded balances (data/runway):
// a combination of the payments balances and the ledger, built once per
// change of either for every session, and at every read of either (the
// weights move with the clock: the payments interface's). It raises LOW_RUNWAY for a currency whose
// balance lasts fewer hours than its prefunded thresholds say (a warning,
// MEDIUM; critical, HIGH), with the settings in effect when it is built.
// Until both have answered the sheet is empty (its At is zero): the views
// say which of them is missing.
func (p *Platform) runwayKey(st *live.Store) live.Key[runway.Sheet] {
	return live.Combine(st, "runway", func(_ runway.Sheet, in live.Inputs) runway.Sheet {
		a := p.Alerts()
		bal, led := live.Input(in, live.PaymentBalancesKey), live.Input(in, live.LedgerKey)
		if !bal.Loaded() || !led.Loaded() {
			return runway.Sheet{Window: a.RunwayWindow.Value}
		}
		// On the platform's clock, as the ledger's times and the window it
		// was read for are: the host's would leave out, or weigh as old,
		// what the platform did since the host's now.
		at := st.PlatformTime(apierr.Payments, led.FetchedAt)
		return runway.Compute(bal.Data, led.Data, runway.Options{At: at, From: at.Add(-LedgerWindow),
			Window: a.RunwayWindow.Value, Limits: runwayLimits(a)})
	}, live.CombineOptions[runway.Sheet]{Timed: true, Alerts: runwayAlerts,
		Judged: func(s runway.Sheet) bool { return !s.At.IsZero() }}, live.PaymentBalances, live.Ledger)
}

// runwayLimits are the runway levels of each currency in a.
func runwayLimits(a *config.Alerts) func(string) runway.Limits {
	return func(currency string) runway.Limits {
		t := a.Prefunded.For(currency)
		return runway.Limits{Warning: t.RunwayWarning.Value, Critical: t.RunwayCritical.Value}
	}
}

// runwayAlerts raises one alert per currency whose runway is at a level:
// the shorter of its runway at the weighted pace and at the last 15
// minutes' pace, both said.
func runwayAlerts(s runway.Sheet, at time.Time) []live.Alert {
	var out []live.Alert
	for _, c := range s.Short() {
		critical := c.Level == runway.Critical
		limit := c.Limits.Warning
		if critical {
			limit = c.Limits.Critical
		}
		out = append(out, live.Alert{
			Key: "low-runway:" + c.Currency, Severity: severity(critical), Interface: apierr.Payments, Code: "LOW_RUNWAY",
			Title: fmt.Sprintf("%s prefunded lasts %s (%s under %s h)", c.Currency, RunwayWords(c, s), level(critical), limit.String()),
			Guidance: "Fund the " + c.Currency + " account or slow outgoing payments; the ledger (enter) shows the movements. " +
				"The weighted pace weighs the last " + span(s.Window) + " (a movement " + span(s.Window) + " old counts e^-1); the burn is the net outflow of the last " +
				span(runway.BurnSpan) + " at an hourly rate; the shorter runway is the one judged. Both leave funding out.",
			Since: at, Last: at, Count: 1, Topic: live.Ledger, Ref: c.Currency,
		})
	}
	return out
}

// RunwayWords says a currency's runway in words, the pace that sets it
// first: "0.1 h at the last 15 min's pace (454,991.52 USD/h), empty ≈
// 12:02 UTC; 31.2 h at the 6 h weighted pace (574.66 USD/h)".
func RunwayWords(c runway.Currency, s runway.Sheet) string {
	weighted := func() string {
		if c.NoOutflow {
			return "no outflow at the " + span(s.Window) + " weighted pace"
		}
		return fmt.Sprintf("%s at the %s weighted pace (%s %s/h%s)", hoursWords(c.Hours), span(s.Window),
			money.Grouped(c.Outflow.StringFixed(2)), c.Currency, trendWords(c))
	}
	burn := func() string {
		if !c.Burn.IsPositive() {
			return "no outflow in the last " + span(runway.BurnSpan)
		}
		return fmt.Sprintf("%s at the last %s's pace (%s %s/h)", hoursWords(c.BurnHours), span(runway.BurnSpan),
			money.Grouped(c.Burn.StringFixed(2)), c.Currency)
	}
	_, empty, burst, ok := c.Runway()
	switch {
	case !ok:
		return weighted()
	case burst:
		return burn() + emptyWords(c, empty, s.At) + "; " + weighted()
	case c.BurnKnown:
		return weighted() + emptyWords(c, empty, s.At) + "; " + burn()
	}
	return weighted() + emptyWords(c, empty, s.At)
}

// hoursWords is a runway in hours, or "> 30 d" past runway.Long.
func hoursWords(h decimal.Decimal) string {
	if h.GreaterThan(decimal.NewFromInt(int64(runway.Long / time.Hour))) {
		return "> 30 d"
	}
	return h.StringFixed(1) + " h"
}

// emptyWords is ", empty ≈ 14:07 UTC", or nothing past runway.Long.
func emptyWords(c runway.Currency, empty, at time.Time) string {
	if empty.IsZero() || c.LongRunway() {
		return ""
	}
	return ", empty ≈ " + EmptyAt(empty, at) + " UTC"
}

// trendWords says how the outflow moved over the last hour, when it did.
func trendWords(c runway.Currency) string {
	switch c.Trend {
	case runway.Rising:
		if c.Change.IsZero() {
			return ", rising"
		}
		return ", up " + c.Change.StringFixed(0) + " % on an hour ago"
	case runway.Falling:
		return ", down " + c.Change.Abs().StringFixed(0) + " % on an hour ago"
	}
	return ""
}
