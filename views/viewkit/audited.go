package viewkit

import (
	tea "charm.land/bubbletea/v2"

	"treasury/data/actions"
	"treasury/ui"
)

// Refuse records an attempt the session refuses (read-only, no
// credential) through act, and flashes why once the line is on disk.
func Refuse(act *actions.Actor, at actions.Attempt, err error) tea.Cmd {
	if act == nil {
		return ui.ErrorCmd(err)
	}
	return func() tea.Msg { return ui.Flash{Err: act.Refused(at, err)} }
}

// OnCancel is the OnCancel of an attempt's confirmation: it records the
// attempt with the reason typed, if any (cancelled; refused for a wrong
// code or a dialog the shell would not open), and then says what was
// cancelled (what: "freeze of transaction …") and that nothing was sent.
func OnCancel(act *actions.Actor, at actions.Attempt, what string) func(ui.Cancelled) tea.Cmd {
	return func(c ui.Cancelled) tea.Cmd {
		return func() tea.Msg {
			at := at
			at.Reason = c.Reason
			var err error
			switch {
			case act == nil:
				err = c.Refused
			case c.Refused != nil:
				err = act.Refused(at, c.Refused)
			default:
				err = act.Cancelled(at, c.WrongCode)
			}
			if err != nil {
				return ui.Flash{Err: err}
			}
			return ui.CancelledFlash(what, c.Reason)
		}
	}
}
