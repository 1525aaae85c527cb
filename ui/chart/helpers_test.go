package chart

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"treasury/desk/live"
)

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// styles returns chart styles for a colour profile, coloured like
// ui.Theme's; plain (no colours, no attributes) for NoTTY, as ui.Theme's.
func styles(p colorprofile.Profile) Styles {
	if p <= colorprofile.NoTTY {
		return Styles{}
	}
	c := func(hex string) color.Color { return p.Convert(lipgloss.Color(hex)) }
	return Styles{
		Axis:  lipgloss.NewStyle().Foreground(c("#8a8a8a")),
		Label: lipgloss.NewStyle().Foreground(c("#8a8a8a")),
		Line:  lipgloss.NewStyle().Foreground(c("#7aa2f7")),
	}
}

func plainStyles() Styles { return styles(colorprofile.NoTTY) }

// series returns n points every step from t0, valued f(i).
func series(n int, step time.Duration, f func(i int) float64) []live.Point {
	pts := make([]live.Point, n)
	for i := range pts {
		pts[i] = live.Point{At: t0.Add(time.Duration(i) * step), Value: f(i)}
	}
	return pts
}

// checkSize fails unless s is exactly h lines, none wider than w.
func checkSize(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if h == 0 || w == 0 {
		if s != "" {
			t.Fatalf("size %dx%d: got %q, want empty", w, h, s)
		}
		return
	}
	if len(lines) != h {
		t.Fatalf("size %dx%d: %d lines\n%s", w, h, len(lines), s)
	}
	for i, ln := range lines {
		if got := lipgloss.Width(ln); got > w {
			t.Fatalf("size %dx%d: line %d is %d wide: %q", w, h, i, got, ln)
		}
	}
}
