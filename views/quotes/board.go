package quotes

import (
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"treasury/desk/live"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/liquidity"
)

// The board: the latest quote of each pair, with its mid and spread, one
// row a pair (b toggles it with the stream of every quote).

// latest is a pair's latest quote and how many of its quotes the window
// holds.
type latest struct {
	liquidity.Quote
	held int
}

// latestPerPair picks each pair's newest quote from the window held,
// pairs in alphabetical order (rows that do not move as quotes arrive).
func latestPerPair(qs []liquidity.Quote) []latest {
	var out []latest
	at := map[string]int{}
	for _, q := range qs {
		p := q.Pair()
		if i, ok := at[p]; ok {
			out[i].held++
			if q.CreatedAt.After(out[i].CreatedAt) {
				out[i].Quote = q
			}
			continue
		}
		at[p] = len(out)
		out = append(out, latest{Quote: q, held: 1})
	}
	slices.SortFunc(out, func(a, b latest) int { return strings.Compare(a.Pair(), b.Pair()) })
	return out
}

// bps is a spread in basis points of the mid, to a tenth; "—" without a
// mid.
func bps(spread, mid decimal.Decimal) string {
	if mid.IsZero() {
		return "—"
	}
	return spread.Div(mid).Mul(decimal.NewFromInt(10_000)).StringFixed(1)
}

func boardRow(l latest) table.Row {
	mid := l.Mid()
	spread := l.AskPrice.Sub(l.BidPrice)
	return table.Row{ID: l.Pair(), Cells: []string{
		sanitize.Line(l.Pair()), l.BidPrice.String(), l.AskPrice.String(), mid.String(), spread.String(), bps(spread, mid),
		viewkit.Time(l.CreatedAt), viewkit.TimeAs(l.ExpiresAt, time.TimeOnly), itoa(l.held), sanitize.Line(l.QuoteID),
	}, Keys: []table.Key{{}, table.Decimal(l.BidPrice), table.Decimal(l.AskPrice), table.Decimal(mid), table.Decimal(spread),
		{}, table.Time(l.CreatedAt), table.Time(l.ExpiresAt)}}
}

func itoa(n int) string { return decimal.NewFromInt(int64(n)).String() }

// newBoard is the board page: a shared projection of the quotes held (a
// handful of rows, rebuilt once per poll for every session).
func (v *View) newBoard() *viewkit.TablePage[latest] {
	return viewkit.NewSharedTable(v.ctx, viewkit.TableSpec[latest]{
		Crumb: "latest per pair",
		Columns: []table.Column{
			{Title: "Pair", Width: 9}, {Title: "Bid", Width: 10, Align: table.Right}, {Title: "Ask", Width: 10, Align: table.Right},
			{Title: "Mid", Width: 10, Align: table.Right}, {Title: "Spread", Width: 8, Align: table.Right},
			{Title: "bp", Width: 6, Align: table.Right}, {Title: "Latest (UTC)", Width: 19}, {Title: "Expires", Width: 8},
			{Title: "In 30m", Width: 6, Align: table.Right}, {Title: "Quote id", Width: 8, Flex: 1},
		},
		Topics: []live.Topic{live.Quotes},
		Enter:  func(l latest) tea.Cmd { return v.showStream(l.Pair()) },
		Above: func(w, h int, sel *latest) string {
			if sel == nil {
				return v.above(w, h, nil, "")
			}
			return v.above(w, h, &sel.Quote, "")
		},
		AboveShare: 0.45,
		Empty:      "no quotes in the window yet",
		What:       "quotes",
		Export:     boardExport,
	}, viewkit.Shared[latest]{
		Source: viewkit.Project(v.ctx.Store, viewkit.Projection[[]liquidity.Quote, latest]{Name: "board", From: live.QuotesKey,
			All: latestPerPair, ID: func(l latest) string { return l.Pair() }, Row: boardRow}),
	})
}

// boardExport is the board's CSV: a pair's assets apart, its latest
// prices exact, mid and spread exact, the spread in basis points to two
// decimals ("" for a mid of zero), times in ISO 8601 UTC.
var boardExport = &viewkit.Export[latest]{
	Header: []string{"base_asset", "quote_asset", "bid_price", "ask_price", "mid", "spread", "spread_bps", "created_at",
		"expires_at", "quotes_held", "quote_id"},
	Row: func(l latest) []string {
		mid, spread := l.Mid(), l.AskPrice.Sub(l.BidPrice)
		b := ""
		if !mid.IsZero() {
			b = spread.Div(mid).Mul(decimal.NewFromInt(10_000)).StringFixed(2)
		}
		return []string{l.BaseAsset, l.QuoteAsset, viewkit.Exact(l.BidPrice), viewkit.Exact(l.AskPrice), mid.String(), viewkit.Exact(spread), b,
			viewkit.ISO(l.CreatedAt), viewkit.ISO(l.ExpiresAt), itoa(l.held), l.QuoteID}
	},
}
