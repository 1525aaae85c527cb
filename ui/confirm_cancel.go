package ui

import tea "github.com/charmbracelet/bubbletea"

// cancel is the command of a dialog closed without confirming: the
// confirmation's OnCancel (which records the attempt, then says so), or
// the "cancelled" flash. A code typed in full that does not match is a
// wrong code; one typed in part is a change of mind.
func (d *dialog) cancel(ended bool) tea.Cmd {
	if d.c.OnCancel == nil {
		return FlashCmd("cancelled: " + d.c.Title)
	}
	typed := d.code.Value()
	return d.c.OnCancel(Cancelled{Ended: ended,
		WrongCode: d.c.TypeToConfirm != "" && len([]rune(typed)) >= len([]rune(d.c.TypeToConfirm)) && typed != d.c.TypeToConfirm})
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
