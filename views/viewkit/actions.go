package viewkit

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/actions"
	"treasury/ui"
	"treasury/wire/apierr"
)

// RetryNote is what a confirmation says of an action that reuses the
// idempotency key (keyName: "mutationId", "intent id") of an attempt not
// settled, as the audit log of every process says: "retry of <key>, first
// sent <time> by <who>", from which process and host it was last sent,
// with which reason, why its outcome is not known, and that the platform
// applies it at most once; "" for a new key. The time is the host's, as in
// the audit log (the key may come from another process, or one that has
// since ended). The reason is shown, never put in the reason field: the
// operator who retries gives their own.
func RetryNote(ctx *ui.Context, k actions.Key, keyName string) string {
	r := k.Retry
	if r == nil {
		return ""
	}
	by := r.FirstBy
	if by == ctx.Operator {
		by = "this operator"
	}
	last := ""
	if r.Operator != r.FirstBy || !r.At.Equal(r.First) {
		last = fmt.Sprintf(", last sent %s by %s", r.At.UTC().Format("15:04:05 UTC"), r.Operator)
	}
	reason := ""
	if r.Reason != "" {
		reason = fmt.Sprintf(` with reason "%s"`, r.Reason)
	}
	state := "no known answer (" + r.Err + ")"
	if r.InFlight > 0 {
		state = "still on its way"
	}
	why := ""
	if k.Why != "" {
		why = "; reconciled: " + k.Why
	}
	return fmt.Sprintf("retry of %s, first sent %s by %s%s from %s%s: %s%s; the same %s goes again, so the platform applies it at most once",
		r.ID, r.First.UTC().Format("2006-01-02 15:04:05 UTC"), by, last, r.From, reason, state, why, keyName)
}

// Reconciled are the lines a confirmation shows of the keys left open on
// its record that reconciling with the platform settled before this key
// was taken (actions.Key.Settled): "Reconciled: the freeze under
// mutationId K (sent … by ana) was applied: …; recorded as done".
func Reconciled(k actions.Key) []string {
	out := make([]string, 0, len(k.Settled))
	for _, s := range k.Settled {
		out = append(out, "Reconciled: "+s.Note())
	}
	return out
}

// SameIntent is the key an attempt refused in flight records: the key on
// its way when it is the same action's (the same intent, sent already),
// else none (another intent's key is not this one's).
func SameIntent(e actions.ErrInFlight, action string) string {
	if e.Attempt.Action == action {
		return e.Attempt.ID
	}
	return ""
}

// Refusal records, in a command, an attempt the actor refused before its
// dialog opened (in flight elsewhere, a log that cannot be written, the
// record not reconciled) and says why, with what reconciling settled
// first.
func Refusal(act *actions.Actor, at actions.Attempt, k actions.Key, err error) tea.Msg {
	if act != nil {
		err = act.Refused(at, err)
	}
	return ui.Flash{Text: fmt.Sprintf("%s of %s %s: nothing was sent", at.Action, at.Target.Kind, Short(at.Target.ID, 9)), Err: err,
		Detail: Reconciled(k)}
}

// RequestLine is a request line for a dialog's label: the line the audit
// log records and the wire carries, with each of ids (shown in full on the
// dialog's other lines) cut to its last eight characters, so that it fits
// one line: "PUT /v2/vaults/…6c2a7b3e/wallets/…003724ee/transactions/…f328ba0b/freeze".
func RequestLine(line string, ids ...string) string {
	for _, id := range ids {
		if len(id) > 12 {
			line = strings.ReplaceAll(line, id, "…"+id[len(id)-8:])
		}
	}
	return line
}

// SentNote says, after an action's result, under which key it went and
// whether that made it a retry: " · mutationId K" or " · mutationId K (a
// retry of the attempt first sent by X)".
func SentNote(keyName string, s actions.Sent) string {
	if s.Key == "" {
		return ""
	}
	note := " · " + keyName + " " + s.Key
	if s.Retry != nil {
		note += " (a retry of the attempt first sent by " + s.Retry.FirstBy + ")"
	}
	return note
}

// Confirmed says, after a done action's result, what read confirmed it
// when that was more than the answer tied to its request (a key sent
// again, an answer read back): " · the platform answered the key sent
// again; read back: …"; "" otherwise.
func Confirmed(s actions.Sent) string {
	if s.Retry == nil && !strings.Contains(s.Evidence, "read back") {
		return ""
	}
	return " · " + s.Evidence
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
	var inFlight actions.ErrInFlight
	var settled actions.ErrSettled
	var unrec actions.ErrUnreconciled
	var sup actions.ErrSuperseded
	switch {
	case errors.As(err, &sup):
		return fmt.Sprintf("%s: nothing applied now; the platform holds %s; %s again acts under a new %s", what, sup.Holds, again, keyName)
	case errors.As(err, &inFlight), errors.As(err, &settled), errors.As(err, &unrec):
		return what + ": not sent"
	case actions.Unknown(err):
		return fmt.Sprintf("%s: outcome unknown, the platform may have applied it; %s again reconciles %s %s with the platform first (it goes again only if it was not applied)",
			what, again, keyName, key)
	}
	if _, ok := apierr.As(err); ok {
		return what + ": refused, not applied"
	}
	return what + ": not sent"
}
