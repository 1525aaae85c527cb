package walletsim

import (
	"slices"
	"strings"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

func freeze(c *call)   { setFrozen(c, wallet.ActionFreeze) }
func unfreeze(c *call) { setFrozen(c, wallet.ActionUnfreeze) }

// setFrozen freezes or unfreezes a transaction. A reason and a UUID
// mutationId are required. A mutationId already applied answers what it
// answered then and changes nothing; reused for another transaction or
// action it is invalid. A transaction that ended (CONFIRMED, REJECTED,
// FAILED), freezing a frozen one and unfreezing one not frozen give
// ERR010.008 (wallet.FreezeRuledOut).
func setFrozen(c *call, action string) {
	_, t := c.lookupTx()
	if t == nil {
		return
	}
	var req wallet.FreezeRequest
	if !c.decode(&req) {
		return
	}
	if strings.TrimSpace(req.Reason) == "" || !simkit.IsUUID(req.MutationID) {
		c.invalid()
		return
	}
	mid := strings.ToLower(req.MutationID)
	if m, seen := c.w.mutations[mid]; seen {
		if m.txID != t.rec.ID || m.action != action {
			c.invalid()
			return
		}
		c.ok(c.txOut(m.answer))
		return
	}
	if wallet.FreezeRuledOut(t.rec, action == wallet.ActionFreeze) != "" {
		c.precondition(reasonCannotFreeze, "cannot "+strings.ToLower(action)+" transaction")
		return
	}
	if action == wallet.ActionFreeze {
		t.frozenAt = c.now
	} else {
		// Progress paused while frozen: what was due moves on by as long.
		if !t.frozenAt.IsZero() {
			pause := c.now.Sub(t.frozenAt)
			for i := range t.steps {
				t.steps[i].at = t.steps[i].at.Add(pause)
			}
		}
		t.frozenAt = time.Time{}
	}
	t.rec.FreezeInfo.IsFrozen = action == wallet.ActionFreeze
	t.rec.FreezeInfo.History = append(t.rec.FreezeInfo.History, wallet.FreezeEvent{Action: action,
		Reason: req.Reason, MutationID: mid, PerformedBy: c.cred.ClientID, PerformedAt: c.now})
	answer := t.rec
	answer.Problems = append([]wallet.Problem{}, t.rec.Problems...)
	answer.Reasons = append([]string{}, t.rec.Reasons...)
	answer.FreezeInfo.History = append([]wallet.FreezeEvent{}, t.rec.FreezeInfo.History...)
	c.w.mutations[mid] = mutation{txID: t.rec.ID, action: action, answer: answer, order: len(c.w.mutations) + 1}
	c.ok(c.txOut(answer))
}

// freezeHistory pages a transaction's freezes and unfreezes, oldest first,
// with the top-level pageSize (max 100) and pageToken.
func freezeHistory(c *call) {
	_, t := c.lookupTx()
	if t == nil {
		return
	}
	spec := listSpec[wallet.FreezeEvent]{id: func(e wallet.FreezeEvent) string { return e.MutationID },
		order: "performed_at", top: true,
		fields: fields[wallet.FreezeEvent]{"performed_at": func(e wallet.FreezeEvent) string { return stamp(e.PerformedAt) },
			"action": func(e wallet.FreezeEvent) string { return e.Action }},
		enums: map[string][]string{"action": {wallet.ActionFreeze, wallet.ActionUnfreeze}}}
	if page, f, ok := paginate(c, c.historyOut(t.rec.ID, t.rec.FreezeInfo.History), spec); ok {
		c.ok(wallet.FreezeHistoryPage{History: page, Filter: f})
	}
}

// Applied is one mutationId the simulator applied: a freeze, an unfreeze
// (Target the transaction) or a sweep trigger (Target the sweep, Instance
// the run it started), Order its place among them.
type Applied struct {
	Key, Target, Action, Instance string
	Order                         int
}

// Applied lists every mutationId applied, in the order applied: the
// ground truth a soak compares the audit log with.
func (s *Sim) Applied() []Applied {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Applied, 0, len(s.w.mutations))
	for k, m := range s.w.mutations {
		out = append(out, Applied{Key: k, Target: m.txID, Action: m.action, Instance: m.instance, Order: m.order})
	}
	slices.SortFunc(out, func(a, b Applied) int { return a.Order - b.Order })
	return out
}
