package viewtest

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/uitest"
	"treasury/views/viewkit"
)

// WaitAll waits until the program's screen shows every string of want at
// once (all answers of a page's calls arrived).
func WaitAll(t testing.TB, tm *teatest.TestModel, want ...string) {
	t.Helper()
	uitest.WaitFor(t, tm, Width, Height, 45*time.Second, want...)
}

// Drive runs cmd synchronously as the shell would for a view's own calls:
// batches are opened, the answers of its reads (viewkit.Fetched) and
// calls (a viewkit.Reply) are given to v and what that returns is driven
// in turn. Every other message (flashes,
// confirmations, the views' own messages) is returned, in order.
func Drive(v ui.View, cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	var out []tea.Msg
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			out = append(out, Drive(v, c)...)
		}
	case viewkit.Fetched, viewkit.Reply:
		out = append(out, Drive(v, v.Update(msg))...)
	case nil:
	default:
		// A tea.Sequence (its message type is unexported): its commands
		// in order.
		cmdsType := reflect.TypeFor[[]tea.Cmd]()
		if rv := reflect.ValueOf(msg); rv.Kind() == reflect.Slice && rv.Type().ConvertibleTo(cmdsType) {
			for _, c := range rv.Convert(cmdsType).Interface().([]tea.Cmd) {
				out = append(out, Drive(v, c)...)
			}
			return out
		}
		out = append(out, msg)
	}
	return out
}

// Key is one key press: "enter", "esc", "tab", "shift+tab", "down", "up", or the runes
// of s as one message (uitest.Key).
func Key(s string) tea.KeyPressMsg { return uitest.Key(s) }

// Fits fails t for each line of out wider than w columns, and if out has
// more than h lines; what names the frame in the messages.
func Fits(t testing.TB, what, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) > h {
		t.Errorf("%s: %d lines, want at most %d", what, len(lines), h)
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Errorf("%s: line %d is %d wide: %q", what, i, lw, l)
		}
	}
}

// Harmful returns the first character of s that a terminal would
// interpret rather than show (what ui/sanitize escapes): a control other
// than the newline, a format character such as a bidi override or a zero
// width space, a line or paragraph separator, or an invalid byte. The tests
// render without colour, so an escape in a frame can only be the data's.
func Harmful(s string) (rune, bool) {
	for _, r := range s {
		if r != '\n' && !sanitize.Safe(string(r)) {
			return r, true
		}
	}
	return 0, false
}
