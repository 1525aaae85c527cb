package chart

import (
	"math"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/linechart"
	tslc "github.com/NimbleMarkets/ntcharts/v2/linechart/timeserieslinechart"

	"treasury/desk/live"
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

// drawChart draws pts with ntcharts' time-series line chart: Y labels and
// axis on the left, the X axis and its HH:MM labels on the last two rows.
// The series spans the chart (X from its first to its last time, or the
// span set, Y from its lowest to its highest value); each column shows the
// mean of the points (and of the straight lines joining them) that fall
// in it.
func (l *Line) drawChart(pts []live.Point) string {
	t0, t1, v0, v1 := bounds(pts)
	if !l.from.IsZero() && l.to.After(l.from) {
		t0, t1 = min(t0, l.from.Unix()), max(t1, l.to.Unix())
	}
	if t1 == t0 { // one instant: a flat line over a minute
		t1 = t0 + 60
		last := pts[len(pts)-1]
		pts = append(pts[:len(pts):len(pts)], live.Point{At: time.Unix(t1, 0), Value: last.Value})
	}
	if v1 == v0 {
		d := math.Abs(v0) * 1e-3
		if d == 0 {
			d = 1
		}
		v0, v1 = v0-d, v1+d
	}
	rows := l.h - 2 // ntcharts' graph height: all rows but the X axis and its labels
	step := yStep(rows)
	yf := newYFormat(v0, v1, rows, step)
	m := l.model()
	m.XLabelFormatter = xLabelFormatter(time.Duration(t1-t0) * time.Second)
	m.YLabelFormatter = yf.label
	m.SetYStep(step)
	m.ClearAllData()
	m.SetTimeRange(time.Unix(t0, 0), time.Unix(t1, 0))
	m.SetYRange(v0, v1)
	m.SetViewTimeAndYRange(time.Unix(t0, 0), time.Unix(t1, 0), v0, v1)
	if m.GraphWidth() < 2 {
		return block(Sparkline(pts, l.w, l.st.Line), l.w, l.h)
	}
	for _, p := range pts {
		m.Push(tslc.TimePoint{Time: p.At, Value: p.Value})
	}
	m.Draw()
	v := render(&m.Canvas)
	m.ClearAllData() // the model keeps its canvas, not a copy of the series
	return v
}

// model returns the chart's ntcharts model, made anew when the size changed
// (its canvas is the largest allocation of a drawing, so it is kept).
func (l *Line) model() *tslc.Model {
	if l.ts != nil && l.ts.Width() == l.w && l.ts.Height() == l.h {
		return l.ts
	}
	lc := linechart.New(l.w, l.h, 0, 1, 0, 1,
		linechart.WithXYSteps(xLabelGap, 1),
		linechart.WithStyles(l.st.Axis, l.st.Label, l.st.Line))
	// Size 0x0 here: WithLineChart replaces the chart tslc.New would make.
	m := tslc.New(0, 0, tslc.WithLineChart(&lc), tslc.WithStyle(l.st.Line))
	l.ts = &m
	return l.ts
}

// bounds returns the time range (Unix seconds) and value range of pts, which
// must not be empty.
func bounds(pts []live.Point) (t0, t1 int64, v0, v1 float64) {
	t0, t1 = pts[0].At.Unix(), pts[0].At.Unix()
	v0, v1 = pts[0].Value, pts[0].Value
	for _, p := range pts[1:] {
		t := p.At.Unix()
		t0, t1 = min(t0, t), max(t1, t)
		v0, v1 = min(v0, p.Value), max(v1, p.Value)
	}
	return t0, t1, v0, v1
}

// yStep returns the rows between Y labels: about a quarter of rows,
// preferring a divisor of rows so the top row gets a label too.
func yStep(rows int) int {
	s := max(1, rows/4)
	for d := s; d >= max(1, rows/6); d-- {
		if rows%d == 0 {
			return d
		}
	}
	return s
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
