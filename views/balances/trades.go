package balances

import (
	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/liquidity"
	"treasury/wire/money"
)

func readTrades(st *live.Store) ([]liquidity.Trade, live.Snapshot) {
	snap := live.Get(st, live.TradesKey)
	return snap.Data, snap.Snapshot
}

func pair(t liquidity.Trade) string { return t.BaseAsset + "/" + t.QuoteAsset }

// newTradesPage is the trades section: the liquidity account's trades of
// the last 24 hours, newest first; enter opens one.
func newTradesPage(v *View) *viewkit.TablePage[liquidity.Trade] {
	return viewkit.NewSharedTable(v.ctx, viewkit.TableSpec[liquidity.Trade]{
		Crumb: "trades",
		Columns: []table.Column{
			{Title: "Executed (UTC)", Width: 19}, {Title: "Pair", Width: 9}, {Title: "Side", Width: 5},
			// Amounts whole or not at all (the footer names them), never cut.
			{Title: "Qty", Width: 12, Max: 28, Align: table.Right, Priority: 6}, {Title: "Price", Width: 12, Max: 20, Align: table.Right, Priority: 6},
			{Title: "Status", Width: 9, Priority: 4}, {Title: "Trade id", Width: 10, Flex: 2, Priority: 2}, {Title: "Quote id", Width: 10, Flex: 1, Priority: 1},
		},
		Topics: []live.Topic{live.Trades},
		Enter:  func(t liquidity.Trade) tea.Cmd { return v.Stack.Push(newTradeDetail(v, t.TradeID)) },
		Empty:  "no trades in the last 24 hours",
		// A trade's fields: the pair's assets apart, the quantity (of
		// the base asset) and price (in the quote asset) exact, the time
		// in ISO 8601 UTC.
		Export: &viewkit.Export[liquidity.Trade]{
			Header: []string{"executed_at", "trade_id", "quote_id", "base_asset", "quote_asset", "side", "qty", "price", "status"},
			Row: func(t liquidity.Trade) []string {
				return []string{viewkit.ISO(t.ExecutedAt), t.TradeID, t.QuoteID, t.BaseAsset, t.QuoteAsset, t.Side,
					viewkit.Money(t.Qty, t.BaseAsset), viewkit.Exact(t.Price), t.Status}
			},
		},
	}, viewkit.Shared[liquidity.Trade]{
		Source: viewkit.ListProjection(v.ctx.Store, live.TradesKey, "rows", func(t liquidity.Trade) string { return t.TradeID }, tradeRow, viewkit.NewestFirst),
	})
}

// newTradeDetail shows one trade, kept current from the store.
func newTradeDetail(v *View, id string) *viewkit.DetailPage[liquidity.Trade] {
	return viewkit.NewDetailPage(v.ctx, viewkit.DetailSpec[liquidity.Trade]{
		Crumb:  viewkit.Short(sanitize.Line(id), 10),
		Topics: []live.Topic{live.Trades},
		Get: func() (liquidity.Trade, bool, live.Snapshot) {
			all, snap := readTrades(v.ctx.Store)
			for _, t := range all {
				if t.TradeID == id {
					return t, true, snap
				}
			}
			return liquidity.Trade{}, false, snap
		},
		ID:     func(t liquidity.Trade) string { return t.TradeID },
		Body:   func(t liquidity.Trade, w int) string { return viewkit.KV(v.ctx.Theme, w, tradeFields(t)...) },
		Fields: tradeFields,
	})
}

func tradeFields(t liquidity.Trade) [][2]string {
	return [][2]string{
		{"Trade id", t.TradeID}, {"Quote id", t.QuoteID}, {"Pair", pair(t)}, {"Side", t.Side},
		{"Quantity", viewkit.Amount(t.Qty, t.BaseAsset)}, {"Price", viewkit.Amount(t.Price, t.QuoteAsset)},
		{"Status", t.Status}, {"Executed (UTC)", viewkit.Time(t.ExecutedAt)},
	}
}

// tradeRow is a trade's row.
func tradeRow(t liquidity.Trade) table.Row {
	return table.Row{ID: t.TradeID, Cells: []string{
		viewkit.Time(t.ExecutedAt), sanitize.Line(pair(t)), sanitize.Line(t.Side), money.Format(t.Qty, t.BaseAsset), t.Price.String(),
		sanitize.Line(t.Status), sanitize.Line(t.TradeID), sanitize.Line(t.QuoteID),
	}, Keys: []table.Key{table.Time(t.ExecutedAt), {}, {}, table.Decimal(t.Qty), table.Decimal(t.Price)}}
}
