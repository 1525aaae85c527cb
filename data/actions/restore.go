package actions

import (
	"cmp"

	"treasury/data/audit"
)

// Interrupted is why a restored attempt's outcome is unknown when its
// attempt line has no outcome: the process that sent it ended first.
const Interrupted = "no outcome recorded: the process ended while it was on its way"

// Restore reads the audit log back into p, on start, before any attempt:
// the attempts no outcome line names (in flight when their process was
// killed, ran out of memory or lost its power) and those whose outcome
// was unknown keep their key, so that the next attempt of the same action
// on the same target sends it again and the platform applies it at most
// once. A known outcome spends the keys of its target, as it does live.
// Lines written before attempt lines existed are read too (an unknown
// outcome line keeps its key). It returns how many keys are pending.
func (p *Pending) Restore(l *audit.Log) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	bySeq := map[uint64]*PendingAttempt{}
	_, err := l.Scan(func(r audit.Record) { p.replay(r, bySeq) })
	n := 0
	for _, acts := range p.byTarget {
		for _, at := range acts {
			if at.InFlight > 0 {
				at.InFlight, at.Err = 0, Interrupted
			}
			n++
		}
	}
	return n, err
}

// replay applies one line of the log; bySeq are the attempts begun, by
// the seq of their line. The caller holds p.mu.
func (p *Pending) replay(r audit.Record, bySeq map[uint64]*PendingAttempt) {
	key := cmp.Or(r.MutationID, r.IntentID)
	if key == "" || r.Target.ID == "" {
		return
	}
	if r.Outcome == audit.OutcomeAttempt {
		bySeq[r.Seq] = p.sent(r, key)
		return
	}
	at := bySeq[r.Attempt]
	delete(bySeq, r.Attempt)
	if at == nil {
		// An outcome without its attempt line: a line of a log written
		// before attempt lines were, or a line whose attempt was lost.
		at = p.legacy(r, key)
		if at == nil {
			return
		}
	}
	switch r.Outcome {
	case audit.OutcomeUnknown:
		p.settle(at, endUnknown, cmp.Or(r.ErrorCode, shorten(r.Error, 60), "no answer"))
	case audit.OutcomeDone, audit.OutcomeFailed:
		p.settle(at, endKnown, "")
	default: // refused or cancelled after its attempt line: nothing was sent
		p.settle(at, endNotSent, "")
	}
}

// legacy is the entry an outcome line without an attempt line settles: a
// new one, as if just sent, for an unknown outcome; the target's entry of
// the action for a known one (which spends the target's keys); nil when
// there is nothing to settle.
func (p *Pending) legacy(r audit.Record, key string) *PendingAttempt {
	switch r.Outcome {
	case audit.OutcomeUnknown:
		return p.sent(r, key)
	case audit.OutcomeDone, audit.OutcomeFailed:
		for _, at := range p.byTarget[r.Target.ID] {
			at.InFlight++ // settled at once: spends the target's keys
			return at
		}
	}
	return nil
}

// sent is the entry of r's action on r's target, under key, counted as on
// its way: the one there when it has that key, else a new one (which
// replaces one of another key: the log says the later was sent).
func (p *Pending) sent(r audit.Record, key string) *PendingAttempt {
	acts := p.byTarget[r.Target.ID]
	if acts == nil {
		acts = map[string]*PendingAttempt{}
		p.byTarget[r.Target.ID] = acts
	}
	who := r.Who.String()
	at := acts[r.Action]
	if at == nil || at.ID != key {
		at = &PendingAttempt{Action: r.Action, Target: r.Target.ID, ID: key, First: r.Time, FirstBy: who}
		acts[r.Action] = at
	}
	at.InFlight++
	at.At, at.Operator, at.Reason = r.Time, who, r.Reason
	return at
}

// shorten cuts s to at most n runes, with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
