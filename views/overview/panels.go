package overview

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/figures"
	"treasury/figures/runway"
	"treasury/ui"
	"treasury/ui/chart"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
)

// ratesPanel: per pair the latest bid, ask, mid, spread and the mid's
// change and sparkline over the window.
// sparkChart is the key of a pair's sparkline over a window, drawn once
// for every session (ui.Chart).
type sparkChart struct {
	pair string
	win  time.Duration
}

func (v *View) ratesPanel(w int) []string {
	t := v.ctx.Theme
	win := windows[v.window]
	out := []string{v.title(w, "Rates · last "+viewkit.Duration(win)+" (w)"+viewkit.Reading(v.ctx.Store), v.ages(srcQuotes))}
	snap := get(v, v.rates)
	if !v.loaded(srcQuotes) || !snap.Loaded() {
		notes := v.notes(w, srcQuotes)
		if len(notes) == 0 {
			notes = []string{t.Muted.Render("building the rates…")}
		}
		return append(out, notes...)
	}
	rates := snap.Data
	if len(rates.Pairs) == 0 {
		return append(append(out, t.Muted.Render("no quotes in the quote window")), v.notes(w, srcQuotes)...)
	}
	span := win
	for _, p := range rates.Pairs {
		if tr := p.Trends[v.window]; tr.Known {
			span = min(span, tr.Span)
		}
	}
	spanWord := viewkit.Duration(span.Round(time.Minute))
	if span >= win-time.Minute {
		spanWord = viewkit.Duration(win)
	}
	// Ages on the platform's clock: a quote is as old as its server says.
	now := v.platformTime(apierr.Liquidity, v.ctx.Shown())
	cols := []col{{title: "Pair"}, {title: "Bid", right: true, drop: 5}, {title: "Ask", right: true, drop: 5},
		{title: "Mid", right: true}, {title: "Spread", right: true, drop: 6}, {title: "bps", right: true, drop: 3},
		{title: "Δ " + spanWord, right: true, drop: 2}, {title: "Quoted", right: true, drop: 7},
		{title: spanWord + " history", drop: 4, flex: 10, fill: func(r, width int) string {
			p := rates.Pairs[r]
			// Drawn once for every session (ui.Chart).
			return ui.Chart(v.ctx, sparkChart{p.Pair, windows[v.window]}, snap.Version, width, 1, func() string {
				return chart.Sparkline(chart.Resample(p.Trends[v.window].Spark, width), width, t.Accent)
			})
		}}}
	rows := make([][]cell, len(rates.Pairs))
	for i, p := range rates.Pairs {
		tr := p.Trends[v.window]
		change := txt("—")
		if tr.Known {
			s := fmt.Sprintf("%+.2f%%", tr.Change)
			switch {
			case math.Abs(tr.Change) < 0.005:
				change = txt(fmt.Sprintf("%.2f%%", 0.0))
			case tr.Change > 0:
				change = styled(t.OK, s)
			default:
				change = styled(t.Bad, s)
			}
		}
		rows[i] = []cell{txt(sanitize.Line(p.Pair)), txt(p.Bid.String()), txt(p.Ask.String()), styled(t.Bold, p.Mid.String()),
			txt(p.Spread.String()), txt(p.SpreadBps.StringFixed(1)), change, txt(v.ageText(now, p.QuotedAt))}
	}
	out = append(out, grid(cols, rows, w, t.Header, t.Muted)...)
	return append(out, v.notes(w, srcQuotes)...)
}

// balancesPanel: per currency the available liquidity and prefunded
// balances, their value in the base currency, and the prefunded balance's
// runway.
func (v *View) balancesPanel(w int) []string {
	t := v.ctx.Theme
	srcs := []source{srcLiquidity, srcPrefunded}
	withRunway := v.runway.Topic() != ""
	tagged := srcs
	if withRunway {
		tagged = append(tagged, srcLedger)
	}
	name := "Balances & runway"
	if sheet := get(v, v.runway).Data; withRunway && sheet.Window > 0 {
		// The runway is the shorter of the weighted one and the last 15
		// minutes' (marked 15m where it is the latter).
		name += " (" + viewkit.Duration(sheet.Window) + " avg or " + viewkit.Duration(runway.BurnSpan) + " pace)"
	}
	out := []string{v.title(w, name, v.ages(tagged...))}
	if !v.configured(srcLiquidity) && !v.configured(srcPrefunded) {
		return append(out, v.notes(w, srcs...)...)
	}
	snap := get(v, v.holdings)
	if !v.loaded(srcLiquidity) && !v.loaded(srcPrefunded) || !snap.Loaded() {
		notes := v.notes(w, srcs...)
		if len(notes) == 0 {
			notes = []string{t.Muted.Render("building the balances…")}
		}
		return append(out, notes...)
	}
	h := snap.Data
	if len(h.List) == 0 {
		return append(append(out, t.Muted.Render("no balances")), v.notes(w, tagged...)...)
	}
	sheet := get(v, v.runway).Data
	ledgerOK := withRunway && v.loaded(srcLedger) && !sheet.At.IsZero()
	base := sanitize.Line(h.Base)
	cols := []col{{title: "Cur"}, {title: "Liquidity", right: true, drop: 3}, {title: "Prefunded", right: true, drop: 2},
		{title: "≈ " + base, right: true, drop: 1}}
	if withRunway {
		cols = append(cols, col{title: "Net out/h", right: true, drop: 5}, col{title: "Runway", right: true},
			col{title: "Empty (UTC)", right: true, drop: 4})
	}
	rows := make([][]cell, len(h.List))
	for i, x := range h.List {
		// "—": the source answered without this currency; "?": it has
		// not answered (loading or failed, said below).
		liq, pre, val := txt("—"), txt("—"), txt("—")
		switch {
		case x.InLiquidity:
			liq = txt(group(x.Liquidity, x.Currency))
		case !h.Liquidity:
			liq = styled(t.Muted, "?")
		}
		switch {
		case x.InPrefunded:
			pre = txt(group(x.Prefunded, x.Currency))
		case !h.Prefunded:
			pre = styled(t.Muted, "?")
		}
		if x.Valued {
			val = txt(fixed(x.Value, 2))
		}
		row := []cell{txt(sanitize.Line(x.Currency)), liq, pre, val}
		if withRunway {
			row = append(row, v.runwayCells(x, h.Prefunded, sheet, ledgerOK)...)
		}
		rows[i] = row
	}
	out = append(out, grid(cols, rows, w, t.Header, t.Muted)...)
	total := "Total " + fixed(h.Total, 2) + " " + base
	if h.Estimate() {
		total = "Total ≈ " + fixed(h.Total, 2) + " " + base + " (estimate)"
	}
	line := t.Bold.Render(cut(total, w))
	rest, stale := v.totalInputs(h)
	if ansi.StringWidth(total+rest) <= w {
		if stale {
			line += t.Stale.Render(rest)
		} else {
			line += t.Muted.Render(rest)
		}
	} else if stale {
		line += t.Stale.Render(cut("  STALE", w-ansi.StringWidth(total)))
	}
	out = append(out, line)
	if len(h.Missing) > 0 {
		out = append(out, t.Warn.Render(cut("≈ no quote for "+sanitize.Line(strings.Join(h.Missing, ", "))+": left out of the total", w)))
	}
	if !h.Rates {
		out = append(out, t.Warn.Render(cut("≈ no rates yet: only "+base+" is counted", w)))
	}
	return append(out, v.notes(w, tagged...)...)
}

// midStale is the age past which a quote's mid no longer values a
// balance: quotes live about 30 seconds.
const midStale = 2 * time.Minute

// totalInputs says how old the total's inputs are: its mids by the oldest
// quote it uses (on the platform's clock), STALE naming the inputs that
// are: mids older than midStale, a source (quotes, liquidity or prefunded
// balances) stale or whose last poll failed.
func (v *View) totalInputs(h Holdings) (string, bool) {
	now := v.ctx.Shown()
	var stale []string
	for _, s := range []source{srcQuotes, srcLiquidity, srcPrefunded} {
		if v.configured(s) {
			if sn := v.snapshot(live.Topic(s)); v.stale(sn, now) || sn.Err != nil {
				stale = append(stale, s.name())
			}
		}
	}
	mids := ""
	if !h.OldestMid.IsZero() {
		age := v.platformTime(apierr.Liquidity, now).Sub(h.OldestMid)
		mids = "mids up to " + v.ageText(h.OldestMid.Add(age), h.OldestMid) + " old"
		if age > midStale {
			stale = append([]string{"mids"}, stale...)
		} else {
			v.changesIn(midStale - age + time.Nanosecond) // when they turn stale
		}
	}
	switch {
	case len(stale) > 0 && mids != "":
		return "  STALE (" + strings.Join(stale, ", ") + "): at " + mids, true
	case len(stale) > 0:
		return "  STALE: " + strings.Join(stale, ", "), true
	case mids != "":
		return "  at " + mids, false
	}
	return "", false
}

// runwayCells are a holding's net outflow, runway and the time its
// balance runs out: "—" when it has no prefunded balance, "…" while the
// ledger loads, "?" when the ledger or the prefunded balances could not be
// read. The runway is the shorter of the weighted one and the last 15
// minutes' (marked 15m, with that pace as the net outflow); the weighted
// one carries its trend (↓ shortening: the outflow rose by a tenth or more
// over the last hour; ↑ lengthening); at a level, ⚠ (warning) or ‼
// (critical); past 30 days, "> 30 d" and no end.
func (v *View) runwayCells(x Holding, prefunded bool, sheet runway.Sheet, ledgerOK bool) []cell {
	t := v.ctx.Theme
	same := func(c cell) []cell { return []cell{c, c, c} }
	switch {
	case !prefunded:
		return same(styled(t.Muted, "?"))
	case !x.InPrefunded:
		return same(txt("—"))
	case !ledgerOK && v.snapshot(live.Ledger).Err != nil:
		return same(styled(t.Bad, "?"))
	case !ledgerOK:
		return same(styled(t.Muted, "…"))
	}
	c, ok := sheet.Find(x.Currency)
	if !ok {
		return same(txt("—"))
	}
	r := figures.RunwayOf(c)
	if !r.Runs {
		return []cell{txt(fixed(c.Outflow, 2)), styled(t.OK, r.Text()), txt("—")}
	}
	// The net outflow shown is the pace the runway is at: the last 15
	// minutes' when that is the shorter (marked 15m), so the row
	// reconciles (available / net out = runway).
	pace, rw, end := fixed(r.Pace, 2), r.Text(), "—"
	switch {
	case r.Long:
	case r.By == figures.ByBurn:
		pace, rw = pace+" "+figures.ByBurn, rw+" "+figures.ByBurn
	default:
		rw += trendMark(r.Trend)
	}
	if !r.Long {
		end = figures.EmptyAt(r.Empty, sheet.At)
	}
	switch r.Level {
	case runway.Critical:
		return []cell{txt(pace), styled(t.Bad, "‼ "+rw), styled(t.Bad, end)}
	case runway.Warning:
		return []cell{txt(pace), styled(t.Warn, "⚠ "+rw), txt(end)}
	}
	return []cell{txt(pace), txt(rw), txt(end)}
}

// trendMark is the runway's trend: ↓ shortening (the outflow rises), ↑
// lengthening, nothing when steady or unknown.
func trendMark(tr runway.Trend) string {
	switch tr {
	case runway.Rising:
		return " ↓"
	case runway.Falling:
		return " ↑"
	}
	return ""
}
