package chart

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"treasury/data/live"
)

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// renderer returns a session-like renderer with the given colour profile.
func renderer(p termenv.Profile) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(p)
	return r
}

// styles returns chart styles on r, coloured like ui.Theme's.
func styles(r *lipgloss.Renderer) Styles {
	return Styles{
		Axis:  r.NewStyle().Foreground(lipgloss.Color("#8a8a8a")),
		Label: r.NewStyle().Foreground(lipgloss.Color("#8a8a8a")),
		Line:  r.NewStyle().Foreground(lipgloss.Color("#7aa2f7")),
	}
}

func plainStyles() Styles { return styles(renderer(termenv.Ascii)) }

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
