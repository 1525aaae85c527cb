package viewkit

import (
	tea "charm.land/bubbletea/v2"

	"treasury/desk/actions"
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

// Asking is a view's read before a dialog (the record and the audit log
// read, its key reconciled with the platform), one at a time: while it
// runs, the footer says "waiting for the record…" until the dialog or the
// refusal replaces it, and the key pressed again says so rather than read
// again. The view gives ReadDone messages to Answer.
type Asking struct{ what string }

// ReadDone is what a read started by Ask gave.
type ReadDone struct{ Msg tea.Msg }

// Ask starts read (a command's body: it does the I/O) unless one runs;
// what names it for the footer.
func (a *Asking) Ask(what string, read func() tea.Msg) tea.Cmd {
	if a.what != "" {
		return ui.FlashCmd("still waiting for the record… (" + a.what + "): one read at a time")
	}
	a.what = what
	return tea.Sequence(ui.PendingCmd("waiting for the record… ("+what+")"), func() tea.Msg { return ReadDone{Msg: read()} })
}

// Answer ends the read: its dialog or flash, as a command.
func (a *Asking) Answer(m ReadDone) tea.Cmd {
	a.what = ""
	return func() tea.Msg { return m.Msg }
}
