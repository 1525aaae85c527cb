package chart

import (
	"math"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/sparkline"

	"treasury/desk/live"
)

// Sparkline returns a one-line sparkline of the last width points of pts,
// scaled between their minimum and maximum, styled with st (which should set
// colours only). When there are fewer points than width it is padded on the
// left with spaces, so the newest point is always at the right edge; the
// result is always width cells wide. A flat series is drawn at mid height
// and NaN or infinite values as gaps.
//
// It is drawn by ntcharts' sparkline (one row of lower-block columns): each
// value is handed over as a fraction of the row, from 1/8 (▁, the minimum)
// to 1 (█, the maximum), which ntcharts rounds to the nearest eighth.
func Sparkline(pts []live.Point, width int, st lipgloss.Style) string {
	if width <= 0 {
		return ""
	}
	if len(pts) > width {
		pts = pts[len(pts)-width:]
	}
	if len(pts) == 0 {
		return strings.Repeat(" ", width)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		if ok(p.Value) {
			lo, hi = min(lo, p.Value), max(hi, p.Value)
		}
	}
	m := sparkline.New(width, 1, sparkline.WithStyle(st), sparkline.WithNoAutoMaxValue(), sparkline.WithMaxValue(1))
	for _, p := range pts {
		switch {
		case !ok(p.Value):
			m.Push(0) // no column: a gap
		case hi == lo:
			m.Push(0.5) // ▄
		default:
			m.Push(1.0/8 + (p.Value-lo)/(hi-lo)*7/8)
		}
	}
	m.DrawColumnsOnly()
	return render(&m.Canvas)
}

func ok(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Resample reduces pts (oldest first) to at most n points evenly spaced in
// time between the first and the last, each the last value at or before its
// slot, so that a sparkline spans the whole history given, not its last n
// points.
func Resample(pts []live.Point, n int) []live.Point {
	if len(pts) <= n || n < 2 {
		return pts
	}
	first, last := pts[0].At, pts[len(pts)-1].At
	step := last.Sub(first) / time.Duration(n-1)
	out := make([]live.Point, 0, n)
	j := 0
	for i := range n {
		at := first.Add(step * time.Duration(i))
		if i == n-1 {
			at = last
		}
		for j+1 < len(pts) && !pts[j+1].At.After(at) {
			j++
		}
		out = append(out, live.Point{At: at, Value: pts[j].Value})
	}
	return out
}

// ResampleOver is pts (oldest first) at n slots evenly spaced in time from
// from to to, each the last value at or before its slot; a slot before the
// first point is NaN (a gap in a sparkline). Series resampled over the
// same span and n line up in time, though one began later than another.
func ResampleOver(pts []live.Point, from, to time.Time, n int) []live.Point {
	if n < 1 {
		return nil
	}
	var step time.Duration
	if n > 1 {
		step = to.Sub(from) / time.Duration(n-1)
	}
	out := make([]live.Point, 0, n)
	j := -1 // the last point at or before the slot
	for i := range n {
		at := from.Add(step * time.Duration(i))
		if i == n-1 {
			at = to
		}
		for j+1 < len(pts) && !pts[j+1].At.After(at) {
			j++
		}
		v := math.NaN()
		if j >= 0 {
			v = pts[j].Value
		}
		out = append(out, live.Point{At: at, Value: v})
	}
	return out
}
