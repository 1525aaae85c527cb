package screen

import (
	"fmt"
	"io"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
)

// wideFrame is a 120x40 frame like the quotes view's: a styled header,
// 36 styled table rows starting at row first, a footer.
func wideFrame(first int) string {
	bold := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ff8700"))
	cell := lipgloss.NewStyle().Foreground(lipgloss.Color("#87afff"))
	lines := []string{bold.Render("treasury") + "  sb  [TEST]  2026-11-28 22:03 UTC  token 58m",
		"liquidity ● <10s  payments ● <10s  auth ● <30s", "Created (UTC)       Pair      Side            Bid        Ask"}
	for i := range 36 {
		n := first + i
		lines = append(lines, cell.Render(fmt.Sprintf("2026-11-28 22:03:%02d GBP/USD   SELL   %10d.27246 %10d.27285     28128.84     35792.82 ACTIVE   22:04:10 a1fb1430-3205-…", n%60, n, n+1)))
	}
	lines = append(lines, "10800 rows")
	return strings.Join(lines, "\n")
}

// BenchmarkFrame is what drawing a 120x40 frame costs: a frame that
// changed in one line (an age in the header), and one whose table rows
// all moved down (a new quote), each after the frame before; "whole" is
// what bubbletea's renderer does with every changed frame (parse the
// whole frame into cells, compare every line).
func BenchmarkFrame(b *testing.B) {
	a, moved := wideFrame(0), wideFrame(1)
	oneLine := strings.Replace(a, "<10s  auth", "<20s  auth", 1)
	for _, c := range []struct {
		name string
		next string
	}{{"one-line", oneLine}, {"rows-moved", moved}} {
		b.Run(c.name, func(b *testing.B) {
			s := New(io.Discard, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, 120, 40, nil)
			frames := [2]string{a, c.next}
			s.d.frame(tea.View{Content: a}, 120, 40, false, false)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				i++
				s.d.frame(tea.View{Content: frames[i%2]}, 120, 40, false, false)
			}
		})
	}
	// Twenty screens of one process shown the same frames (sessions at
	// one size on one view): the cost per screen of each frame.
	b.Run("shared-by-20/rows-moved", func(b *testing.B) {
		f := NewFrames()
		screens := make([]*Screen, 20)
		for i := range screens {
			screens[i] = New(io.Discard, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, 120, 40, f)
			screens[i].d.frame(tea.View{Content: a}, 120, 40, false, false)
		}
		frames := [2]string{a, moved}
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			i++
			v := tea.View{Content: frames[(i/len(screens))%2]}
			screens[i%len(screens)].d.frame(v, 120, 40, false, false)
		}
	})
	b.Run("whole/rows-moved", func(b *testing.B) {
		r := uv.NewTerminalRenderer(io.Discard, []string{"TERM=xterm-256color"})
		r.SetColorProfile(colorprofile.ANSI256)
		r.SetFullscreen(true)
		buf := uv.NewScreenBuffer(120, 40)
		frames := [2]string{a, moved}
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			i++
			buf.Clear()
			uv.NewStyledString(frames[i%2]).Draw(buf, buf.Bounds())
			r.Render(buf.RenderBuffer)
			_ = r.Flush()
		}
	})
}

// uvRenderer is a renderer given every frame whole, as bubbletea's is
// (each frame parsed into a cleared buffer, every line compared), on the
// alternate screen: what a Screen is measured against.
func uvRenderer(w io.Writer, width, height int) func(frame string) {
	r := uv.NewTerminalRenderer(w, []string{"TERM=xterm-256color"})
	r.SetColorProfile(colorprofile.ANSI256)
	r.SetTabStops(-1)
	r.SetMapNewline(true)
	r.SetScrollOptim(true)
	r.Resize(width, height)
	r.EnterAltScreen()
	buf := uv.NewScreenBuffer(width, height)
	return func(frame string) {
		buf.Clear()
		uv.NewStyledString(frame).Draw(buf, buf.Bounds())
		r.Render(buf.RenderBuffer)
		_ = r.Flush()
	}
}
