package chart

import (
	"math"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"treasury/desk/live"
)

func TestSparkline(t *testing.T) {
	st := plainStyles().Line
	for _, c := range []struct {
		name  string
		vals  []float64
		width int
		want  string
	}{
		{"ramp", []float64{0, 1, 2, 3, 4, 5, 6, 7}, 8, "▁▂▃▄▅▆▇█"},
		{"padded left", []float64{1, 3}, 5, "   ▁█"},
		{"last width points", []float64{100, 0, 1, 2}, 3, "▁▅█"},
		{"flat", []float64{2, 2, 2}, 3, "▄▄▄"},
		{"gap", []float64{0, math.NaN(), 1}, 3, "▁ █"},
		{"empty", nil, 4, "    "},
		{"zero width", []float64{1}, 0, ""},
	} {
		pts := series(len(c.vals), time.Minute, func(i int) float64 { return c.vals[i] })
		if got := Sparkline(pts, c.width, st); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSparklineWidthWithColour(t *testing.T) {
	st := styles(colorprofile.TrueColor).Line
	pts := series(500, time.Second, func(i int) float64 { return math.Sin(float64(i)) })
	for _, w := range []int{1, 2, 10, 499, 500, 501, 1000} {
		s := Sparkline(pts, w, st)
		if got := lipgloss.Width(s); got != w {
			t.Errorf("width %d: got %d", w, got)
		}
		if strings.Contains(s, "\n") {
			t.Errorf("width %d: more than one line", w)
		}
	}
}

// TestResample: many points become n spanning the same time, each the
// value held at its slot; fewer points are kept as they are.
func TestResample(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var pts []live.Point
	for i := range 100 {
		pts = append(pts, live.Point{At: t0.Add(time.Duration(i) * time.Minute), Value: float64(i)})
	}
	got := Resample(pts, 10)
	if len(got) != 10 || !got[0].At.Equal(t0) || !got[9].At.Equal(pts[99].At) || got[9].Value != 99 || got[0].Value != 0 {
		t.Fatalf("resampled %v", got)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Value < got[i-1].Value {
			t.Fatalf("not in order: %v", got)
		}
	}
	if short := Resample(pts[:5], 10); len(short) != 5 {
		t.Fatalf("5 points became %d", len(short))
	}
}

// TestResampleOverLinesSeriesUp: two series over one span become the same
// slots; the one that began later has gaps before its first point.
func TestResampleOverLinesSeriesUp(t *testing.T) {
	early := series(10, time.Minute, func(i int) float64 { return float64(i) })
	late := early[6:]
	a := ResampleOver(early, t0, t0.Add(9*time.Minute), 4)
	b := ResampleOver(late, t0, t0.Add(9*time.Minute), 4)
	for i := range a {
		if !a[i].At.Equal(b[i].At) {
			t.Fatalf("slot %d at %s and %s", i, a[i].At, b[i].At)
		}
	}
	if a[0].Value != 0 || a[1].Value != 3 || a[3].Value != 9 {
		t.Errorf("early series %v", a)
	}
	if !math.IsNaN(b[0].Value) || !math.IsNaN(b[1].Value) || b[2].Value != 6 || b[3].Value != 9 {
		t.Errorf("late series %v", b)
	}
	if got := Sparkline(b, 4, plainStyles().Line); got != "  ▁█" {
		t.Errorf("late series drawn %q", got)
	}
}
