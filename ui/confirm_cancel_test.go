package ui

import (
	"errors"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// Every way a confirmation ends without its action reaches OnCancel once,
// saying which: esc, enter on Cancel, a code typed in full that does not
// match (a part of one is a change of mind), the session ending with the
// dialog open, and the shell refusing to open it in a read-only session.
func TestOnCancelSaysHowTheDialogEnded(t *testing.T) {
	var got []Cancelled
	confirm := func(code string) Confirm {
		return Confirm{Title: "Lock", TypeToConfirm: code, Action: "Lock", Run: func() tea.Msg { t.Error("ran"); return nil },
			OnCancel: func(c Cancelled) tea.Cmd { got = append(got, c); return nil }}
	}
	keys := func(d *dialog, ks ...tea.KeyMsg) bool {
		for _, k := range ks {
			if _, done := d.update(k); done {
				return true
			}
		}
		return false
	}
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	esc, enter := tea.KeyMsg{Type: tea.KeyEsc}, tea.KeyMsg{Type: tea.KeyEnter}
	back, fwd := tea.KeyMsg{Type: tea.KeyShiftTab}, tea.KeyMsg{Type: tea.KeyTab}

	ctx := testContext("prod", false)
	for _, tc := range []struct {
		name string
		code string
		ks   []tea.KeyMsg
		want Cancelled
	}{
		{"esc", "", []tea.KeyMsg{esc}, Cancelled{}},
		{"enter on Cancel", "", []tea.KeyMsg{enter}, Cancelled{}},
		// The code field is before Cancel; Confirm with a wrong code says
		// so and goes back to the field; esc then ends it.
		{"wrong code", "0001", []tea.KeyMsg{back, runes("0002"), fwd, fwd, enter, esc}, Cancelled{WrongCode: true}},
		{"part of the code", "0001", []tea.KeyMsg{back, runes("00"), esc}, Cancelled{}},
	} {
		got = nil
		d := newDialog(ctx, confirm(tc.code), 1)
		if !keys(d, tc.ks...) || len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: OnCancel got %+v, want %+v", tc.name, got, tc.want)
		}
	}

	got = nil
	app := NewApp(ctx)
	app.Update(confirm(""))
	app.Close()
	if len(got) != 1 || !got[0].Ended {
		t.Errorf("session ended with the dialog open: %+v", got)
	}

	got = nil
	ro := NewApp(testContext("prod", true))
	ro.Update(confirm(""))
	if len(got) != 1 || !errors.Is(got[0].Refused, ErrReadOnly) {
		t.Errorf("read-only: %+v", got)
	}
}
