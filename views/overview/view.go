// Package overview is the treasury desk's first screen: on one page, per
// pair the latest bid, ask and mid, the spread (absolute and in basis
// points), the mid's change and a sparkline over the last hour, day, week
// or 30 days (w; the week and the 30 days read from the history file, and
// each window says how much of it is held); per currency the liquidity and
// prefunded balances, their value in the profile's base currency at the
// latest mid (≈ when a pair is missing, which is named) and the runway of
// the prefunded balance (figures/runway: its weighted net outflow, the hours
// it lasts with their trend, marked at its warning and critical levels,
// and when it runs out); the payments initiated in the window by state
// (those the store holds, which are not in the history file: the panel
// says when they cover less than the window), the failure rate and the
// top reason codes; the open alerts and the health of each interface.
//
// Every figure is a shared value of the store, built once per change for
// every session (live.Derive and live.Combine: the rates, the holdings,
// the payments summary over the payments view's shared counts, the
// platform's runway); the store's own health and alerts are read as they
// are. A session holds only its window; the sparklines are drawn once
// for every session (ui.Context.Kept). No panel polls: the quotes, balances
// and payments are polled for the header and alerts anyway, and the
// ledger always, for the runway alerts.
//
// Each panel states the age of its sources, and tells loading (no answer
// yet), failed (the error named where the figures would be) and empty (a
// successful answer without records) apart. When the terminal is too
// small the least important panels are left out, in this order: the
// health of the interfaces first (the header shows it too), then the open
// alerts (the header counts them), then the payments; the rates and the
// balances with their runway stay. A line says what was left out.
package overview

import (
	"encoding/csv"
	"io"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config"
	"treasury/config/route"
	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/figures"
	"treasury/figures/runway"
	"treasury/ui"
	"treasury/views/viewkit"
)

// Name is the view's palette name.
const Name = route.Overview

// Options are what the overview needs besides the session.
type Options struct {
	// Base is the currency totals are shown in (config base_currency);
	// empty means config.DefaultBaseCurrency.
	Base string
	// Runway is the platform's runway of the prefunded balances
	// (platform.Platform.Runway); the zero key when the profile has no
	// payments interface.
	Runway live.Key[runway.Sheet]
}

// View is the overview.
type View struct {
	ctx    *ui.Context
	base   string
	keys   keys
	window int // index in windows

	rates    live.Key[Rates]
	holdings live.Key[Holdings]
	pay      [len(windows)]live.Key[PaySummary]
	runway   live.Key[runway.Sheet]
	exposure live.Key[paystats.Exposure]

	// health and alerts are the store's, read at each change.
	health []live.Health
	alerts []live.Alert
	// alertsLoading and alertsFailed are the topics raising alerts that
	// have not answered, or whose last read failed: their alerts are
	// unknown, so "none open" is not claimed.
	alertsLoading, alertsFailed []live.Topic
	read                        bool
	// reads counts readStore's reads: a frame is drawn again after one;
	// alertReads those that found the alerts or their gaps changed.
	reads, alertReads uint64
	frame             frame
	// drawing is the frame being drawn: the time it is drawn for and
	// when the first of its time-derived texts changes (layout.go).
	drawing struct {
		at, until time.Time
		deps      []dep
	}
	// panels are the panels drawn last, by panel and width, that only
	// this session keeps; those kept for every session are in ctx.Kept
	// (panelmemo.go).
	panels map[[2]int]panelMemo
	// panelsDrawn counts the panels drawn (not kept).
	panelsDrawn int
}

type keys struct{ Window key.Binding }

// New builds the overview and registers its shared values on the store
// (once for the process: every session gets the same).
func New(ctx *ui.Context, o Options) *View {
	v := &View{ctx: ctx, base: o.Base, runway: o.Runway, keys: keys{
		Window: ctx.KeyAs("window", "window 1h/24h/7d/30d"),
	}}
	if v.base == "" {
		v.base = config.DefaultBaseCurrency
	}
	st := ctx.Store
	v.rates = ratesKey(st)
	v.holdings = holdingsKey(st, v.rates, v.base)
	v.exposure = paystats.ExposureOf(st, v.runway)
	for i, w := range windows {
		v.pay[i] = payKey(st, w)
	}
	return v
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Overview }

// Title is the tab label.
func (v *View) Title() string { return "Overview" }

// Init does nothing: the store pushes its changes.
func (v *View) Init() tea.Cmd { return nil }

// Topics are the sources of every panel and the shared values built from
// them (the store notifies the view when they are rebuilt). Watching the
// ledger makes the store poll it while the overview is shown.
func (v *View) Topics() []live.Topic {
	ts := []live.Topic{live.Quotes, v.rates.Topic(), live.LiquidityBalances, live.PaymentBalances, v.holdings.Topic(),
		live.Payments, v.pay[v.window].Topic(), v.exposure.Topic()}
	if v.runway.Topic() != "" {
		ts = append(ts, live.Ledger, v.runway.Topic())
	}
	return ts
}

// Update handles the window key and the store's changes.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.StoreChanged:
		v.readStore()
	case tea.KeyPressMsg:
		if key.Matches(msg, v.keys.Window) {
			return v.setWindow((v.window + 1) % len(windows))
		}
	case ui.Open:
		for _, a := range msg.Args {
			for i, w := range windows {
				if strings.EqualFold(a, figures.WindowWord(w)) {
					v.window = i
				}
			}
		}
		v.readStore()
	}
	return nil
}

// setWindow shows the changes and payments of another window.
func (v *View) setWindow(i int) tea.Cmd {
	v.window = i
	return ui.FlashCmd("overview of the last " + viewkit.Duration(windows[i]))
}

// readStore reads the store's health and alerts (small lists it keeps
// current itself).
func (v *View) readStore() {
	alerts := v.ctx.Store.Alerts()
	loading, failed := ui.AlertGaps(v.ctx.Store)
	if !v.read || !slices.Equal(alerts, v.alerts) || !slices.Equal(loading, v.alertsLoading) || !slices.Equal(failed, v.alertsFailed) {
		v.alertReads++
	}
	v.health, v.alerts, v.read = v.ctx.Store.Health(), alerts, true
	v.reads++
	v.alertsLoading, v.alertsFailed = loading, failed
}

// Keys are the view's bindings.
func (v *View) Keys() []key.Binding { return []key.Binding{v.keys.Window} }

// Crumbs: the overview has no drill-down.
func (v *View) Crumbs() []string { return nil }

// Back does nothing.
func (v *View) Back() bool { return false }

// CSV writes the figures shown, read now, one meaning per column: a line
// per pair (its latest quote), a line per currency (its balances and their
// value) and a line per currency of the exposure (figures.Line.Data: a
// column per funding class and its runway, named as `treasury get exposure
// -o csv` names them), each kind of line leaving the others' columns
// empty. Amounts and times as every data output writes them (package
// figures).
func (v *View) CSV() func(io.Writer) error {
	rates := live.Get(v.ctx.Store, v.rates).Data
	h := live.Get(v.ctx.Store, v.holdings).Data
	ex := live.Get(v.ctx.Store, v.exposure).Data
	header := []string{"kind", "pair", "bid", "ask", "mid", "spread", "spread_bps", "quoted_at",
		"currency", "liquidity_available", "prefunded_available", "value", "value_currency", "no_rate_for"}
	fixed := len(header)
	// The exposure's columns but those the holdings' have (the currency,
	// the available prefunded balance).
	var exposure []string
	skip := func(name string) bool { return name == "currency" || name == "available" }
	for _, c := range (figures.Line{}).Data() {
		if !skip(c.Name) {
			exposure = append(exposure, c.Name)
		}
	}
	header = append(header, exposure...)
	var rows [][]string
	row := func(cells ...string) []string {
		return append(cells, make([]string, len(header)-len(cells))...)
	}
	for _, p := range rates.Pairs {
		rows = append(rows, row("rate", p.Pair, viewkit.Exact(p.Bid), viewkit.Exact(p.Ask), viewkit.Exact(p.Mid), viewkit.Exact(p.Spread),
			p.SpreadBps.String(), viewkit.ISO(p.QuotedAt)))
	}
	for _, x := range h.List {
		liq, pre, val, base := "", "", "", ""
		if x.InLiquidity {
			liq = viewkit.Money(x.Liquidity, x.Currency)
		}
		if x.InPrefunded {
			pre = viewkit.Money(x.Prefunded, x.Currency)
		}
		if x.Valued {
			val, base = x.Value.StringFixed(2), h.Base
		}
		rows = append(rows, row("holding", "", "", "", "", "", "", "", x.Currency, liq, pre, val, base, x.Missing))
	}
	for _, l := range ex.Lines {
		r := row("exposure")
		r[slices.Index(header, "currency")] = l.Currency
		i := fixed
		for _, c := range l.Data() {
			if !skip(c.Name) {
				r[i] = c.Value
				i++
			}
		}
		rows = append(rows, r)
	}
	return func(w io.Writer) error { return ui.WriteCSVRows(csv.NewWriter(w), header, rows) }
}

// Commands offer ":overview [1h|24h|7d|30d]".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: string(Name), Args: "[1h|24h|7d|30d]", Help: "rates, balances, runway, payments, alerts and health on one page", View: Name,
		Complete: func(prefix string) []string {
			var out []string
			for _, w := range windows {
				if s := figures.WindowWord(w); strings.HasPrefix(s, prefix) {
					out = append(out, s)
				}
			}
			return out
		}}}
}

// Explain says how the overview's computed figures are made (help, ?).
func (v *View) Explain() []string {
	return []string{paystats.ExplainRunway(), paystats.ExplainExposure(), paystats.ExplainFailureRate()}
}
