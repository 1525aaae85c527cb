package auditview_test

import (
	"testing"

	"treasury/ui"
	auditview "treasury/views/audit"
	"treasury/views/viewtest"
)

// TestAuditCSVIsData: the log's CSV has a line's fields, not the
// screen's "transaction 10.5 USDC tx-1" or "ssh:ben SHA256:abc
// (operator)": the quantity apart from its asset, who apart from how,
// the time in ISO 8601 UTC.
func TestAuditCSVIsData(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	appendTwo(t, e)
	e.P.Store.Sync()
	v := auditview.New(e.Ctx)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "seq", "time", "via", "user", "name", "key", "role", "from", "host", "profile", "environment", "action",
		"target_kind", "target_id", "target_name", "target_qty", "target_asset", "outcome", "attempt", "request", "reason",
		"mutation_id", "intent_id", "request_id", "error_code", "error", "broken", "hash")
	if len(c.Rows) != 2 {
		t.Fatalf("%d rows, want 2: %v", len(c.Rows), c.Rows)
	}
	sweep, freeze := c.Rows[0], c.Rows[1] // newest first
	viewtest.Time(t, "time", freeze["time"], false)
	viewtest.Amount(t, "target_qty", freeze["target_qty"], freeze["target_asset"])
	if freeze["target_qty"] != "10.5" || freeze["target_asset"] != "USDC" || freeze["user"] != "tester" || freeze["seq"] != "1" {
		t.Errorf("freeze line %v", freeze)
	}
	if sweep["via"] != "ssh" || sweep["user"] != "ben" || sweep["key"] != "SHA256:abc" || sweep["error_code"] != "ERR017.006" || sweep["target_qty"] != "" {
		t.Errorf("sweep line %v", sweep)
	}
	c.Plain(t)
}
