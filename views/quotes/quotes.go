// Package quotes is the quotes view: the liquidity interface's quotes of
// the store's window (the last 30 minutes), newest first, live, or as a
// board of the latest quote per pair with its mid and spread; above
// either, a rate chart of the selected pair over the last hour or day.
package quotes

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/ui"
	"treasury/ui/chart"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/liquidity"
	"treasury/wire/money"
)

// chartWindows are the chart's windows, which the w key cycles through;
// the first is the default.
var chartWindows = [...]time.Duration{time.Hour, 24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour}

// View is the quotes view.
type View struct {
	viewkit.Stack
	ctx     *ui.Context
	page    *viewkit.TablePage[liquidity.Quote]
	board   *viewkit.TablePage[latest]
	boardOn bool // the board is shown, not the stream
	chart   *chart.Line
	window  int
	pair    string // pinned (P); "" follows the cursor's moves
	// raw reads a quote's JSON again for the raw view (RawFrom; none:
	// the quote is shown as held).
	raw *live.Read[platform.QuoteAt, json.RawMessage]
	// followed is the pair the chart shows when none is pinned: the
	// selected row's when the view opened or the operator last moved the
	// cursor; a new quote that takes the cursor along (the live table
	// follows the newest) does not change it.
	followed string
	keys     keys
}

type keys struct{ Window, Pair, Board key.Binding }

// New builds the quotes view.
func New(ctx *ui.Context) *View {
	v := &View{ctx: ctx, keys: keys{
		Window: ctx.KeyAs("window", "chart window 1h/24h/7d/30d"), Pair: ctx.Key("pin_pair"), Board: ctx.Key("board"),
	}}
	st := chart.Styles{Axis: ctx.Theme.Muted, Label: ctx.Theme.Muted, Line: ctx.Theme.Accent}
	if len(ctx.Theme.Series) > 0 {
		st.Line = ctx.Theme.Series[0]
	}
	v.chart = chart.NewLine(st)
	v.page = viewkit.NewSharedTable(ctx, viewkit.TableSpec[liquidity.Quote]{
		Columns: []table.Column{
			{Title: "Created (UTC)", Width: 19}, {Title: "Pair", Width: 9}, {Title: "Side", Width: 8},
			// Prices and quantities are shown whole or not at all (the
			// footer names them), never cut.
			{Title: "Bid", Width: 10, Max: 20, Align: table.Right, Priority: 7}, {Title: "Ask", Width: 10, Max: 20, Align: table.Right, Priority: 7},
			{Title: "Base qty", Width: 10, Max: 28, Align: table.Right, Priority: 5}, {Title: "Quote qty", Width: 10, Max: 28, Align: table.Right, Priority: 5},
			{Title: "Status", Width: 8, Priority: 4}, {Title: "Expires", Width: 8, Priority: 3}, {Title: "Quote id", Width: 8, Flex: 2, Priority: 1},
		},
		Topics:     []live.Topic{live.Quotes},
		Live:       true,
		Actions:    []viewkit.Action[liquidity.Quote]{{Key: v.keys.Pair, Run: v.pin}},
		Above:      v.streamAbove,
		AboveShare: 0.45,
		Empty:      "no quotes in the window yet",
		What:       "quotes",
		Export:     quotesExport,
	}, viewkit.Shared[liquidity.Quote]{
		Source: viewkit.ListProjection(ctx.Store, live.QuotesKey, "rows", quoteID, rowAt(platformNow(ctx)), viewkit.NewestFirst),
	})
	v.board = v.newBoard()
	v.Stack.Reset(v.page)
	return v
}

// showStream shows every quote, filtered to pair unless it is "".
func (v *View) showStream(pair string) tea.Cmd {
	v.boardOn = false
	cmd := v.Stack.Reset(v.page)
	if pair != "" {
		cmd = tea.Batch(cmd, v.page.SetFilter(pair))
	}
	return cmd
}

// toggleBoard switches between the board and the stream.
func (v *View) toggleBoard() tea.Cmd {
	if v.boardOn {
		return tea.Batch(v.showStream(""), ui.FlashCmd("every quote, newest first"))
	}
	v.boardOn = true
	return tea.Batch(v.Stack.Reset(v.board), ui.FlashCmd("latest quote per pair ("+v.ctx.Key("open").Help().Key+": its quotes)"))
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Quotes }

// Title is the tab label.
func (v *View) Title() string { return "Quotes" }

// Init does nothing: the store pushes quotes.
func (v *View) Init() tea.Cmd { return nil }

func quoteID(q liquidity.Quote) string { return q.QuoteID }

// platformNow is the liquidity platform's clock (the host's without a
// store).
func platformNow(ctx *ui.Context) func() time.Time {
	return func() time.Time {
		if ctx.Store == nil {
			return ctx.Clock()
		}
		return ctx.Store.PlatformNow(apierr.Liquidity)
	}
}

// rowAt is a quote's row, its status as of now: a quote read ACTIVE
// whose expiry has passed on the platform's clock is EXPIRED (the store
// rebuilds its row when its expiry passes).
func rowAt(now func() time.Time) func(liquidity.Quote) table.Row {
	return func(q liquidity.Quote) table.Row {
		status := q.Status
		if status == liquidity.QuoteActive && !q.ExpiresAt.IsZero() && !q.ExpiresAt.After(now()) {
			status = liquidity.QuoteExpired
		}
		return table.Row{ID: q.QuoteID, Cells: []string{
			viewkit.Time(q.CreatedAt), sanitize.Line(q.Pair()), sanitize.Line(q.Side),
			q.BidPrice.String(), q.AskPrice.String(), money.Format(q.BaseAssetQty, q.BaseAsset), money.Format(q.QuoteAssetQty, q.QuoteAsset),
			sanitize.Line(status), viewkit.TimeAs(q.ExpiresAt, time.TimeOnly), sanitize.Line(q.QuoteID),
		}, Keys: []table.Key{table.Time(q.CreatedAt), {}, {}, table.Decimal(q.BidPrice), table.Decimal(q.AskPrice),
			table.Decimal(q.BaseAssetQty), table.Decimal(q.QuoteAssetQty), {}, table.Time(q.ExpiresAt)}}
	}
}

// pin fixes the chart on the selected row's pair, or follows the cursor again.
func (v *View) pin(q liquidity.Quote) tea.Cmd {
	if v.pair != "" {
		v.pair = ""
		return ui.FlashCmd("chart follows the selected quote")
	}
	v.pair, v.followed = q.Pair(), q.Pair()
	return ui.FlashCmd("chart pinned to " + sanitize.Line(v.pair))
}

func (v *View) chartPair(sel *liquidity.Quote) string {
	if v.pair != "" {
		return v.pair
	}
	if sel != nil {
		return sel.Pair()
	}
	if pairs := v.ctx.Store.Series(live.SeriesRate); len(pairs) > 0 {
		return strings.TrimPrefix(pairs[0], live.SeriesRate)
	}
	return ""
}

// rateChart is the key of a pair's mid-rate chart over a window, drawn
// once for every session (ui.Chart).
type rateChart struct {
	pair string
	win  time.Duration
}

// streamAbove is the stream's chart: of the pinned pair, else of the
// pair followed (the selected row's when the operator last moved the
// cursor), not of each newest quote the live table selects as it comes.
func (v *View) streamAbove(w, h int, sel *liquidity.Quote) string {
	if v.pair == "" && v.followed == "" && sel != nil {
		v.followed = sel.Pair()
	}
	if v.pair == "" && v.followed != "" {
		return v.above(w, h, nil, v.followed)
	}
	return v.above(w, h, sel, "")
}

func (v *View) above(w, h int, sel *liquidity.Quote, pair string) string {
	if pair == "" {
		pair = v.chartPair(sel)
	}
	if pair == "" || h < 4 {
		return ""
	}
	win := chartWindows[v.window]
	// Drawn, with its title, once per quotes poll, pair, window and size
	// for every session (the history is copied out of the store only
	// then). The title says how much of the window the history held
	// covers: after a start, 30 minutes of a 24 hours' window.
	seq := v.ctx.Store.Snapshot(live.Quotes).Seq
	return ui.Chart(v.ctx, rateChart{pair, win}, seq, w, h, func() string {
		pts := v.ctx.Store.HistoryLast(apierr.Liquidity, live.SeriesRate+pair, win)
		title := v.ctx.Theme.Title.Render("mid rate "+sanitize.Line(pair)) +
			v.ctx.Theme.Muted.Render("  ("+viewkit.SpanOf(win, pts)+viewkit.Reading(v.ctx.Store)+", UTC; w: window)")
		v.chart.SetSize(w, h-1)
		v.chart.SetSeries(pair, pts)
		// The whole window, what is not held yet blank: 7 days held of
		// 30 are not drawn over the width of 30.
		now := v.ctx.Store.PlatformNow(apierr.Liquidity)
		v.chart.SetSpan(now.Add(-win), now)
		return title + "\n" + v.chart.View()
	})
}

// RawFrom has the raw view (y) read a quote's JSON again with read: the
// store holds the quotes of its window decoded, not as received.
func (v *View) RawFrom(read live.Read[platform.QuoteAt, json.RawMessage]) *View {
	v.raw = &read
	return v
}

// ReadRaw reads a quote again for the raw view (ui.RawReader).
func (v *View) ReadRaw(id string, rec any) tea.Cmd {
	q, ok := rec.(liquidity.Quote)
	if !ok || v.raw == nil || len(q.RawJSON()) > 0 || q.QuoteID == "" {
		return nil
	}
	return viewkit.ReadRaw(v.ctx, *v.raw, platform.QuoteAt{ID: q.QuoteID, At: q.CreatedAt}, id, "GET /api/v0/quotes of its millisecond")
}

// Update handles the window key and delegates the rest to the page.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if key.Matches(msg, v.keys.Board) && v.Stack.Depth() == 1 {
			return v.toggleBoard()
		}
		if key.Matches(msg, v.keys.Window) {
			v.window = (v.window + 1) % len(chartWindows)
			return ui.FlashCmd("chart of the last " + viewkit.Duration(chartWindows[v.window]))
		}
		// A key that moves the cursor (or filters, sorts) moves the
		// chart to the pair then selected.
		before, _, _ := v.page.Selected()
		cmd := v.Stack.Update(msg)
		if after, rec, ok := v.page.Selected(); ok && after != before && v.Stack.Top() == v.page {
			if q, ok := rec.(liquidity.Quote); ok {
				v.followed = q.Pair()
			}
		}
		return cmd
	case ui.Open:
		var cmd tea.Cmd
		if len(msg.Args) > 0 {
			cmd = v.showStream(msg.Args[0])
		}
		v.followed = ""
		return tea.Batch(cmd, v.Stack.Update(ui.StoreChanged{}))
	}
	return v.Stack.Update(msg)
}

// Keys are the view's bindings: the board switch only on the root, where
// it works (a page above it has "b" for page up).
func (v *View) Keys() []key.Binding {
	if v.Stack.Depth() == 1 {
		return v.Stack.KeysWith(v.keys.Window, v.keys.Board)
	}
	return v.Stack.KeysWith(v.keys.Window)
}

// Commands offer ":quotes [pair]".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: string(v.Name()), Args: "[pair]", Help: "quotes, filtered to a pair", View: v.Name(),
		Complete: func(prefix string) []string {
			var out []string
			for _, s := range v.ctx.Store.Series(live.SeriesRate) {
				if p := strings.TrimPrefix(s, live.SeriesRate); strings.HasPrefix(strings.ToUpper(p), strings.ToUpper(prefix)) {
					out = append(out, p)
				}
			}
			slices.Sort(out)
			return out
		},
		Run: func(args []string) tea.Cmd { return ui.OpenCmd(v.Name(), args...) }}}
}

// quotesExport is the quotes' CSV: a quote's fields as received, the
// pair's assets apart, prices and quantities exact, times in ISO 8601
// UTC, the status as the platform sent it (the screen shows an ACTIVE
// quote past its expiry as EXPIRED: expires_at says it).
var quotesExport = &viewkit.Export[liquidity.Quote]{
	Header: []string{"created_at", "quote_id", "base_asset", "quote_asset", "side", "bid_price", "ask_price",
		"base_asset_qty", "quote_asset_qty", "status", "expires_at"},
	Row: func(q liquidity.Quote) []string {
		return []string{viewkit.ISO(q.CreatedAt), q.QuoteID, q.BaseAsset, q.QuoteAsset, q.Side, viewkit.Exact(q.BidPrice),
			viewkit.Exact(q.AskPrice), viewkit.Money(q.BaseAssetQty, q.BaseAsset), viewkit.Money(q.QuoteAssetQty, q.QuoteAsset), q.Status, viewkit.ISO(q.ExpiresAt)}
	},
}
