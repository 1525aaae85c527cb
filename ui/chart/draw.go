package chart

import (
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"treasury/data/live"
)

// Smallest size drawn with axes; anything smaller shows a sparkline.
const (
	minChartW = 16
	minChartH = 4
	xLabelGap = 12 // columns between X label positions
)

// draw renders the chart at its current size and series.
func (l *Line) draw() string {
	if l.w == 0 || l.h == 0 {
		return ""
	}
	pts := finite(l.pts)
	if len(pts) == 0 {
		return message(l.w, l.h, "no data yet", l.st.Label)
	}
	if l.w < minChartW || l.h < minChartH {
		return block(Sparkline(pts, l.w, l.st.Line), l.w, l.h)
	}
	return l.drawChart(pts)
}

// drawChart lays out the Y labels and axis on the left, the X axis and its
// time labels on the last two rows, and the series in between.
func (l *Line) drawChart(pts []live.Point) string {
	t0, t1 := pts[0].At.Unix(), pts[0].At.Unix()
	v0, v1 := pts[0].Value, pts[0].Value
	for _, p := range pts[1:] {
		t := p.At.Unix()
		t0, t1 = min(t0, t), max(t1, t)
		v0, v1 = min(v0, p.Value), max(v1, p.Value)
	}
	if t1 == t0 {
		t1 = t0 + 60
	}
	if v1 == v0 {
		d := math.Abs(v0) * 1e-3
		if d == 0 {
			d = 1
		}
		v0, v1 = v0-d, v1+d
	}
	rows := l.h - 2 // plot rows; then the X axis row and the label row
	yStep := max(1, rows/4)
	yf := newYFormat(v0, v1, rows, yStep)
	rowValue := func(r int) float64 { // r counts from the top plot row
		if rows == 1 {
			return v1
		}
		return v1 - (v1-v0)*float64(r)/float64(rows-1)
	}

	// Y labels, from the bottom row up every yStep rows, and the top row
	// when the last one is not next to it; repeats hidden.
	labels := make([]string, rows)
	lw, last, top := 0, "", rows-1
	put := func(r int) {
		if s := yf.label(0, rowValue(r)); s != last {
			labels[r], last = s, s
			lw = max(lw, len(s))
		}
		top = r
	}
	for r := rows - 1; r >= 0; r -= yStep {
		put(r)
	}
	if top >= 2 {
		put(0)
	}
	gw := l.w - lw - 1 // plot columns, right of the Y axis
	if gw < 2 {
		return block(Sparkline(pts, l.w, l.st.Line), l.w, l.h)
	}

	g := newGrid(l.w, l.h)
	for r, s := range labels {
		g.text(lw-len(s), r, s, roleLabel)
	}
	for r := range rows {
		g.set(lw, r, '│', roleAxis)
	}
	g.set(lw, rows, '└', roleAxis)
	for x := lw + 1; x < l.w; x++ {
		g.set(x, rows, '─', roleAxis)
	}
	l.xLabels(g, lw+1, gw, t0, t1)

	ys := columnRows(pts, gw, t0, t1, v0, v1, rows)
	plot(g, lw+1, ys)
	return g.render(l.st)
}

// xLabels writes HH:MM (UTC) times under the X axis every xLabelGap columns,
// the first suffixed " UTC"; a label that would not fit or repeats the
// previous one is left out.
func (l *Line) xLabels(g *grid, x0, gw int, t0, t1 int64) {
	label := xLabelFormatter()
	next := x0
	for c := 0; c < gw; c += xLabelGap {
		x := x0 + c
		if x < next {
			continue
		}
		t := float64(t0) + float64(t1-t0)*float64(c)/float64(max(gw-1, 1))
		s := label(c, t)
		if s == "" || x+len(s) > g.w {
			continue
		}
		g.text(x, g.h-1, s, roleLabel)
		next = x + len(s) + 1
	}
}

// columnRows maps the series onto gw columns: each column takes the mean of
// the points falling in it (gaps are joined by straight lines) and is turned
// into a plot row, 0 at the top.
func columnRows(pts []live.Point, gw int, t0, t1 int64, v0, v1 float64, rows int) []int {
	sum := make([]float64, gw)
	n := make([]int, gw)
	span := float64(t1 - t0)
	for _, p := range pts {
		c := int(math.Round(float64(p.At.Unix()-t0) / span * float64(gw-1)))
		c = min(max(c, 0), gw-1)
		sum[c] += p.Value
		n[c]++
	}
	// Fill empty columns by interpolating between their neighbours.
	prev := -1
	for c := range gw {
		if n[c] == 0 {
			continue
		}
		sum[c] /= float64(n[c])
		if prev >= 0 {
			for k := prev + 1; k < c; k++ {
				f := float64(k-prev) / float64(c-prev)
				sum[k] = sum[prev] + (sum[c]-sum[prev])*f
				n[k] = -1 // interpolated
			}
		}
		prev = c
	}
	ys := make([]int, 0, gw)
	for c := range gw {
		if n[c] == 0 {
			ys = append(ys, -1) // outside the data
			continue
		}
		r := int(math.Round((v1 - sum[c]) / (v1 - v0) * float64(rows-1)))
		ys = append(ys, min(max(r, 0), rows-1))
	}
	return ys
}

// plot draws a line through one row per column, starting at column x0, with
// rounded corners where it climbs or falls (as ntcharts does).
func plot(g *grid, x0 int, ys []int) {
	prev := -1
	for i, y := range ys {
		x := x0 + i
		switch {
		case y < 0:
		case prev < 0 || y == prev:
			g.set(x, y, '─', roleLine)
		case y < prev: // climbing: leave the previous row up, arrive heading right
			g.set(x, prev, '╯', roleLine)
			for r := prev - 1; r > y; r-- {
				g.set(x, r, '│', roleLine)
			}
			g.set(x, y, '╭', roleLine)
		default: // falling
			g.set(x, prev, '╮', roleLine)
			for r := prev + 1; r < y; r++ {
				g.set(x, r, '│', roleLine)
			}
			g.set(x, y, '╰', roleLine)
		}
		prev = y
	}
}

// finite returns pts without NaN or infinite values (pts itself when all
// are finite).
func finite(pts []live.Point) []live.Point {
	for i, p := range pts {
		if !ok(p.Value) {
			out := append([]live.Point(nil), pts[:i]...)
			for _, q := range pts[i+1:] {
				if ok(q.Value) {
					out = append(out, q)
				}
			}
			return out
		}
	}
	return pts
}

// message returns h lines of w blank cells with text centred on the middle
// line, cut to w cells.
func message(w, h int, text string, st lipgloss.Style) string {
	if len(text) > w {
		text = text[:w]
	}
	left := (w - len(text)) / 2
	line := strings.Repeat(" ", left) + st.Render(text) + strings.Repeat(" ", w-left-len(text))
	return block(line, w, h)
}

// block returns h lines: mid on the middle one, the others w blank cells.
func block(mid string, w, h int) string {
	blank := strings.Repeat(" ", w)
	lines := make([]string, h)
	for i := range lines {
		lines[i] = blank
	}
	lines[(h-1)/2] = mid
	return strings.Join(lines, "\n")
}
