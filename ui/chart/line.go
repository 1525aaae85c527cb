// Package chart draws the dashboard's charts with ntcharts
// (github.com/NimbleMarkets/ntcharts): a time-series line chart
// (timeserieslinechart: one mean value per column, box-drawing runes with
// rounded corners, axes and labels laid out by linechart) whose rendered view
// is cached until its data or size changes, and a one-line sparkline
// (sparkline: lower-block columns).
//
// Styles come from the caller, built on the session's renderer (ui.Theme),
// and are the ones handed to ntcharts; the package holds no lipgloss styles
// and no other package-level state. ntcharts draws into its canvas; the
// canvas is rendered here rather than by Canvas.View, one Render per run of
// same-looking cells instead of one per cell, and empty cells as plain
// spaces (so ntcharts' own default styles, made on lipgloss' default
// renderer, are never rendered). Output never exceeds the size it is given
// and degrades to plain text with an ASCII colour profile (NO_COLOR).
package chart

import (
	"time"

	"charm.land/lipgloss/v2"
	tslc "github.com/NimbleMarkets/ntcharts/v2/linechart/timeserieslinechart"

	"treasury/desk/live"
)

// Styles are the styles a chart renders with: Axis for the axis lines, Label
// for the axis values and the empty-state message, Line for the series.
// Build them on the session's renderer (for example Muted and Series[i] of
// ui.Theme); they should only set colours and attributes, not sizes.
type Styles struct {
	Axis, Label, Line lipgloss.Style
}

// Line is a time-series line chart of one named series, time on the X axis
// (HH:MM, UTC) and values on the Y axis. Use it through a pointer.
//
// View is cached: the chart is redrawn only when the series (compared by
// name, length and last point) or the size changed, so calling View on every
// frame is cheap.
type Line struct {
	st   Styles
	w, h int

	name string
	pts  []live.Point
	// from and to, when set, are the span the X axis covers (a window):
	// a time it holds no point of is left blank, never stretched over.
	from, to time.Time

	ts *tslc.Model // ntcharts model: its canvas is kept between drawings of the same size

	view    string
	dirty   bool
	redraws int // number of times the view was drawn; read by tests
}

// NewLine returns an empty line chart of size 0x0 drawn with st.
func NewLine(st Styles) *Line {
	return &Line{st: st, dirty: true}
}

// SetSize sets the chart's size in cells, axes and labels included.
func (l *Line) SetSize(w, h int) {
	w, h = max(w, 0), max(h, 0)
	if w == l.w && h == l.h {
		return
	}
	l.w, l.h = w, h
	l.dirty = true
}

// Size returns the chart's width and height.
func (l *Line) Size() (w, h int) { return l.w, l.h }

// SetSeries replaces the plotted series: pts oldest first, as returned by
// live.Store.History. The chart keeps pts without copying, so the caller
// must not modify them afterwards. A series with the same name, length and
// last point as the current one is taken as unchanged and causes no redraw.
func (l *Line) SetSeries(name string, pts []live.Point) {
	changed := name != l.name || len(pts) != len(l.pts)
	if !changed && len(pts) > 0 {
		a, b := pts[len(pts)-1], l.pts[len(l.pts)-1]
		changed = !a.At.Equal(b.At) || a.Value != b.Value
	}
	l.name, l.pts = name, pts
	if changed {
		l.dirty = true
	}
}

// SetSpan makes the X axis cover from to to (a window), whatever part of
// it the series holds: the time before its first point (a window not held
// whole yet) is left blank, not filled by the points stretched over it.
// Zero times: the series' own span.
func (l *Line) SetSpan(from, to time.Time) {
	if !from.Equal(l.from) || !to.Equal(l.to) {
		l.from, l.to, l.dirty = from, to, true
	}
}

// Name returns the name of the plotted series.
func (l *Line) Name() string { return l.name }

// View returns the chart: exactly h lines of w cells (none when either is
// zero). An empty series shows a "no data yet" line.
func (l *Line) View() string {
	if !l.dirty {
		return l.view
	}
	l.view = l.draw()
	l.redraws++
	l.dirty = false
	return l.view
}

// xLabelFormatter returns the X label formatter of one drawing: HH:MM in
// UTC, or, over a span of two days or more (a 7- or 30-day window), the
// day and hour ("Nov 13 19h": the hours alone would repeat each day); the
// first label suffixed with " UTC", a label already shown left blank.
func xLabelFormatter(span time.Duration) func(int, float64) string {
	layout := "15:04"
	if span >= 48*time.Hour {
		layout = "Jan 2 15h"
	}
	var prev string
	return func(i int, v float64) string {
		hm := time.Unix(int64(v), 0).UTC().Format(layout)
		if i == 0 {
			prev = hm
			return hm + " UTC"
		}
		if hm == prev {
			return ""
		}
		prev = hm
		return hm
	}
}
