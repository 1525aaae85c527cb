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

func TestSizesHonoured(t *testing.T) {
	data := map[string][]live.Point{
		"empty":  nil,
		"one":    series(1, time.Second, func(int) float64 { return 17.0213 }),
		"flat":   series(50, time.Second, func(int) float64 { return 0 }),
		"rate":   series(8640, 10*time.Second, func(i int) float64 { return 17 + math.Sin(float64(i)/300)/50 }),
		"big":    series(300, time.Minute, func(i int) float64 { return -2e9 + float64(i)*1e7 }),
		"nan":    series(20, time.Minute, func(i int) float64 { return [2]float64{math.NaN(), float64(i)}[i%2] }),
		"allnan": series(3, time.Minute, func(int) float64 { return math.Inf(1) }),
	}
	sizes := [][2]int{{0, 0}, {0, 5}, {5, 0}, {1, 1}, {3, 2}, {15, 3}, {16, 4}, {20, 4}, {17, 9}, {40, 10}, {120, 30}, {200, 50}}
	for _, prof := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.TrueColor} {
		st := styles(prof)
		for name, pts := range data {
			for _, sz := range sizes {
				l := NewLine(st)
				l.SetSize(sz[0], sz[1])
				l.SetSeries(name, pts)
				v := l.View()
				checkSize(t, v, sz[0], sz[1])
				if prof == colorprofile.NoTTY && strings.Contains(v, "\x1b") {
					t.Fatalf("%s %v: escape sequence with the ASCII profile: %q", name, sz, v)
				}
			}
		}
	}
}

func TestColourProfileStylesRuns(t *testing.T) {
	l := NewLine(styles(colorprofile.TrueColor))
	l.SetSize(40, 10)
	l.SetSeries("r", series(30, time.Minute, func(i int) float64 { return float64(i) }))
	v := l.View()
	if !strings.Contains(v, "\x1b[") {
		t.Fatalf("no colour with a TrueColor profile:\n%s", v)
	}
	// One escape sequence per run, not per cell: a 40x10 chart has far fewer
	// than 400 styled runs.
	if n := strings.Count(v, "\x1b["); n > 200 {
		t.Fatalf("%d escape sequences; runs are not merged", n)
	}
}

func TestEmptyShowsMessage(t *testing.T) {
	l := NewLine(plainStyles())
	l.SetSize(30, 5)
	l.SetSeries("USD/MXN", nil)
	lines := strings.Split(l.View(), "\n")
	if len(lines) != 5 || strings.TrimSpace(lines[2]) != "no data yet" {
		t.Fatalf("got %q", lines)
	}
	for _, ln := range lines {
		if len(ln) != 30 {
			t.Fatalf("line %q is not 30 wide", ln)
		}
	}
	l.SetSize(4, 1)
	if got := l.View(); got != "no d" {
		t.Fatalf("cut message: got %q", got)
	}
}

func TestCacheAndRedraws(t *testing.T) {
	l := NewLine(plainStyles())
	pts := series(100, time.Minute, func(i int) float64 { return float64(i % 7) })
	l.SetSize(50, 12)
	l.SetSeries("a", pts)
	v1 := l.View()
	v2 := l.View()
	if v1 != v2 || l.redraws != 1 {
		t.Fatalf("second View redrew: redraws=%d", l.redraws)
	}
	step := func(what string, change func(), redraw bool) {
		t.Helper()
		before := l.redraws
		change()
		l.View()
		if got := l.redraws - before; (got == 1) != redraw || got > 1 {
			t.Fatalf("%s: %d redraws, want redraw=%v", what, got, redraw)
		}
	}
	step("same data, fresh slice", func() { l.SetSeries("a", append([]live.Point(nil), pts...)) }, false)
	step("same size", func() { l.SetSize(50, 12) }, false)
	step("new point", func() { pts = append(pts, live.Point{At: t0.Add(time.Hour * 3), Value: 9}); l.SetSeries("a", pts) }, true)
	step("last value replaced", func() {
		p2 := append([]live.Point(nil), pts...)
		p2[len(p2)-1].Value = 3
		l.SetSeries("a", p2)
	}, true)
	step("renamed", func() { l.SetSeries("b", pts) }, true)
	step("resized", func() { l.SetSize(51, 12) }, true)
	step("cleared", func() { l.SetSeries("b", nil) }, true)
	step("still empty", func() { l.SetSeries("b", []live.Point{}) }, false)
}

// A small known series drawn in plain text: a ramp up, a plateau, a drop.
// ntcharts draws the lowest value on the X axis row and merges the line
// with the axes (└─┴, ┴).
func TestGoldenSmallSeries(t *testing.T) {
	vals := []float64{17.00, 17.01, 17.02, 17.03, 17.04, 17.04, 17.04, 17.00}
	l := NewLine(plainStyles())
	l.SetSize(36, 8)
	l.SetSeries("USD/MXN", series(len(vals), 5*time.Minute, func(i int) float64 { return vals[i] }))
	want := strings.Join([]string{
		"17.0400│              ╭─────────╮   ",
		"17.0333│           ╭──╯         ╰╮  ",
		"17.0267│         ╭─╯             │  ",
		"17.0200│      ╭──╯               ╰╮ ",
		"17.0133│   ╭──╯                   ╰╮",
		"17.0067│ ╭─╯                       │",
		"17.0000└─┴─────────────────────────┴",
		"       09:00 UTC   09:15       09:30",
	}, "\n")
	if got := l.View(); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestYLabels(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		v      float64
		want   string
	}{
		{17.01, 17.03, 17.0213, "17.0213"},
		{0.9, 1.1, 1, "1.000"},
		{5000, 5200, 5040, "5040.00"},
		{1_200_000, 1_300_000, 1_250_000, "1.250M"},
		{10_000, 90_000, 12_500, "12k"},
		{10_000, 20_000, 12_500, "12.5k"},
		{-3e9, 3e9, 1.5e9, "1.5B"},
		{-1, 1, -0.0000001, "0.00"},
	} {
		if got := newYFormat(c.lo, c.hi, 10, 2).label(0, c.v); got != c.want {
			t.Errorf("[%v,%v] %v: got %q, want %q", c.lo, c.hi, c.v, got, c.want)
		}
	}
}

// The caller's styles reach ntcharts' cells: with a TrueColor profile the
// line is drawn in the Line colour and the axes and labels in theirs.
func TestCallerStylesUsed(t *testing.T) {
	st := Styles{
		Axis:  lipgloss.NewStyle().Foreground(lipgloss.Color("#010203")),
		Label: lipgloss.NewStyle().Foreground(lipgloss.Color("#040506")),
		Line:  lipgloss.NewStyle().Foreground(lipgloss.Color("#070809")),
	}
	l := NewLine(st)
	l.SetSize(40, 10)
	l.SetSeries("r", series(30, time.Minute, func(i int) float64 { return float64(i % 5) }))
	v := l.View()
	for name, seq := range map[string]string{"axis": "38;2;1;2;3m", "label": "38;2;4;5;6m", "line": "38;2;7;8;9m"} {
		if !strings.Contains(v, seq) {
			t.Errorf("no %s colour (%q) in:\n%q", name, seq, v)
		}
	}
}

// One point (or points at one instant) is a flat line across the chart.
func TestSinglePointFlatLine(t *testing.T) {
	l := NewLine(plainStyles())
	l.SetSize(30, 6) // value rows 0..4: the value is on row 2, labelled
	l.SetSeries("r", series(1, time.Minute, func(int) float64 { return 17.0213 }))
	lines := strings.Split(l.View(), "\n")
	if !strings.HasPrefix(lines[2], "17.0213") || strings.Count(lines[2], "─") != 30-7-1 {
		t.Fatalf("no flat line at 17.0213:\n%s", strings.Join(lines, "\n"))
	}
}

// Y labels every yStep rows reach the top row for the usual heights.
func TestYStepLabelsTopRow(t *testing.T) {
	for _, rows := range []int{2, 4, 6, 8, 10, 12, 16, 20, 28, 48} {
		s := yStep(rows)
		if s < 1 || rows%s != 0 || s > max(1, rows/3) {
			t.Errorf("rows %d: step %d", rows, s)
		}
	}
}
