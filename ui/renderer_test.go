package ui

import (
	"bytes"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// TestRendererAsksTheTerminalNothing: rendering an adaptive colour (what
// the first frame does) sends no query to the terminal, whatever its TERM:
// a query's answer would arrive on the input the program reads keys from.
func TestRendererAsksTheTerminalNothing(t *testing.T) {
	for _, env := range []map[string]string{
		{"TERM": "xterm-256color"}, {"TERM": "tmux-256color"}, {"TERM": "xterm-256color", "COLORFGBG": "0;15"},
		{"TERM": "dumb"}, {"TERM": "xterm", "NO_COLOR": "1"},
	} {
		var out bytes.Buffer
		r := NewRenderer(&out, func(k string) string { return env[k] }, termenv.WithUnsafe())
		s := r.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#000000", Dark: "#ffffff"}).Render("x")
		if out.Len() != 0 {
			t.Errorf("%v: %q written to the terminal", env, out.String())
		}
		if s == "" {
			t.Errorf("%v: nothing rendered", env)
		}
		if dark := r.HasDarkBackground(); dark != (env["COLORFGBG"] != "0;15") {
			t.Errorf("%v: dark background %v", env, dark)
		}
		plain := env["TERM"] == "dumb" || env["NO_COLOR"] != ""
		if (r.ColorProfile() == termenv.Ascii) != plain {
			t.Errorf("%v: profile %v", env, r.ColorProfile())
		}
	}
}
