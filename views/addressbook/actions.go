package addressbook

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/actions"
	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/custody"
)

// submitted is the answer of a lock or unlock call, and what it was
// about.
type submitted struct {
	viewkit.Replied
	ep       custody.Endpoint
	lock     bool
	intentID string // taken when the dialog opened; sent.Key the one sent
	sent     actions.Sent
	accepted custody.IntentAccepted
	err      error
}

// intentRead is the answer of a read of a followed intent's status.
type intentRead struct {
	viewkit.Replied
	intentID string
	intent   custody.Intent
	err      error
}

// refetched is the answer of the endpoints' read after an intent ended.
type refetched struct {
	viewkit.Replied
	intentID string
	err      error
}

// endpointActions are lock and unlock, each offered only when the
// endpoint's state allows it: lock one that is not Locked, unlock a
// Locked one.
func (v *View) endpointActions() []viewkit.Action[custody.Endpoint] {
	return []viewkit.Action[custody.Endpoint]{
		{Key: v.keys.Lock, Write: true, Run: func(ep custody.Endpoint) tea.Cmd { return v.confirm(ep, true) },
			Refuse: func(ep custody.Endpoint, err error) tea.Cmd {
				return viewkit.Refuse(v.act, actions.EndpointAttempt(ep, true, "", ""), err)
			},
			Unavailable: func(ep custody.Endpoint) string {
				if ep.Lock == custody.LockLocked {
					return "endpoint " + ep.Alias + " is Locked already: no lock to confirm (" + v.keys.Unlock.Help().Key + " unlocks it)"
				}
				return ""
			},
			BatchHelp: "lock",
			Batch: func(eps []custody.Endpoint, gone []string) tea.Cmd {
				return v.lockBatch(true).Ask(v.ctx, eps, gone)
			}},
		{Key: v.keys.Unlock, Write: true, Run: func(ep custody.Endpoint) tea.Cmd { return v.confirm(ep, false) },
			Refuse: func(ep custody.Endpoint, err error) tea.Cmd {
				return viewkit.Refuse(v.act, actions.EndpointAttempt(ep, false, "", ""), err)
			},
			Unavailable: func(ep custody.Endpoint) string {
				if ep.Lock != custody.LockLocked {
					return "endpoint " + ep.Alias + " is " + viewkit.Dash(ep.Lock) + ", not Locked: no unlock to confirm"
				}
				return ""
			},
			BatchHelp: "unlock",
			Batch: func(eps []custody.Endpoint, gone []string) tea.Cmd {
				return v.lockBatch(false).Ask(v.ctx, eps, gone)
			}},
	}
}

func verbOf(lock bool) string {
	if lock {
		return actions.Lock
	}
	return actions.Unlock
}

// confirm asks the operator to confirm a lock or unlock of ep. In a
// command, never in Update: the session's right to act is checked (the
// audit log writable) and the intent id taken from the record of every
// process, each intent left open on ep read by its id first
// (actions.Actor.EndpointKey): a new one, or the one of an intent the
// platform never received on an endpoint that has not moved, which this
// one retries. The dialog says what reconciling found.
func (v *View) confirm(ep custody.Endpoint, lock bool) tea.Cmd {
	verb := verbOf(lock)
	if f, ok := v.follows[ep.ID]; ok {
		return ui.FlashCmd(fmt.Sprintf("the %s of %s is still %s: wait for it", f.verb(), sanitize.Line(ep.Alias), f.status()))
	}
	if v.act == nil {
		return ui.ErrorCmd(fmt.Errorf("%s: actions are not available in this session", verb))
	}
	prod := v.ctx.Prod()
	open := func() tea.Msg {
		if err := v.act.Can(verb); err != nil {
			return viewkit.Refusal(v.act, actions.EndpointAttempt(ep, lock, "", ""), actions.Key{}, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), viewkit.CallTimeout)
		defer cancel()
		key, err := v.act.EndpointKey(ctx, ep, lock)
		var inFlight actions.ErrInFlight
		switch {
		case errors.As(err, &inFlight):
			return viewkit.Refusal(v.act, actions.EndpointAttempt(ep, lock, "", viewkit.SameIntent(inFlight, verb)), key, err)
		case err != nil:
			return viewkit.Refusal(v.act, actions.EndpointAttempt(ep, lock, "", ""), key, fmt.Errorf("%s of %s: %w", verb, sanitize.Line(ep.Alias), err))
		}
		return v.lockDialog(ep, lock, key, prod)
	}
	return v.asking.Ask(verb+" of "+sanitize.Line(ep.Alias), open)
}

// lockDialog is the confirmation of a lock (lock true) or unlock of ep
// under key.
func (v *View) lockDialog(ep custody.Endpoint, lock bool, key actions.Key, prod bool) ui.Confirm {
	verb := verbOf(lock)
	intentID := key.ID
	to := custody.LockLocked
	what := "A Locked endpoint cannot be used by any payment or transfer until it is unlocked."
	if !lock {
		to = custody.LockUnlocked
		what = "An Unlocked endpoint can be used again as a destination."
	}
	// What will happen, said until the intent is proposed; the lock as
	// shown now is the state the intent changes, labelled as before in
	// the result.
	intro := append([]string{
		fmt.Sprintf("%s the custody endpoint below with a signed intent: %s → %s.", strings.ToUpper(verb[:1])+verb[1:],
			viewkit.Dash(ep.Lock), to),
		"The intent takes effect once approved; the view follows it. " + what,
	}, viewkit.Reconciled(key)...)
	lines := []string{
		"Alias:    " + ep.Alias,
		"Id:       " + ep.ID,
		"Address:  " + ep.Address,
		"Ledger:   " + ep.LedgerID,
		"Request:  " + actions.IntentLine(),
		"Intent:   " + intentID,
	}
	before := []string{"Lock:     " + viewkit.Dash(ep.Lock)}
	title := fmt.Sprintf("%s endpoint %s", strings.ToUpper(verb[:1])+verb[1:], ep.Alias)
	c := ui.Confirm{Title: title, Intro: intro, Lines: lines, Before: before, Action: strings.ToUpper(verb[:1]) + verb[1:],
		// The reason goes to the audit log and, with the intent, to its
		// approvers.
		Reason:    "Reason",
		RunReason: func(reason string) tea.Cmd { return v.submit(ep, lock, reason, key) },
		OnCancel:  viewkit.OnCancel(v.act, actions.EndpointAttempt(ep, lock, "", intentID), verb+" of endpoint "+ep.Alias),
		Retry:     viewkit.RetryNote(v.ctx, key, "intent id"),
		Waiting:   "the custody interface: " + actions.IntentLine() + " (intent " + intentID + ")"}
	if prod {
		c.TypeToConfirm = lastRunes(ep.ID, 4)
	}
	return c
}

func lastRunes(s string, n int) string {
	r := []rune(s)
	return string(r[max(len(r)-n, 0):])
}

// submit proposes the intent through the actor (which audits it).
func (v *View) submit(ep custody.Endpoint, lock bool, reason string, key actions.Key) tea.Cmd {
	act := v.act
	var sent actions.Sent
	return viewkit.Run(v.ctx, func(ctx context.Context) (custody.IntentAccepted, error) {
		acc, s, err := act.LockEndpoint(ctx, ep, lock, reason, key)
		sent = s
		return acc, err
	}, func(acc custody.IntentAccepted, err error) submitted {
		id := key.ID
		if sent.Key != "" {
			id = sent.Key
		}
		return submitted{ep: ep, lock: lock, intentID: id, sent: sent, accepted: acc, err: err}
	})
}

// submittedAnswer takes the answer of a lock or unlock call: on success
// the intent is followed.
func (v *View) submittedAnswer(s submitted) tea.Cmd {
	if !actions.Applied(s.err) {
		again := v.keys.Unlock.Help().Key
		if s.lock {
			again = v.keys.Lock.Help().Key
		}
		what := fmt.Sprintf("%s of %s", verbOf(s.lock), sanitize.Line(s.ep.Alias))
		return ui.ResultCmd(viewkit.Failure(what, again, "intent id", s.intentID, s.err), s.err)
	}
	f := &follow{ep: s.ep, lock: s.lock, intentID: s.intentID, requestID: s.accepted.RequestID, since: v.ctx.Clock()}
	v.follows[s.ep.ID] = f
	v.changed()
	// The result first: the dialog takes the first flash after its answer.
	retry := ""
	if s.sent.Retry != nil {
		retry = " (a retry of the attempt first sent by " + s.sent.Retry.FirstBy + ")"
	}
	return tea.Sequence(viewkit.Done(fmt.Sprintf("✔ %s of %s proposed: intent %s accepted (requestId %s)%s, following it", f.verb(),
		sanitize.Line(s.ep.Alias), f.intentID, sanitize.Line(s.accepted.RequestID), retry), s.err),
		v.poll(f.intentID))
}

// changed redraws what shows the intents followed.
func (v *View) changed() {
	v.endpoints.Reread()
	if v.detail != nil {
		v.detail.Redraw()
	}
}

func (v *View) followOf(intentID string) *follow {
	for _, f := range v.follows {
		if f.intentID == intentID {
			return f
		}
	}
	return nil
}

// poll reads the intent's status now.
func (v *View) poll(intentID string) tea.Cmd {
	f := v.followOf(intentID)
	if f == nil || f.inFlight || f.final {
		return nil
	}
	f.inFlight, f.scheduled, f.idle = true, false, 0
	act := v.act
	return viewkit.Run(v.ctx, func(ctx context.Context) (custody.Intent, error) { return act.Intent(ctx, intentID) },
		func(it custody.Intent, err error) intentRead {
			return intentRead{intentID: intentID, intent: it, err: err}
		})
}

// intentAnswer takes a followed intent's status.
func (v *View) intentAnswer(r intentRead) tea.Cmd {
	f := v.followOf(r.intentID)
	if f == nil || f.final {
		return nil
	}
	f.inFlight, f.idle = false, 0
	if r.err != nil {
		f.err = r.err
		v.changed()
		return v.schedule(f)
	}
	it := r.intent
	prev := f.intent.Status
	f.intent, f.err = it, nil
	v.changed()
	if it.Terminal() {
		f.final = true
		return v.refetch(f)
	}
	var flash tea.Cmd
	if it.Status != prev {
		flash = ui.FlashCmd(fmt.Sprintf("%s of %s: intent %s", f.verb(), sanitize.Line(f.ep.Alias), f.status()))
	}
	return tea.Batch(flash, v.schedule(f))
}

// schedule polls the intent again in a second.
func (v *View) schedule(f *follow) tea.Cmd {
	if f.scheduled {
		return nil
	}
	f.scheduled = true
	id := f.intentID
	return tea.Tick(pollEvery, func(_ time.Time) tea.Msg { return pollMsg{intentID: id} })
}

// refetch reads the endpoints again once the intent is over.
func (v *View) refetch(f *follow) tea.Cmd {
	f.inFlight = true
	store, id := v.ctx.Store, f.intentID
	return viewkit.Run(v.ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, store.FetchNow(ctx, live.Endpoints).Err
	}, func(_ struct{}, err error) refetched { return refetched{intentID: id, err: err} })
}

// ended ends the following of an intent and says how it ended.
func (v *View) ended(intentID string, err error) tea.Cmd {
	f := v.followOf(intentID)
	if f == nil {
		return nil
	}
	delete(v.follows, f.ep.ID)
	v.last[f.ep.ID] = f.intent
	v.changed()
	alias := sanitize.Line(f.ep.Alias)
	var cmd tea.Cmd
	switch f.intent.Status {
	case custody.IntentExecuted:
		// The endpoint's state is told only from the re-read that followed:
		// after a failed one, the store holds the state before the intent.
		now := "the endpoint is in its new state"
		if ep, ok, _ := v.endpoint(f.ep.ID); ok && err == nil {
			now = "the endpoint is " + sanitize.Line(ep.Lock)
		} else if err != nil {
			now = "its new state is not read yet"
		}
		cmd = ui.FlashCmd(fmt.Sprintf("✔ %s of %s executed: %s", f.verb(), alias, now))
	default:
		why := sanitize.Line(f.intent.Reason)
		if why == "" {
			why = "no reason given"
		}
		cmd = ui.ErrorCmd(fmt.Errorf("%s of %s %s: %s (intent %s)", f.verb(), alias, strings.ToLower(f.intent.Status), why, f.intentID))
	}
	if err != nil {
		return tea.Batch(cmd, ui.ErrorCmd(fmt.Errorf("re-reading the endpoints after the intent: %w", err)))
	}
	return cmd
}

// watchdog restarts the following of an intent whose answer went astray
// (answers go to the view shown: another tab may have swallowed one).
func (v *View) watchdog() tea.Cmd {
	var cmds []tea.Cmd
	for _, f := range v.follows {
		f.idle++
		if f.idle < watchdogTicks {
			continue
		}
		f.idle, f.inFlight, f.scheduled = 0, false, false
		if f.final {
			cmds = append(cmds, v.refetch(f))
		} else {
			cmds = append(cmds, v.poll(f.intentID))
		}
	}
	return tea.Batch(cmds...)
}
