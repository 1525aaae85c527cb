package main

import (
	"cmp"
	"fmt"
	"strings"

	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/sandbox"
)

// applied is the platform's ground truth of one key: what it applied it
// to, and its place among the keys of its interface.
type applied struct {
	target, action string
	order          int
}

// truth indexes the sandbox's keys (sandbox.Keys) by key.
func truth(k sandbox.Keys) map[string]applied {
	out := map[string]applied{}
	for _, a := range k.Wallet {
		out[strings.ToLower(a.Key)] = applied{target: a.Target, action: a.Action, order: a.Order}
	}
	for _, a := range k.Custody {
		out[strings.ToLower(a.Key)] = applied{target: a.Target, action: a.Action, order: a.Order}
	}
	return out
}

// wireAction is the platform's name of an audit action.
func wireAction(action string) string {
	switch action {
	case actions.Freeze:
		return "FREEZE"
	case actions.Unfreeze:
		return "UNFREEZE"
	case actions.Sweep:
		return "TRIGGER"
	case actions.Lock:
		return "v0_LockEndpoint"
	case actions.Unlock:
		return "v0_UnlockEndpoint"
	}
	return action
}

// contradictions compares a schedule's audit log (lines, in order) and
// what verify says of it with the platform's ground truth (all: every key
// applied; fresh: the keys applied during the schedule). It returns what
// the platform contradicts: an outcome done (or a line that says a key was
// applied) whose key the platform never applied to that record, a key
// said not applied that it applied, a done whose key the platform applied
// before another key the log already had as done when the action was
// decided (an answer that only replayed the past, taken as now), a key
// applied during the schedule that no attempt line carries (an intent
// lost without a line), a key on two intents, an attempt left open that
// the platform applied although every record was reconciled (but a
// sweep's: its runs name no key), an outcome off its attempt.
func contradictions(lines []audit.Record, s audit.Summary, all, fresh map[string]applied) []string {
	var out []string
	say := func(f string, a ...any) { out = append(out, fmt.Sprintf(f, a...)) }
	keyOf := func(r audit.Record) string { return strings.ToLower(cmp.Or(r.MutationID, r.IntentID)) }

	pos := map[uint64]int{}       // the position of each line, by seq
	intent := map[string]string{} // the action and record of each key's attempt lines
	for i, r := range lines {
		pos[r.Seq] = i
		if r.Outcome != audit.OutcomeAttempt {
			continue
		}
		k, what := keyOf(r), r.Action+" of "+r.Target.ID
		if prev, ok := intent[k]; ok && prev != what {
			say("key %s is on two intents: %s and %s", k, prev, what)
		}
		intent[k] = what
	}
	// doneAt is, by record, the keys whose done line came at each
	// position: what the log knew applied when a later action was decided.
	type done struct {
		at  int
		key string
	}
	doneOn := map[string][]done{}
	for i, r := range lines {
		k := keyOf(r)
		if k == "" || r.Attempt == 0 {
			continue
		}
		got, ok := all[k]
		matches := ok && got.target == r.Target.ID && got.action == wireAction(r.Action)
		switch {
		case r.Outcome == audit.OutcomeDone && !matches:
			say("seq %d says the %s of %s under %s is done; the platform never applied that key to it", r.Seq, r.Action, r.Target.ID, k)
		case r.Outcome == audit.OutcomeFailed && ok:
			say("seq %d says the %s of %s under %s failed; the platform applied it", r.Seq, r.Action, r.Target.ID, k)
		case r.Applied != nil && *r.Applied != matches:
			say("seq %d says the key %s applied=%v; the platform says %v", r.Seq, k, *r.Applied, matches)
		}
		if r.Outcome != audit.OutcomeDone || !matches {
			continue
		}
		// Every key the log had as done on the record when this one's
		// attempt was decided came before it on the platform.
		if ap, ok := pos[r.Attempt]; ok {
			for _, d := range doneOn[r.Target.ID] {
				if d.at < ap && all[d.key].order > got.order {
					say("seq %d says the %s of %s under %s is done, but the platform applied that key before %s, which the log had as done when it was decided: the answer replayed the past",
						r.Seq, r.Action, r.Target.ID, k, d.key)
				}
			}
		}
		doneOn[r.Target.ID] = append(doneOn[r.Target.ID], done{at: i, key: k})
	}
	for k, a := range fresh {
		if _, ok := intent[k]; !ok {
			say("the platform applied %s (%s of %s) and no attempt line carries it", k, a.action, a.target)
		}
	}
	for _, o := range s.Open {
		// A sweep's runs name no key: a trigger left open while a run
		// started since stays open (its next trigger goes under the same
		// key, and the platform answers with the run it started).
		if a, ok := all[keyOf(o.Record)]; ok && a.target == o.Target.ID && o.Action != actions.Sweep {
			say("seq %d, the %s of %s under %s, is open after every record was reconciled, and the platform applied it", o.Seq, o.Action, o.Target.ID, keyOf(o.Record))
		}
	}
	for _, b := range s.Breaks {
		if b.Kind == audit.OffChain {
			say("line %d: %s", b.Line, b.Detail)
		}
	}
	return out
}
