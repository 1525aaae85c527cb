package quotes_test

import (
	"testing"

	"treasury/ui"
	"treasury/views/quotes"
	"treasury/views/viewtest"
)

// TestQuotesCSVsAreData: the stream's and the board's CSVs have the
// pair's assets apart (not "BTC/USD"), prices and quantities exact,
// times in ISO 8601 UTC (the screen's "Expires" is a time of day).
func TestQuotesCSVsAreData(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: noTrades})
	v := quotes.New(e.Ctx)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "created_at", "quote_id", "base_asset", "quote_asset", "side", "bid_price", "ask_price",
		"base_asset_qty", "quote_asset_qty", "status", "expires_at")
	if len(c.Rows) == 0 {
		t.Fatal("no quotes")
	}
	for _, r := range c.Rows[:min(len(c.Rows), 50)] {
		viewtest.Time(t, "created_at", r["created_at"], false)
		viewtest.Time(t, "expires_at", r["expires_at"], true)
		viewtest.Amount(t, "bid_price", r["bid_price"], r["quote_asset"])
		viewtest.Amount(t, "base_asset_qty", r["base_asset_qty"], r["base_asset"])
	}
	c.Plain(t)

	viewtest.Drive(v, v.Update(viewtest.Key("b")))
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	b := viewtest.ReadCSV(t, ui.CSVOf(v))
	b.HasHeader(t, "base_asset", "quote_asset", "bid_price", "ask_price", "mid", "spread", "spread_bps", "created_at",
		"expires_at", "quotes_held", "quote_id")
	if len(b.Rows) < 2 {
		t.Fatalf("%d pairs on the board", len(b.Rows))
	}
	for _, r := range b.Rows {
		viewtest.Amount(t, "mid", r["mid"], r["quote_asset"])
		viewtest.Decimal(t, "spread_bps", r["spread_bps"])
		viewtest.Time(t, "created_at", r["created_at"], false)
	}
	b.Plain(t)
}
