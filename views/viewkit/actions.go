package viewkit

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"treasury/data/actions"
	"treasury/data/apierr"
	"treasury/ui"
)

// RetryNote is what a confirmation says of an action that reuses the
// idempotency key (keyName: "mutationId", "intent id") of an attempt whose
// outcome is unknown: "retry of <key>, first sent <time> by <who>", why its
// outcome is unknown, and that the platform applies it at most once; ""
// for a new key. The time is the host's, as in the audit log (the key may
// come from it, sent by a process that has since ended).
func RetryNote(ctx *ui.Context, k actions.Key, keyName string) string {
	r := k.Retry
	if r == nil {
		return ""
	}
	by := r.FirstBy
	if by == ctx.Operator {
		by = "this operator"
	}
	state := "no known answer (" + r.Err + ")"
	if r.InFlight > 0 {
		state = "still on its way"
	}
	return fmt.Sprintf("retry of %s, first sent %s by %s: %s; the same %s goes again, so the platform applies it at most once",
		r.ID, r.First.UTC().Format("2006-01-02 15:04:05 UTC"), by, state, keyName)
}

// Done is the result of a confirmed action that was done: text, with, when
// err says its outcome could not be audited (actions.Applied), a warning
// that says so.
func Done(text string, err error) tea.Cmd {
	if err == nil {
		return ui.ResultCmd(text, nil)
	}
	return func() tea.Msg { return ui.Flash{Text: text + " · ⚠ " + err.Error(), Warn: true} }
}

// Failure is the text of a confirmed action's failed result: what was
// attempted (what), whether it may have been applied, and what pressing
// again (the action's key) does with its key.
func Failure(what, again, keyName, key string, err error) string {
	var pe actions.ErrPending
	switch {
	case actions.Unknown(err):
		return fmt.Sprintf("%s: outcome unknown, the platform may have applied it; %s again retries with the same %s %s",
			what, again, keyName, key)
	case errors.As(err, &pe):
		return fmt.Sprintf("%s: not sent; %s again retries the pending %s %s", what, again, keyName, pe.Attempt.ID)
	}
	if _, ok := apierr.As(err); ok {
		return what + ": refused, not applied"
	}
	return what + ": not sent"
}
