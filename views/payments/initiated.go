package paymentsview

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/desk/history"
	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/ui"
	"treasury/ui/chart"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
)

// drawInitiatedChart draws the payments initiated in the window win per
// state they are in now, as read from the history file (in): one
// sparkline per state, a column per span of the window (the file's
// buckets summed: every column the same length, none split between two),
// and beside it their sum. Columns before the oldest minute the file holds
// in the window are blank: the title says how much of the window is held
// ("last 7d window, 2d3h held") and how long a column is. While the window
// is not held whole (the chart is building) its sums would be of the part
// held, beside the scope line's counts of the whole window: it shows none
// ("…"), and says so. It reads nothing: a drawing costs the same whatever
// the window.
func drawInitiatedChart(ctx *ui.Context, in paystats.Initiated, win time.Duration, w, h int) string {
	t := ctx.Theme
	all := in.States
	g, ok := gridOf(len(all), w, h)
	if !ok || g.sparkW < 1 {
		return ""
	}
	cols, sparkW, rowsNeeded := g.cols, g.sparkW, g.rows
	now := in.At
	// The file's buckets of the read, per of them to a column: as many
	// columns as fit, every one of whole buckets.
	start, bucket, n := history.Buckets(in.From, in.At, live.ArchivePoints)
	per := (n + sparkW - 1) / sparkW
	columns := (n + per - 1) / per
	series := in.Series
	var first time.Time
	firstCol := columns
	for _, pts := range series {
		if len(pts) > 0 {
			if first.IsZero() || pts[0].At.Before(first) {
				first = pts[0].At
			}
			firstCol = min(firstCol, int(pts[0].At.Sub(start)/bucket)/per)
		}
	}
	span := viewkit.Span(win, first, now)
	if first.IsZero() {
		span = viewkit.Span(win, time.Time{}, time.Time{})
	}
	building := !viewkit.Whole(win, first, now)
	if building {
		span += "; building: counts in the scope line"
	}
	lines := []string{t.Title.Render("payments initiated per state now, last "+windowWord(win)) +
		t.Muted.Render(" ("+span+"; "+viewkit.Duration(bucket*time.Duration(per))+" a column; history file; UTC)")}
	for r := range rowsNeeded {
		var b strings.Builder
		for c := range cols {
			i := r + c*rowsNeeded
			if i >= len(all) {
				break
			}
			if c > 0 {
				b.WriteString("   ")
			}
			n, line := "—", []live.Point(nil)
			if pts := series[i]; len(pts) > 0 {
				line = make([]live.Point, columns)
				for k := range line {
					line[k] = live.Point{At: start.Add(bucket * time.Duration((k+1)*per)), Value: math.NaN()}
					if k >= firstCol {
						line[k].Value = 0
					}
				}
				sum := 0.0
				for _, p := range pts {
					if k := int(p.At.Sub(start)/bucket) / per; k >= 0 && k < columns {
						line[k].Value += p.Value
						sum += p.Value
					}
				}
				n = strconv.FormatFloat(sum, 'f', 0, 64)
				if building {
					n = "…"
				}
			}
			style := t.Series[i%len(t.Series)]
			b.WriteString(fmt.Sprintf("%-*s%*s  ", gridLabelW, ansi.Truncate(sanitize.Line(string(all[i])), gridLabelW-1, "…"), gridCountW, n))
			b.WriteString(chart.Sparkline(line, sparkW, style))
		}
		lines = append(lines, b.String())
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
