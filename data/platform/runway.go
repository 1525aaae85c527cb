package platform

import (
	"fmt"
	"time"

	"treasury/data/live"
	"treasury/data/runway"
)

// runwayKey registers the runway of the prefunded balances (data/runway):
// a combination of the payments balances and the ledger, built once per
// change of either for every session, and at every read of either (the
// last hour moves with the clock). It raises LOW_RUNWAY for a currency
// whose balance lasts fewer hours than alerts.runway_hours at the last
// hour's net outflow. Until both have answered the sheet is empty (its
// At is zero): the views say which of them is missing.
func (p *Platform) runwayKey(st *live.Store) live.Key[runway.Sheet] {
	threshold := p.Config.Alerts.RunwayHours
	return live.Combine(st, "runway", func(_ runway.Sheet, in live.Inputs) runway.Sheet {
		bal, led := live.Input(in, live.PaymentBalancesKey), live.Input(in, live.LedgerKey)
		if !bal.Loaded() || !led.Loaded() {
			return runway.Sheet{Threshold: threshold}
		}
		return runway.Compute(bal.Data, led.Data, led.FetchedAt, threshold)
	}, live.CombineOptions[runway.Sheet]{Timed: true, Alerts: runwayAlerts}, live.PaymentBalances, live.Ledger)
}

// runwayAlerts raises one alert per currency whose runway is under the
// threshold.
func runwayAlerts(s runway.Sheet, at time.Time) []live.Alert {
	var out []live.Alert
	for _, c := range s.Under() {
		out = append(out, live.Alert{
			Key: "low-runway:" + c.Currency, Severity: live.Medium, Code: "LOW_RUNWAY",
			Title: fmt.Sprintf("%s prefunded balance lasts %s h at the last hour's net outflow of %s (under %s h)",
				c.Currency, c.Hours.StringFixed(1), c.Outflow.StringFixed(2), s.Threshold.String()),
			Guidance: "Fund the " + c.Currency + " account or slow outgoing payments; the ledger (:ledger) shows the hour's movements.",
			Since:    at, Last: at, Count: 1, Topic: live.Ledger, Ref: c.Currency,
		})
	}
	return out
}
