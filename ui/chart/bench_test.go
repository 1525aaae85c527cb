package chart

import (
	"math"
	"testing"
	"time"

	"treasury/desk/live"
)

// benchSeries is a day of 10-second samples: 8,640 points, as the live
// store keeps for a chart.
func benchSeries() []live.Point {
	return series(8640, 10*time.Second, func(i int) float64 { return 17 + math.Sin(float64(i)/300)/50 })
}

func BenchmarkLineViewCached(b *testing.B) {
	l := NewLine(plainStyles())
	l.SetSize(120, 30)
	pts := benchSeries()
	l.SetSeries("USD/MXN", pts)
	l.View()
	b.ReportAllocs()
	for b.Loop() {
		// What a frame does: hand the store's latest history over, then view.
		l.SetSeries("USD/MXN", pts)
		_ = l.View()
	}
	if l.redraws != 1 {
		b.Fatalf("%d redraws", l.redraws)
	}
}

func BenchmarkLineViewRedraw(b *testing.B) {
	l := NewLine(plainStyles())
	l.SetSize(120, 30)
	a := benchSeries()
	c := append([]live.Point(nil), a...)
	c[len(c)-1].Value += 0.001
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if i++; i%2 == 0 {
			l.SetSeries("USD/MXN", a)
		} else {
			l.SetSeries("USD/MXN", c)
		}
		_ = l.View()
	}
}

func BenchmarkSparkline(b *testing.B) {
	pts := benchSeries()
	st := plainStyles().Line
	b.ReportAllocs()
	for b.Loop() {
		_ = Sparkline(pts, 40, st)
	}
}
