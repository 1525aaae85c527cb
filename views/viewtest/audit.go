package viewtest

import (
	"testing"

	"treasury/desk/audit"
)

// Outcomes are the lines of the env's audit log that end an attempt,
// oldest first, once it is checked that the log is written ahead: every
// attempt line is ended by a later line that names it (same action,
// target and key), and every line that names an attempt line ends one.
func (e *Env) Outcomes(t testing.TB) []audit.Record {
	t.Helper()
	all, err := e.Audit.Read()
	if err != nil {
		t.Fatal(err)
	}
	open := map[uint64]audit.Record{}
	var out []audit.Record
	for _, r := range all {
		if r.Outcome == audit.OutcomeAttempt {
			if r.Request == "" {
				t.Errorf("attempt line %d names no request", r.Seq)
			}
			open[r.Seq] = r
			continue
		}
		if r.Attempt != 0 {
			a, ok := open[r.Attempt]
			if !ok || a.Action != r.Action || a.Target.ID != r.Target.ID || a.MutationID != r.MutationID || a.IntentID != r.IntentID {
				t.Errorf("line %d (%s) names attempt %d, which is not its attempt: %+v", r.Seq, r.Outcome, r.Attempt, a)
			}
			delete(open, r.Attempt)
		}
		out = append(out, r)
	}
	for seq, a := range open {
		t.Errorf("attempt line %d (%s of %s) has no outcome", seq, a.Action, a.Target.ID)
	}
	return out
}
