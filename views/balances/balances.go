// Package balances is the balances view: the liquidity account's balances
// per asset and the payments prefunded balances per currency in one table,
// each row with a sparkline of its available balance over the store's
// memory (the last 24 hours) and, above, the history chart of the selected
// row over a window the w key cycles through (1h, 24h, 7d, 30d: the longer
// ones read from the history file, desk/history, through the store); a
// LOW_BALANCE alert marks its row. The trades
// of the liquidity account are a section of the view, opened with t or the
// palette's :trades. The funding plan is another (f, :funding [hours]):
// per prefunded currency, the top-up that carries it to the end of the
// business day (or N hours) at the pace that drives its runway, the
// balance once the payments in flight complete, and which payments owed
// just in time fall due before a top-up sent now arrives.
package balances

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/config"
	"treasury/config/route"
	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/figures"
	"treasury/figures/runway"
	"treasury/ui"
	"treasury/ui/chart"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/liquidity"
)

// View is the balances view.
type View struct {
	viewkit.Stack
	ctx     *ui.Context
	page    *viewkit.TablePage[Row]
	trades  *viewkit.TablePage[liquidity.Trade]
	funding *viewkit.TablePage[figures.Plan]
	chart   *chart.Line
	// exposure is what the payments in flight commit per currency.
	exposure live.Key[paystats.Exposure]
	keys     keys
	// inTrades is set while the trades section (or a trade) is shown;
	// inFunding while the funding plan is.
	inTrades, inFunding bool
	// plan is the funding planner's settings and the hours asked for.
	plan plan
	// window is the charts' window, an index in chartWindows.
	window int
}

// chartWindows are the windows of the balance charts, which w cycles
// through: the quotes view's. The chart opens on the day (the store's
// memory); the longer ones are read from the history file.
var chartWindows = [...]time.Duration{time.Hour, 24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour}

// defaultWindow is the index of the window a session starts with (24h).
const defaultWindow = 1

type keys struct{ Trades, Window, Funding, Longer, Shorter key.Binding }

// Options are what the balances view needs besides the session.
type Options struct {
	// Runway is the platform's runway sheet: the exposure says what is in
	// flight in hours of each currency's outflow (a zero key: not said).
	Runway live.Key[runway.Sheet]
	// Funding is the profile's planner settings (funding:); zero: the
	// defaults.
	Funding config.Funding
}

// New builds the balances view.
func New(ctx *ui.Context, o Options) *View {
	if o.Funding.Zone == nil {
		o.Funding = config.DefaultFunding()
	}
	v := &View{ctx: ctx, exposure: paystats.ExposureOf(ctx.Store, o.Runway), window: defaultWindow, plan: plan{settings: o.Funding}, keys: keys{
		Trades: ctx.Key("trades"), Window: ctx.KeyAs("window", "chart window 1h/24h/7d/30d"),
		Funding: ctx.Key("funding"), Longer: ctx.Key("plan_longer"), Shorter: ctx.Key("plan_shorter"),
	}}
	v.chart = chart.NewLine(chartStyles(ctx, 0))
	v.page = viewkit.NewOwnTable(ctx, viewkit.TableSpec[Row]{
		Columns:    balanceColumns(),
		Topics:     []live.Topic{live.LiquidityBalances, live.PaymentBalances, v.exposure.Topic()},
		Enter:      v.openDetail,
		Above:      v.above,
		AboveShare: 0.45,
		Empty:      "no balances returned",
		What:       "balances",
		Export:     balancesExport,
	}, viewkit.Own[Row]{
		Read: func() ([]Row, live.Snapshot) { return readRows(ctx.Store) },
		Row:  v.tableRow,
	})
	v.trades = newTradesPage(v)
	v.funding = newFundingPage(v)
	v.Stack.Reset(v.page)
	return v
}

func chartStyles(ctx *ui.Context, series int) chart.Styles {
	st := chart.Styles{Axis: ctx.Theme.Muted, Label: ctx.Theme.Muted, Line: ctx.Theme.Accent}
	if len(ctx.Theme.Series) > 0 {
		st.Line = ctx.Theme.Series[series%len(ctx.Theme.Series)]
	}
	return st
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Balances }

// Title is the tab label.
func (v *View) Title() string { return "Balances" }

// Init does nothing: the store pushes balances.
func (v *View) Init() tea.Cmd { return nil }

// seriesTitle names a row's chart: what is plotted, the time its points
// cover (span: "last 7d window, 2d3h held" while the history is shorter
// than the window), and the alert if one is open.
func (v *View) seriesTitle(r Row, span string, w int) string {
	t := v.ctx.Theme
	s := t.Title.Render("available "+sanitize.Line(r.Currency())+" · "+r.Source) +
		t.Muted.Render("  ("+span+", UTC; w: window)")
	if r.Alert != nil {
		s += "  " + t.Bad.Render("LOW_BALANCE: "+sanitize.Line(r.Alert.Title))
	}
	return ansi.Truncate(s, w, "…")
}

// above draws the history chart of the selected row (the first row when
// none is selected).
func (v *View) above(w, h int, sel *Row) string {
	if sel == nil {
		if recs := v.page.Records(); len(recs) > 0 {
			sel = &recs[0]
		}
	}
	ex := v.exposureLines(w, h/2)
	if l := v.planLine(w); l != "" && h-len(ex) >= 6 {
		ex = append(ex, l)
	}
	if sel == nil || h-len(ex) < 4 {
		return strings.Join(ex, "\n")
	}
	span, drawn := v.drawChart(v.chart, "table", *sel, w, h-1-len(ex))
	chart := v.seriesTitle(*sel, span, w) + "\n" + drawn
	if len(ex) == 0 {
		return chart
	}
	return strings.Join(ex, "\n") + "\n" + chart
}

// exposureLines say what the payments in flight commit per currency, in
// at most max lines, once the payments have been read; what does not fit
// is named in the last.
func (v *View) exposureLines(w, max int) []string {
	t := v.ctx.Theme
	snap := live.Get(v.ctx.Store, v.exposure)
	if !snap.Loaded() || !snap.Data.Payments {
		return nil
	}
	groups := snap.Data.Items().Groups()
	if len(groups) == 0 {
		return []string{t.Muted.Render("in flight: no payment")}
	}
	gs := make([]viewkit.ItemGroup, len(groups))
	for i, g := range groups {
		gs[i] = viewkit.ItemGroup{Label: "in flight " + g.Label, Items: g.Items}
	}
	return viewkit.FitGroups(t.Muted, gs, len("in flight ")+5, w, max, "the Overview, treasury get exposure")
}

// showTrades opens the trades section above the balances, or goes back to
// the balances when it is open.
func (v *View) showTrades(on bool) tea.Cmd {
	for v.Stack.Depth() > 1 {
		v.Stack.Back()
	}
	v.inTrades, v.inFunding = on, false
	if !on {
		return v.Stack.Update(ui.StoreChanged{})
	}
	return v.Stack.Push(v.trades)
}

// showFunding opens the funding plan above the balances, or goes back to
// the balances when it is open.
func (v *View) showFunding(on bool) tea.Cmd {
	for v.Stack.Depth() > 1 {
		v.Stack.Back()
	}
	v.inTrades, v.inFunding = false, on
	if !on {
		return v.Stack.Update(ui.StoreChanged{})
	}
	return tea.Batch(v.Stack.Push(v.funding), v.Stack.Update(ui.StoreChanged{}))
}

// Back pops one page; back at the root, the trades section and the
// funding plan are closed.
func (v *View) Back() bool {
	ok := v.Stack.Back()
	if v.Stack.Depth() == 1 {
		v.inTrades, v.inFunding = false, false
	}
	return ok
}

// openFunding is ":funding [hours]": the plan, carried that many hours
// (0: to the end of the business day; none: as it was).
func (v *View) openFunding(args []string) tea.Cmd {
	cmd := v.showFunding(true)
	if len(args) == 0 {
		return cmd
	}
	h, err := parsePlanHours(args[0])
	if err != nil {
		return tea.Batch(cmd, ui.FlashCmd(":funding: "+sanitize.Line(err.Error())))
	}
	return tea.Batch(cmd, ui.FlashCmd(v.setPlanHours(h)), v.Stack.Update(ui.StoreChanged{}))
}

// Update handles the trades key and palette opens, and delegates the rest.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if key.Matches(msg, v.keys.Trades) {
			return v.showTrades(!v.inTrades)
		}
		if key.Matches(msg, v.keys.Funding) {
			return v.showFunding(!v.inFunding)
		}
		if v.inFunding && v.Stack.Depth() == 2 && key.Matches(msg, v.keys.Longer, v.keys.Shorter) {
			by := int64(1)
			if key.Matches(msg, v.keys.Shorter) {
				by = -1
			}
			return tea.Batch(ui.FlashCmd(v.stepPlanHours(by)), v.Stack.Update(ui.StoreChanged{}))
		}
		if key.Matches(msg, v.keys.Window) && !v.inTrades {
			v.window = (v.window + 1) % len(chartWindows)
			return ui.FlashCmd("balance chart of the last " + viewkit.Duration(chartWindows[v.window]))
		}
	case ui.Open:
		switch {
		case len(msg.Args) > 0 && strings.EqualFold(msg.Args[0], "funding"):
			return v.openFunding(msg.Args[1:])
		case len(msg.Args) > 0 && strings.EqualFold(msg.Args[0], "trades"):
			cmd := v.showTrades(true)
			if len(msg.Args) > 1 {
				cmd = tea.Batch(cmd, v.trades.SetFilter(strings.Join(msg.Args[1:], " ")))
			}
			return cmd
		case len(msg.Args) > 0:
			cmd := v.showTrades(false)
			return tea.Batch(cmd, v.page.SetFilter(strings.Join(msg.Args, " ")))
		}
		return v.showTrades(false)
	}
	return v.Stack.Update(msg)
}

// Keys are the view's bindings (the window's where a balance chart is
// shown).
func (v *View) Keys() []key.Binding {
	switch {
	case v.inTrades:
		return v.Stack.KeysWith(v.keys.Trades, v.keys.Funding)
	case v.inFunding && v.Stack.Depth() == 2:
		return v.Stack.KeysWith(v.keys.Funding, v.keys.Longer, v.keys.Shorter, v.keys.Trades)
	case v.inFunding:
		return v.Stack.KeysWith(v.keys.Funding, v.keys.Trades)
	}
	return v.Stack.KeysWith(v.keys.Trades, v.keys.Funding, v.keys.Window)
}

// Commands offer ":balances [currency]" and ":trades [filter]".
func (v *View) Commands() []ui.Command {
	return []ui.Command{
		{Name: string(v.Name()), Args: "[currency]", Help: "liquidity and payments balances", View: v.Name(),
			Complete: v.completeCurrency,
			Run:      func(args []string) tea.Cmd { return ui.OpenCmd(v.Name(), args...) }},
		{Name: "trades", Args: "[filter]", Help: "liquidity trades, newest first", View: v.Name(),
			Run: func(args []string) tea.Cmd { return ui.OpenCmd(v.Name(), append([]string{"trades"}, args...)...) }},
		{Name: "funding", Args: "[hours, 0: to the end of the business day]", Help: "the funding plan: the top-up per currency", View: v.Name(),
			Run: func(args []string) tea.Cmd { return ui.OpenCmd(v.Name(), append([]string{"funding"}, args...)...) }},
	}
}

func (v *View) completeCurrency(prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range []string{live.SeriesLiquidityBalance, live.SeriesPaymentsBalance} {
		for _, s := range v.ctx.Store.Series(p) {
			c := strings.TrimPrefix(s, p)
			if !seen[c] && strings.HasPrefix(strings.ToUpper(c), strings.ToUpper(prefix)) {
				seen[c] = true
				out = append(out, sanitize.Line(c))
			}
		}
	}
	slices.Sort(out)
	return out
}

// drawChart draws series's history over the session's window w x h with
// ch (its styles named by kind), once per balances poll, window and size
// for every session (the history is read, from the store's memory or the
// history file, only then). span says what the points cover.
// balanceChart is the key of a balance's chart (kind: where it is shown)
// over a window, drawn once for every session (ui.Chart).
type balanceChart struct {
	kind, series string
	win          time.Duration
}

func (v *View) drawChart(ch *chart.Line, kind string, r Row, w, h int) (span, drawn string) {
	series := r.Series()
	win := chartWindows[v.window]
	seq := v.ctx.Store.Snapshot(live.LiquidityBalances).Seq<<32 ^ v.ctx.Store.Snapshot(live.PaymentBalances).Seq
	out := ui.Chart(v.ctx, balanceChart{kind, series, win}, seq, w, h, func() string {
		// The window ends now on the clock of the platform the balance is
		// read from: the points' times are its.
		pts := v.ctx.Store.HistoryLast(r.Interface(), series, win)
		ch.SetSize(w, h)
		ch.SetSeries(series, pts)
		// The span rides on the drawing's first line: read with it.
		return viewkit.SpanOf(win, pts) + viewkit.Reading(v.ctx.Store) + "\n" + ch.View()
	})
	span, drawn, _ = strings.Cut(out, "\n")
	return span, drawn
}

// Explain says how the runway and the exposure are made (help, ?).
func (v *View) Explain() []string {
	return []string{paystats.ExplainRunway(), paystats.ExplainExposure(), explainPlan}
}

// explainPlan says how the funding plan is made (help, ?).
const explainPlan = "Funding plan (f, :funding): per prefunded currency, the top-up is what the available balance lacks to last the plan's hours " +
	"at the pace that drives its runway (hours × pace − available, rounded up to the currency's decimals): added to the balance, " +
	"the runway at the same pace is those hours. The hours run to the end of the business day in the profile's time zone " +
	"(funding: time_zone, day_ends; the next weekday's once it has passed), or as many as +, - or :funding <hours> ask. " +
	"After in flight is available + reserved − the prefunded payments in flight: what stays available once each is debited. " +
	"A top-up sent now arrives after funding.top_up_lead; the payments owed just in time of the currency due before then are " +
	"counted (past due ones among them), and send by is the last time a top-up arrives before the next one is due."
