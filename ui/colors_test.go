package ui

import (
	"testing"

	"github.com/charmbracelet/colorprofile"
)

// TestColoursFromTheEnvironment: a session's colour profile and background
// come from its environment, asking the terminal nothing (the terminal's
// background answer comes later, as a message): NO_COLOR (any value), an
// empty or dumb TERM are plain text; COLORFGBG says a light background.
func TestColoursFromTheEnvironment(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want colorprofile.Profile
		dark bool
	}{
		{map[string]string{"TERM": "xterm-256color"}, colorprofile.ANSI256, true},
		{map[string]string{"TERM": "tmux-256color"}, colorprofile.ANSI256, true},
		{map[string]string{"TERM": "xterm-256color", "COLORFGBG": "0;15"}, colorprofile.ANSI256, false},
		{map[string]string{"TERM": "xterm-256color", "COLORTERM": "truecolor"}, colorprofile.TrueColor, true},
		{map[string]string{"TERM": "dumb"}, colorprofile.NoTTY, true},
		{map[string]string{}, colorprofile.NoTTY, true},
		{map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, colorprofile.NoTTY, true},
		{map[string]string{"TERM": "xterm-256color", "NO_COLOR": "yes"}, colorprofile.NoTTY, true},
	} {
		getenv := func(k string) string { return c.env[k] }
		if got := ColorProfile(getenv); got != c.want {
			t.Errorf("%v: profile %v, want %v", c.env, got, c.want)
		}
		if got := DarkBackground(getenv("COLORFGBG")); got != c.dark {
			t.Errorf("%v: dark %v, want %v", c.env, got, c.dark)
		}
	}
}
