package ui

import (
	"errors"
	"testing"

	"treasury/ui/uitest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
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
	keys := func(d *dialog, ks ...tea.KeyPressMsg) bool {
		for _, k := range ks {
			if _, done := d.update(k); done {
				return true
			}
		}
		return false
	}
	runes := func(s string) tea.KeyPressMsg { return uitest.Key(s) }
	esc, enter := uitest.Key("esc"), uitest.Key("enter")
	back, fwd := uitest.Key("shift+tab"), uitest.Key("tab")

	ctx := testContext("prod", false)
	for _, tc := range []struct {
		name string
		code string
		ks   []tea.KeyPressMsg
		want Cancelled
	}{
		{"esc", "", []tea.KeyPressMsg{esc}, Cancelled{}},
		{"enter on Cancel", "", []tea.KeyPressMsg{enter}, Cancelled{}},
		// The code field is before Cancel; Confirm with a wrong code says
		// so and goes back to the field; esc then ends it.
		{"wrong code", "0001", []tea.KeyPressMsg{back, runes("0002"), fwd, fwd, enter, esc}, Cancelled{WrongCode: true}},
		{"part of the code", "0001", []tea.KeyPressMsg{back, runes("00"), esc}, Cancelled{}},
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

// A cancel keeps the reason typed (for the audit log) and is never
// silent: without an OnCancel of its own the footer warns, for as long
// as an error, that nothing was sent.
func TestCancelKeepsTheReasonAndSaysNothingWasSent(t *testing.T) {
	var got []Cancelled
	c := Confirm{Title: "Freeze wallet transaction", Action: "Freeze", Reason: "Reason",
		OnCancel: func(c Cancelled) tea.Cmd { got = append(got, c); return nil }}
	d := newDialog(testContext("test", false), c, 1)
	d.update(uitest.Key("shift+tab"))
	typeText(d, " fraud hold ")
	if _, closed := d.update(uitest.Key("esc")); !closed || len(got) != 1 || got[0].Reason != "fraud hold" {
		t.Fatalf("esc after a reason: closed %v, OnCancel %+v", closed, got)
	}
	c.OnCancel = nil
	d = newDialog(testContext("test", false), c, 1)
	cmd, _ := d.update(uitest.Key("esc"))
	msgs := run(cmd)
	if len(msgs) != 1 {
		t.Fatalf("cancel sent %v", msgs)
	}
	f, ok := msgs[0].(Flash)
	if !ok || !f.Warn || f.Text != "cancelled, nothing sent: Freeze wallet transaction" {
		t.Fatalf("cancel flash %+v", msgs[0])
	}
}

// The footer after a cancel: the warning, not the view's keys.
func TestCancelFooterGolden(t *testing.T) {
	c := testFreeze(func(string) tea.Cmd { t.Error("ran"); return nil })
	c.OnCancel = func(cn Cancelled) tea.Cmd {
		return func() tea.Msg { return CancelledFlash("freeze of transaction tx-0001", cn.Reason) }
	}
	tm := actApp(t, "test", c)
	waitFor(t, tm, "tx-0001")
	tm.Type("f")
	waitFor(t, tm, "Reason: suspected fraud")
	tm.Send(keyEsc)
	waitFor(t, tm, "nothing sent")
	golden.RequireEqual(t, []byte(frameOf(t, tm)))
}
