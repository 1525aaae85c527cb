package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/ui/uitest"
)

// drive gives the app msg and the messages its commands give, and
// returns those the app does not take (what the program around it gets).
func drive(a *App, msg tea.Msg) []tea.Msg {
	var out []tea.Msg
	queue := []tea.Msg{msg}
	for len(queue) > 0 {
		m := queue[0]
		queue = queue[1:]
		if _, ok := m.(SwitchProfile); ok {
			out = append(out, m)
			continue
		}
		_, cmd := a.Update(m)
		queue = append(queue, run(cmd)...)
	}
	return out
}

// TestCtxCommand: :ctx alone lists the file's profiles in the palette,
// ↓ and enter pick one and ask the program for the switch; a name the
// file has not is refused with the profiles it has, the profile shown
// is said to be the one already, and a session without a file says it
// cannot switch.
func TestCtxCommand(t *testing.T) {
	ctx := testContext("test", false)
	ctx.Profiles = func() []string { return []string{"sandbox", "uat"} }
	app := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	app.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	typeLine := func(keys ...string) []tea.Msg {
		var out []tea.Msg
		for _, k := range keys {
			out = append(out, drive(app, uitest.Key(k))...)
		}
		return out
	}
	typeLine(":", "c", "t", "x", "enter")
	if f := ansi.Strip(app.Frame()); !strings.Contains(f, "ctx sandbox") || !strings.Contains(f, "ctx uat") {
		t.Fatalf(":ctx does not list the profiles:\n%s", f)
	}
	got := typeLine("down", "enter")
	if len(got) != 1 || got[0] != (SwitchProfile{Name: "uat"}) {
		t.Fatalf("↓ enter asked %v, want the switch to uat", got)
	}
	typeLine(":", "c", "t", "x", " ", "p", "r", "o", "d", "enter")
	if f := ansi.Strip(app.Frame()); !strings.Contains(f, `no profile "prod"`) || !strings.Contains(f, "sandbox, uat") {
		t.Errorf("an unknown profile:\n%s", f)
	}
	typeLine(":", "c", "t", "x", " ", "s", "a", "n", "d", "b", "o", "x", "enter")
	if f := ansi.Strip(app.Frame()); !strings.Contains(f, "already on profile sandbox") {
		t.Errorf("the profile shown:\n%s", f)
	}
	ctx.Profiles = nil
	typeLine(":", "c", "t", "x", " ", "u", "a", "t", "enter")
	if f := ansi.Strip(app.Frame()); !strings.Contains(f, "no other profile to switch to") {
		t.Errorf("without a file:\n%s", f)
	}
}
