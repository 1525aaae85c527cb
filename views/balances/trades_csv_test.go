package balances_test

import (
	"testing"

	"treasury/ui"
	"treasury/views/balances"
	"treasury/views/viewtest"
)

// TestTradesCSVIsData: the trades' CSV has the pair's assets apart (not
// "BTC/USD"), quantity and price exact, the time in ISO 8601 UTC.
func TestTradesCSVIsData(t *testing.T) {
	e := lowUSD.Env(t)
	v := balances.New(e.Ctx, balances.Options{Runway: e.P.Runway})
	v.Update(ui.StoreChanged{})
	v.Update(ui.Open{View: "balances", Args: []string{"trades"}})
	e.P.Store.Sync()
	v.Update(ui.StoreChanged{})
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "executed_at", "trade_id", "quote_id", "base_asset", "quote_asset", "side", "qty", "price", "status")
	if len(c.Rows) == 0 {
		t.Fatal("no trades")
	}
	for _, r := range c.Rows[:min(len(c.Rows), 50)] {
		viewtest.Time(t, "executed_at", r["executed_at"], false)
		viewtest.Amount(t, "qty", r["qty"], r["base_asset"])
		viewtest.Amount(t, "price", r["price"], r["quote_asset"])
	}
	c.Plain(t)
}
