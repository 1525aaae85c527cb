package ui

import (
	"bytes"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestCopyPerSession: the id goes to the session's own terminal: plain
// OSC 52; wrapped for tmux's passthrough too when the session's TERM names
// tmux (an SSH client inside tmux); a dumb terminal gets the id in a
// dialog instead, and C shows it in one anywhere.
func TestCopyPerSession(t *testing.T) {
	for _, c := range []struct {
		term   string
		plain  bool
		tmux   bool
		dialog bool
	}{
		{"xterm-256color", true, false, false},
		{"tmux-256color", true, true, false},
		{"screen", true, true, false},
		{"dumb", false, false, true},
	} {
		var out bytes.Buffer
		ctx := testContext("test", false)
		ctx.Output, ctx.Term = &out, c.term
		v := &listView{name: "alpha", rows: []string{"pay-1", "pay-2"}}
		a := NewApp(ctx, v)
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		a.copySelected()
		got := out.String()
		if plain := strings.Contains(got, "\x1b]52;c;cGF5LTE=\x07"); plain != c.plain {
			t.Errorf("%s: plain OSC 52 %v in %q", c.term, plain, got)
		}
		if tmux := strings.Contains(got, "\x1bPtmux;"); tmux != c.tmux {
			t.Errorf("%s: tmux passthrough %v in %q", c.term, tmux, got)
		}
		if dialog := a.overlay == rawOverlay && strings.Contains(a.raw.view(), "pay-1"); dialog != c.dialog {
			t.Errorf("%s: dialog %v", c.term, dialog)
		}
		a.overlay = noOverlay
		a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("C")})
		if a.overlay != rawOverlay || !strings.Contains(a.raw.view(), "pay-1") {
			t.Errorf("%s: C did not show the id", c.term)
		}
	}
}
