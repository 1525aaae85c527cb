package paymentsview

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/data/live"
	"treasury/data/payments"
	"treasury/ui"
	"treasury/ui/chart"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
)

// chartStates are the states charted, in display order; states the store
// has series for beyond these follow them.
var chartStates = [...]payments.State{payments.Initiated, payments.Validating, payments.Transferring,
	payments.Completed, payments.Failed, payments.Declined, payments.Returned}

// stateChart draws payment counts per state over time as one sparkline per
// state, two columns wide when there is room. The drawing is cached until
// the store's payments snapshot or the size change.
type stateChart struct {
	seq  uint64
	w, h int
	out  string
}

func (c *stateChart) view(ctx *ui.Context, w, h int) string {
	snap := ctx.Store.Snapshot(live.Payments)
	if c.out != "" && snap.Seq == c.seq && w == c.w && h == c.h {
		return c.out
	}
	c.seq, c.w, c.h = snap.Seq, w, h
	c.out = ctx.Chart("payments:states", snap.Seq, w, h, func() string { return drawStateChart(ctx, w, h) })
	return c.out
}

func drawStateChart(ctx *ui.Context, w, h int) string {
	t := ctx.Theme
	names := ctx.Store.Series(live.SeriesStateCount)
	var states []string
	for _, st := range chartStates {
		states = append(states, string(st))
	}
	for _, n := range names {
		st := strings.TrimPrefix(n, live.SeriesStateCount)
		if !slices.Contains(states, st) {
			states = append(states, st)
		}
	}
	cols := 1
	if w >= 90 {
		cols = 2
	}
	rowsNeeded := (len(states) + cols - 1) / cols
	if h < rowsNeeded+1 || w < 30 {
		return ""
	}
	cellW := (w - (cols-1)*3) / cols
	const labelW, countW = payments.StateWidth + 1, 7
	sparkW := cellW - labelW - countW - 2
	// Every state's line spans the history held, from the first count of
	// any state to the last, in the same slots (a state first counted
	// later starts with a gap): the title says how long that is, whatever
	// window the table shows.
	hist := make([][]live.Point, len(states))
	var first, last time.Time
	most := 0
	for i, st := range states {
		pts := ctx.Store.History(live.SeriesStateCount + st)
		hist[i] = pts
		if len(pts) == 0 {
			continue
		}
		if first.IsZero() || pts[0].At.Before(first) {
			first = pts[0].At
		}
		if pts[len(pts)-1].At.After(last) {
			last = pts[len(pts)-1].At
		}
		most = max(most, len(pts))
	}
	slots := min(most, sparkW)
	lines := []string{t.Title.Render("payments per state") +
		t.Muted.Render(" (counts held, "+viewkit.Span(ctx.Store.HistoryWindow(), first, last)+"; UTC; newest right)")}
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
			st, pts := states[i], hist[i]
			n := "—"
			if len(pts) > 0 {
				n = strconv.FormatFloat(pts[len(pts)-1].Value, 'f', 0, 64)
				pts = chart.ResampleOver(pts, first, last, slots)
			}
			style := t.Series[i%len(t.Series)]
			b.WriteString(fmt.Sprintf("%-*s%*s  ", labelW, ansi.Truncate(sanitize.Line(st), labelW-1, "…"), countW, n))
			b.WriteString(chart.Sparkline(pts, sparkW, style))
		}
		lines = append(lines, b.String())
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
