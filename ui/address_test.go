package ui

import (
	"reflect"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/ui/uitest"
)

// private is a view's own message: of a type of another package than
// ui (the shell's own messages are ui's).
type private = time.Duration

// hearing is a view that asks (x) for a private message, through a batch
// and a sequence, and counts the private messages it receives.
type hearing struct {
	*listView
	got int
}

func (h *hearing) Update(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case private:
		h.got += int(m)
		return nil
	case tea.KeyPressMsg:
		if m.String() == "x" {
			one := func() tea.Msg { return private(1) }
			return tea.Batch(one, tea.Sequence(one, FlashCmd("asked")))
		}
	}
	return h.listView.Update(msg)
}

// driveApp drives cmd through the app as the program would, depth first.
func driveApp(a *App, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	msg := cmd()
	switch m := msg.(type) {
	case tea.BatchMsg:
		for _, c := range m {
			driveApp(a, c)
		}
		return
	case nil:
		return
	}
	if cmds, ok := asCmds(msg); ok {
		for _, c := range cmds {
			driveApp(a, c)
		}
		return
	}
	_, next := a.Update(msg)
	driveApp(a, next)
}

func asCmds(msg tea.Msg) ([]tea.Cmd, bool) {
	t := cmdsType()
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Slice && v.Type().ConvertibleTo(t) {
		return v.Convert(t).Interface().([]tea.Cmd), true
	}
	return nil, false
}

// TestAViewReceivesOnlyItsOwnMessages: what a view's command answers goes
// back to that view alone, through batches and sequences; the shell's
// messages (the flash) stay the shell's.
func TestAViewReceivesOnlyItsOwnMessages(t *testing.T) {
	a1 := &hearing{listView: &listView{name: "alpha", rows: []string{"a"}}}
	b1 := &hearing{listView: &listView{name: "bravo", rows: []string{"b"}}}
	app := NewApp(testContext("test", false), a1, b1)
	app.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	_, cmd := app.Update(uitest.Key("x"))
	driveApp(app, cmd)
	if a1.got != 2 || b1.got != 0 {
		t.Fatalf("alpha got %d private messages, bravo %d; want 2 and 0", a1.got, b1.got)
	}
	if app.flash.Text != "asked" {
		t.Fatalf("the shell's flash %q", app.flash.Text)
	}
	if address(route.Alerts, nil) != nil {
		t.Fatal("a nil command addressed is not nil")
	}
}
