package platform

import (
	"fmt"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/figures"
	"treasury/figures/runway"
	"treasury/wire/apierr"
)

// runwayKey registers the runway of the prefunded balances (figures/runway):
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
			Title: fmt.Sprintf("%s prefunded lasts %s (%s under %s h)", c.Currency, figures.RunwayWords(c, s), level(critical), limit.String()),
			Guidance: "Fund the " + c.Currency + " account or slow outgoing payments; the ledger (enter) shows the movements. " +
				"The weighted pace weighs the last " + figures.SpanWords(s.Window) + " (a movement " + figures.SpanWords(s.Window) + " old counts e^-1); the burn is the net outflow of the last " +
				figures.SpanWords(runway.BurnSpan) + " at an hourly rate; the shorter runway is the one judged. Both leave funding out.",
			Since: at, Last: at, Count: 1, Topic: live.Ledger, Ref: c.Currency,
			// The sooner the balance runs out, the more urgent.
			Due: figures.RunwayOf(c).Empty,
		})
	}
	return out
}
