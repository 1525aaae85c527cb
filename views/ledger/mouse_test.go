package ledger_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"treasury/ui"
	errorsview "treasury/views/errors"
	"treasury/views/ledger"
	"treasury/views/viewtest"
)

// TestMouse: a click on a row selects it (the marker moves there), the
// wheel scrolls, and a click on a tab opens it.
func TestMouse(t *testing.T) {
	e := shared.Env(t)
	v := ledger.New(e.Ctx, e.P)
	tm := e.Program(t, v, errorsview.New(e.Ctx))
	viewtest.WaitFor(t, tm, "After")
	// The body starts on line 3: its status line, the table's header, rows.
	tm.Send(tea.MouseClickMsg{X: 5, Y: 3 + 2 + 3, Button: tea.MouseLeft})
	tm.Send(tea.MouseWheelMsg{X: 5, Y: 10, Button: tea.MouseWheelDown})
	tm.Send(tea.MouseClickMsg{X: 16, Y: 2, Button: tea.MouseLeft}) // "2 Errors"
	viewtest.WaitFor(t, tm, "no call has failed")
	frame := viewtest.Frame(t, tm)
	if !strings.Contains(frame, "[2 Errors]") {
		t.Fatalf("the click on the tab did not open it:\n%s", frame)
	}
	id, _, _ := ui.SelectedOf(v)
	rows := strings.Split(v.Render(120, 36), "\n")
	if !strings.HasPrefix(rows[2+3+3], "▸") || id == "" { // the click on row 3, then the wheel by 3
		t.Fatalf("selected %q; rows:\n%s", id, strings.Join(rows[:8], "\n"))
	}
}
