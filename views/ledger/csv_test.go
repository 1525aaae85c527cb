package ledger_test

import (
	"testing"

	"treasury/ui"
	"treasury/views/ledger"
	"treasury/views/viewtest"
)

// TestLedgerCSVIsData: ctrl+s wrote the cells as shown ("2,702.90" with
// its grouping, times without year or zone); the CSV has the movement's
// fields: amounts exact and apart from the currency, ISO 8601 UTC times,
// no glyphs.
func TestLedgerCSVIsData(t *testing.T) {
	e := shared.Env(t)
	v := ledger.New(e.Ctx, e.P)
	v.Update(ui.StoreChanged{})
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "created_at", "currency", "operation", "amount", "status", "txn_source",
		"available_balance_before", "available_balance_after", "txn_reference")
	if len(c.Rows) == 0 {
		t.Fatal("no rows")
	}
	withPayment := 0
	for _, r := range c.Rows {
		viewtest.Time(t, "created_at", r["created_at"], false)
		viewtest.Amount(t, "amount", r["amount"], r["currency"])
		viewtest.Amount(t, "available_balance_after", r["available_balance_after"], r["currency"])
		if r["txn_reference"] != "" {
			withPayment++
		}
	}
	if withPayment == 0 {
		t.Error("no movement names its payment")
	}
	c.Plain(t)
}
