package chart

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
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
	st := styles(renderer(termenv.TrueColor)).Line
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
