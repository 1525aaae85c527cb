package alerts_test

import (
	"strconv"
	"testing"

	"treasury/ui"
	"treasury/views/alerts"
	"treasury/views/viewtest"
)

// TestAlertsCSVIsData: the alerts' CSV has an alert's fields: times in
// ISO 8601 UTC (the screen's "Last" is an age, "4m"), the count a
// number, interface and endpoint apart, no glyphs.
func TestAlertsCSVIsData(t *testing.T) {
	e := twoHours.Env(t)
	v := alerts.New(e.Ctx, nil)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "severity", "code", "title", "guidance", "interface", "endpoint", "count", "since", "last", "topic", "ref", "key")
	if len(c.Rows) != len(e.P.Store.Alerts()) || len(c.Rows) == 0 {
		t.Fatalf("%d rows for %d alerts", len(c.Rows), len(e.P.Store.Alerts()))
	}
	failed := false
	for _, r := range c.Rows {
		viewtest.Time(t, "since", r["since"], false)
		viewtest.Time(t, "last", r["last"], false)
		if n, err := strconv.Atoi(r["count"]); err != nil || n < 1 {
			t.Errorf("count = %q", r["count"])
		}
		if r["code"] == "FAILED" {
			failed = r["ref"] != "" && r["guidance"] != ""
		}
	}
	if !failed {
		t.Errorf("no FAILED alert with its payment and guidance: %v", c.Rows)
	}
	c.Plain(t)
}
