package paymentsview

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/ui"
	"treasury/ui/chart"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/payments"
)

// chartStates are the states charted first, in display order; the other
// states counted follow them.
var chartStates = [...]payments.State{payments.Initiated, payments.Validating, payments.Transferring,
	payments.Completed, payments.Failed, payments.Declined, payments.Returned}

// stateChart draws the payments of the view's window per state over time,
// one sparkline per state, two columns wide when there is room. With a
// history file (the dashboard keeps one), the payments initiated per
// state over the whole window, as read from it once per fetch for every
// session (paystats.InitiatedHistory; drawInitiatedChart: 7 or 30 days
// after a restart); without one, the window's own history
// (paystats.StateHistories: counted at every poll while it is watched). Either
// is drawn once per change for every session (ui.Context.Chart), and kept
// by the session until its data or the size change.
type stateChart struct {
	key     live.Key[paystats.StateHistory]
	from    live.Key[paystats.Initiated]
	version uint64
	w, h    int
	out     string
}

// stateChartKey is the key of the state chart of a window, drawn once
// for every session (ui.Chart): of the states held, or (initiated) of the
// history file's initiations.
type stateChartKey struct {
	win       time.Duration
	initiated bool
}

func (c *stateChart) view(ctx *ui.Context, key live.Key[paystats.StateHistory], from live.Key[paystats.Initiated],
	win time.Duration, w, h int) string {
	got, file := live.Get(ctx.Store, key), live.Get(ctx.Store, from)
	archived := file.Data.Archived
	version, what := got.Version, stateChartKey{win: win}
	if archived {
		version, what = file.Version, stateChartKey{win: win, initiated: true}
	}
	if c.out != "" && key == c.key && from == c.from && version == c.version && w == c.w && h == c.h {
		return c.out
	}
	c.key, c.from, c.version, c.w, c.h = key, from, version, w, h
	c.out = ui.Chart(ctx, what, version, w, h, func() string {
		if archived {
			return fitLines(drawInitiatedChart(ctx, file.Data, win, w, h), w)
		}
		return fitLines(drawStateChart(ctx, got.Data, win, w, h), w) // cut once, with the drawing
	})
	return c.out
}

// grid is how a chart of states lays out in w×h: one or two columns of
// cells, each a state's label, its sparkline and its count.
type grid struct{ cols, rows, sparkW int }

// Widths of a cell's label and count.
const gridLabelW, gridCountW = payments.StateWidth + 1, 7

// gridOf lays out n states in w×h; false when they do not fit.
func gridOf(n, w, h int) (grid, bool) {
	cols := 1
	if w >= 90 {
		cols = 2
	}
	rows := (n + cols - 1) / cols
	if h < rows+1 || w < 30 {
		return grid{}, false
	}
	cellW := (w - (cols-1)*3) / cols
	return grid{cols: cols, rows: rows, sparkW: cellW - gridLabelW - gridCountW - 2}, true
}

func drawStateChart(ctx *ui.Context, hist paystats.StateHistory, win time.Duration, w, h int) string {
	t := ctx.Theme
	states := slices.Clone(chartStates[:])
	for _, st := range hist.States {
		if !slices.Contains(states, st) {
			states = append(states, st)
		}
	}
	g, ok := gridOf(len(states), w, h)
	if !ok {
		return ""
	}
	cols, sparkW, rowsNeeded := g.cols, g.sparkW, g.rows
	// Every state's line spans the history of the window held, in the same
	// slots; a time the window was not held is a gap, never a line joined
	// to counts of another window.
	pts := hist.Points
	if n := len(pts); n == 0 || hist.Latest.At.After(pts[n-1].At) {
		pts = append(slices.Clip(pts), hist.Latest)
	}
	first, last := hist.Span()
	slots := min(len(pts), sparkW)
	lines := []string{t.Title.Render("payments per state, last "+windowWord(win)) +
		t.Muted.Render(" (chart of the "+viewkit.Span(ctx.Store.HistoryWindow(), first, last)+"; counted at each poll; UTC; newest right)")}
	for r := range rowsNeeded {
		var b strings.Builder
		for c := range cols {
			i := r + c*rowsNeeded
			if i >= len(states) {
				break
			}
			if c > 0 {
				b.WriteString("   ")
			}
			st := states[i]
			n := "—"
			var series []live.Point
			if slices.Contains(hist.States, st) {
				series = make([]live.Point, len(pts))
				for k, p := range pts {
					v := math.NaN()
					if !p.Gap {
						v = float64(hist.Count(p, st))
					}
					series[k] = live.Point{At: p.At, Value: v}
				}
				if !hist.Latest.Gap && !hist.Latest.At.IsZero() {
					n = strconv.Itoa(hist.Count(hist.Latest, st))
				}
				series = chart.ResampleOver(series, first, last, slots)
			}
			style := t.Series[i%len(t.Series)]
			b.WriteString(fmt.Sprintf("%-*s%*s  ", gridLabelW, ansi.Truncate(sanitize.Line(string(st)), gridLabelW-1, "…"), gridCountW, n))
			b.WriteString(chart.Sparkline(series, sparkW, style))
		}
		lines = append(lines, b.String())
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
