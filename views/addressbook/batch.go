package addressbook

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/actions"
	"treasury/views/viewkit"
	"treasury/wire/custody"
)

// lockBatch is the lock (lock true) or unlock of the marked endpoints:
// one dialog, one reason, each endpoint its own signed intent under its
// own intent id; each intent accepted is then followed, as one confirmed
// alone is. An endpoint whose intent is followed still is left out.
func (v *View) lockBatch(lock bool) viewkit.Batch[custody.Endpoint] {
	action, verb, again := actions.Unlock, "Unlock", v.keys.Unlock.Help().Key
	what := "Each endpoint below gets a signed unlock intent: once approved it can be used again as a destination."
	if lock {
		action, verb, again = actions.Lock, "Lock", v.keys.Lock.Help().Key
		what = "Each endpoint below gets a signed lock intent: once approved no payment or transfer can use it until it is unlocked."
	}
	// The intents followed now, read here (the dialog is built off the
	// UI goroutine, which alone touches v.follows).
	busy := map[string]string{}
	for id, f := range v.follows {
		busy[id] = "its " + f.verb() + " is still " + f.status() + ": wait for it"
	}
	return viewkit.Batch[custody.Endpoint]{
		Act: v.act, Action: action, Verb: verb, Again: again,
		// Accepted, not applied: the intents are followed.
		Did:  "proposed the " + action + " of",
		Noun: "endpoint", Nouns: "endpoints", KeyName: "intent id",
		Intro:   []string{what},
		Request: actions.IntentLine(),
		Waiting: "the custody interface",
		ID:      func(ep custody.Endpoint) string { return ep.ID },
		Cells: func(ep custody.Endpoint) []string {
			return []string{ep.Alias, viewkit.Head(ep.ID, viewkit.IDWidth), ep.LedgerID, viewkit.Dash(ep.Lock)}
		},
		Ruled: func(ep custody.Endpoint) string {
			switch why, ok := busy[ep.ID]; {
			case ok:
				return why
			case lock && ep.Lock == custody.LockLocked:
				return "Locked already"
			case !lock && ep.Lock != custody.LockLocked:
				return viewkit.Dash(ep.Lock) + ", not Locked"
			}
			return ""
		},
		Key: func(ctx context.Context, ep custody.Endpoint) (actions.Key, error) {
			return v.act.EndpointKey(ctx, ep, lock)
		},
		Asking: &v.asking,
		Attempt: func(ep custody.Endpoint, reason, key string) actions.Attempt {
			return actions.EndpointAttempt(ep, lock, reason, key)
		},
		Send: func(ctx context.Context, eps []custody.Endpoint, keys []actions.Key, reason string) []actions.Result {
			items := make([]actions.EndpointItem, len(eps))
			for i, ep := range eps {
				items[i] = actions.EndpointItem{Endpoint: ep, Key: keys[i]}
			}
			return actions.Results(v.act.LockEndpoints(ctx, items, lock, reason))
		},
	}
}

// batchDone reports a batch's result and follows each intent accepted
// (its id is the key it was sent under).
func (v *View) batchDone(d viewkit.BatchDone[custody.Endpoint]) tea.Cmd {
	cmds := []tea.Cmd{d.Show(), v.Stack.Update(d)}
	lock := d.Action == actions.Lock
	for i, r := range d.Results {
		if !actions.Applied(r.Err) || r.Sent.Key == "" {
			continue
		}
		f := &follow{ep: d.Recs[i], lock: lock, intentID: r.Sent.Key, since: v.ctx.Clock()}
		v.follows[f.ep.ID] = f
		cmds = append(cmds, v.poll(f.intentID))
	}
	v.changed()
	return tea.Sequence(cmds[0], tea.Batch(cmds[1:]...))
}
