package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"treasury/ui/uitest"
)

// TestOverlaysStack: an overlay opened over another (a confirmation that
// comes while the help is read) takes the keys and the body; closing it
// shows the one under it, and the keys go to it again; esc on the last
// shows the view. An overlay of the kind on top takes its place.
func TestOverlaysStack(t *testing.T) {
	a := NewApp(testContext("test", false), &listView{name: "alpha", rows: []string{"pay-1"}})
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	a.Update(uitest.Key("?"))
	if a.overlayKind() != helpOverlay {
		t.Fatalf("? opened %v", a.overlayKind())
	}
	a.Update(Confirm{Title: "Freeze", Action: "Freeze", Run: func() tea.Msg { return nil }})
	if a.overlayKind() != confirmOverlay || len(a.overlays) != 2 {
		t.Fatalf("a confirmation over the help: %v, %d deep", a.overlayKind(), len(a.overlays))
	}
	a.Update(Confirm{Title: "Lock", Action: "Lock", Run: func() tea.Msg { return nil }})
	if len(a.overlays) != 2 {
		t.Fatalf("a second confirmation did not take the first's place: %d deep", len(a.overlays))
	}
	a.Update(uitest.Key("esc")) // cancels the dialog
	if a.overlayKind() != helpOverlay {
		t.Fatalf("after the dialog closed: %v", a.overlayKind())
	}
	a.Update(uitest.Key("esc")) // closes the help
	if a.top() != nil {
		t.Fatalf("after esc on the help: %v", a.overlayKind())
	}
	a.Update(uitest.Key(":"))
	a.Update(Confirm{Title: "Freeze", Action: "Freeze", Run: func() tea.Msg { return nil }})
	a.Close() // a session ending ends every dialog on the stack
	if len(a.dialogs()) != 0 {
		t.Fatal("a dialog left open at Close")
	}
}
