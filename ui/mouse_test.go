package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// buttonAt is where label is drawn on the frame: its line and the column
// of its middle (-1 when it is not drawn).
func buttonAt(a *App, label string) (x, y int) {
	for y, line := range strings.Split(ansi.Strip(a.Frame()), "\n") {
		if i := strings.Index(line, label); i >= 0 && strings.Contains(line, "Cancel") {
			return lipgloss.Width(line[:i]) + lipgloss.Width(label)/2, y
		}
	}
	return -1, -1
}

func click(a *App, x, y int) tea.Cmd {
	_, cmd := a.Update(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
	return cmd
}

// TestAClickPressesTheDialogsButtons: a click on Cancel cancels (the
// footer says nothing was sent); a click on the action does what enter on
// it does: with the reason still missing it runs nothing and says why,
// with it typed it runs. A click beside the buttons does nothing.
func TestAClickPressesTheDialogsButtons(t *testing.T) {
	var runs []string
	confirm := func() Confirm {
		return Confirm{Title: "Freeze wallet transaction", Lines: []string{"Transaction  tx-0001"}, Action: "Freeze", Reason: "Reason",
			RunReason: func(r string) tea.Cmd { return func() tea.Msg { runs = append(runs, r); return nil } }}
	}
	a := NewApp(testContext("test", false), &listView{name: "alpha", rows: []string{"a-1"}})
	a.Init()
	defer a.Close()
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})

	a.Update(confirm())
	x, y := buttonAt(a, "Cancel")
	if y < 0 {
		t.Fatalf("no Cancel button drawn:\n%s", ansi.Strip(a.Frame()))
	}
	click(a, x+30, y+5) // beside the buttons
	if a.overlayKind() != confirmOverlay {
		t.Fatal("a click beside the buttons closed the dialog")
	}
	for _, m := range run(click(a, x, y)) {
		a.Update(m)
	}
	if a.overlayKind() != noOverlay || !strings.Contains(a.flash.Text, "nothing sent") {
		t.Fatalf("a click on Cancel: overlay %v, footer %q", a.overlayKind(), a.flash.Text)
	}

	a.Update(confirm())
	x, y = buttonAt(a, "(Freeze)") // not armed yet: no reason
	if y < 0 {
		t.Fatalf("no Freeze button drawn:\n%s", ansi.Strip(a.Frame()))
	}
	run(click(a, x, y))
	if len(runs) != 0 || a.overlayKind() != confirmOverlay || a.shownDialog().hint == "" {
		t.Fatalf("a click on an action not armed: runs %v, hint %q", runs, a.shownDialog().hint)
	}
	for _, r := range "card stolen" {
		a.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	x, y = buttonAt(a, "Freeze")
	for _, m := range run(click(a, x, y)) {
		a.Update(m)
	}
	if len(runs) != 1 || runs[0] != "card stolen" {
		t.Fatalf("a click on the armed action: runs %v", runs)
	}
}
