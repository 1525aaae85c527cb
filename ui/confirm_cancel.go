package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/ui/sanitize"
)

// cancel is the command of a dialog closed without confirming: the
// confirmation's OnCancel (which records the attempt with the reason
// typed, then says so), or a warning that names what was cancelled and
// that nothing was sent: a cancel is never silent. A code typed in full
// that does not match is a wrong code; one typed in part is a change of
// mind.
func (d *dialog) cancel(ended bool) tea.Cmd {
	if d.c.OnCancel == nil {
		return func() tea.Msg { return CancelledFlash(d.c.Title, "") }
	}
	typed := d.code.Value()
	return d.c.OnCancel(Cancelled{Ended: ended, Reason: strings.TrimSpace(d.reason.Value()),
		WrongCode: d.c.TypeToConfirm != "" && len([]rune(typed)) >= len([]rune(d.c.TypeToConfirm)) && typed != d.c.TypeToConfirm})
}

// CancelledFlash is the footer's warning for a confirmation closed
// without its action: what was cancelled (what), that nothing was sent,
// and where the reason typed went.
func CancelledFlash(what, reason string) Flash {
	text := "cancelled, nothing sent: " + sanitize.Line(what)
	if reason != "" {
		text += " · reason kept in the audit log"
	}
	return Flash{Text: text, Warn: true}
}

// ended runs the cancel of a dialog left open when the session ends, at
// once: there is no update loop left to run it (OnCancel's command is a
// plain function, not a batch). A dialog whose action was started is not
// cancelled: the action's own outcome is recorded.
func (d *dialog) ended() {
	if d.state != asking {
		return
	}
	if cmd := d.cancel(true); cmd != nil {
		cmd()
	}
}
