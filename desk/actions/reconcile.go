package actions

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"treasury/desk/audit"
	"treasury/wire/apierr"
	"treasury/wire/custody"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// One key is one intent. A key left open (its attempt interrupted, or
// answered by a timeout or a 5xx) is never simply sent again: before a new
// decision on its record, it is reconciled with the platform's own record
// of that record, where the platform names the key (a transaction's
// freeze history with its mutationId, a custody intent read by its id)
// and otherwise with the record's state read now (the freeze history's
// length, the sweep's last run), against what the attempt line recorded
// of the record when its request was built (Attempt Before):
//
//   - applied: its outcome is written as done, naming the evidence; the
//     key is spent;
//   - not applied (or not known), and the record moved since, by another
//     action or outside: its outcome is written as superseded; the key is
//     spent, and a new intent takes a new key;
//   - not applied and nothing since: the same intent goes again under the
//     same key (Key.Why says why), so the platform applies it at most once.
//
// The dialog says which, and why (Key.Settled, Key.Why).

// Settlement is what reconciling one open key with the platform found,
// and the outcome line written for it ("" when the key goes again, or was
// left open for another intent).
type Settlement struct {
	Attempt PendingAttempt
	// Outcome is audit.OutcomeDone, audit.OutcomeSuperseded, or "".
	Outcome string
	// Evidence is the read that says it; Holds the record's state as read;
	// Applied whether the platform's record holds the key as applied (nil:
	// it cannot tell).
	Evidence, Holds string
	Applied         *bool
	// Err is why the outcome line could not be written (it is owed: the
	// log writes it as soon as it can).
	Err error
}

// Note says the settlement in one line, for a dialog: "the freeze of T
// under mutationId K (sent 13:02:11 UTC by ana) was applied: <evidence>;
// recorded as done".
func (s Settlement) Note() string {
	a := s.Attempt
	head := fmt.Sprintf("the %s under %s %s (sent %s by %s)", a.Action, keyName(a.Action), a.ID,
		a.At.UTC().Format(time.TimeOnly+" UTC"), a.Operator)
	var what string
	switch {
	case s.Outcome == audit.OutcomeDone:
		what = "was applied: " + s.Evidence + "; recorded as done"
	case s.Applied != nil && *s.Applied:
		what = "was applied, and the record moved on since: " + s.Evidence + "; recorded as superseded, its key spent"
	case s.Applied != nil:
		what = "was not applied, and the record moved since: " + s.Evidence + "; recorded as superseded, its key spent"
	default:
		what = "cannot be told applied, and the record moved since: " + s.Evidence + "; recorded as superseded, its key spent"
	}
	if s.Err != nil {
		what += " (" + s.Err.Error() + ")"
	}
	return head + " " + what
}

// judgement is what a read of the platform's record says of one open key.
type judgement struct {
	applied  *bool  // the platform's record holds the key as applied; nil: it cannot tell
	moved    bool   // the record moved since the key was sent, besides the key's own change
	evidence string // the read that says so
	holds    string // the record's state as read
}

// judge reads what the platform holds of the open attempt at's key.
type judge func(ctx context.Context, at PendingAttempt) (judgement, error)

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

// TxKey is the key of a freeze (freeze true) or unfreeze of tx, taken in
// a command (it reads the log and, when a key is open on tx, the
// platform): every key left open on tx is first reconciled with the
// transaction and its freeze history read now (see above). It returns
// ErrInFlight while an attempt on tx is on its way, and the failure to
// read the platform when a key is open (nothing is decided then).
func (a *Actor) TxKey(ctx context.Context, tx wallet.Transaction, freeze bool) (Key, error) {
	action := Unfreeze
	if freeze {
		action = Freeze
	}
	return a.keyFor(ctx, action, tx.ID, func(ctx context.Context) (judge, error) {
		if a.c.Transactions == nil {
			return nil, ErrNotConfigured{"a wallet TRANSACTIONS credential (wallet.transactions in the profile)"}
		}
		now, events, err := a.readFreezes(ctx, walletclient.RefOf(tx))
		if err != nil {
			return nil, err
		}
		return func(_ context.Context, at PendingAttempt) (judgement, error) {
			return judgeFreeze(at, now, events), nil
		}, nil
	})
}

// EndpointKey is the key of a lock (lock true) or unlock of ep, as TxKey:
// every intent left open on ep is read by its id first, and the endpoint
// read now.
func (a *Actor) EndpointKey(ctx context.Context, ep custody.Endpoint, lock bool) (Key, error) {
	action := Unlock
	if lock {
		action = Lock
	}
	return a.keyFor(ctx, action, ep.ID, func(ctx context.Context) (judge, error) {
		if a.c.Custody == nil {
			return nil, ErrNotConfigured{"the custody interface"}
		}
		now, err := a.c.Custody.Endpoint(ctx, ep.ID)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, at PendingAttempt) (judgement, error) {
			it, err := a.c.Custody.Intent(ctx, at.ID)
			if e, ok := apierr.As(err); ok && e.HTTPStatus == 404 {
				return judgeIntent(at, nil, now), nil
			}
			if err != nil {
				return judgement{}, fmt.Errorf("reading intent %s: %w", at.ID, err)
			}
			return judgeIntent(at, &it, now), nil
		}, nil
	})
}

// SweepKey is the key of a run of sw, as TxKey: the sweep configuration
// is read now, its last run against the one its open attempt recorded.
func (a *Actor) SweepKey(ctx context.Context, sw wallet.SweepConfig) (Key, error) {
	return a.keyFor(ctx, Sweep, sw.ID, func(ctx context.Context) (judge, error) {
		if a.c.Transactions == nil {
			return nil, ErrNotConfigured{"a wallet TRANSACTIONS credential (wallet.transactions in the profile)"}
		}
		now, err := a.c.Transactions.Sweep(ctx, sw.ID)
		if err != nil {
			return nil, err
		}
		return func(_ context.Context, at PendingAttempt) (judgement, error) {
			return judgeSweep(at, now), nil
		}, nil
	})
}

// keyFor reads the log (this host's copy), and, when keys are
// open on target, reads the platform's record (read), judges each open
// key and writes the outcome of those it settles; then it takes the key
// of action on target.
func (a *Actor) keyFor(ctx context.Context, action, target string, read func(context.Context) (judge, error)) (Key, error) {
	if a.log != nil {
		// This host's copy: a site's lines reach it through the log's
		// watcher within moments, and the action reads the site again,
		// under the lock, before it decides (a line on the record since
		// refuses it: ErrSettled). Waiting on the site here would hold the
		// dialog on the slowest node.
		if err := a.log.RefreshLocal(); err != nil {
			return Key{}, err
		}
	}
	if a.c.Blind {
		k := a.pending.key(action, target)
		k.reconciled = true
		return k, nil
	}
	open, seqs := a.pending.openOn(target)
	for _, at := range open {
		if at.InFlight > 0 {
			return Key{}, ErrInFlight{Attempt: at}
		}
	}
	var settled []Settlement
	why := map[string]string{} // the evidence of each key that goes again
	if len(open) > 0 {
		judgeOf, err := read(ctx)
		if err != nil {
			return Key{}, fmt.Errorf("the open %s under %s could not be reconciled with the platform's record: %w", open[0].Action, open[0].ID, err)
		}
		for i, at := range open {
			j, err := judgeOf(ctx, at)
			if err != nil {
				return Key{}, fmt.Errorf("the open %s under %s could not be reconciled with the platform's record: %w", at.Action, at.ID, err)
			}
			if a.pending.supersededSince(at) {
				j.moved = true
			}
			s := Settlement{Attempt: at, Evidence: j.evidence, Holds: j.holds, Applied: j.applied}
			switch {
			case j.applied != nil && *j.applied && !j.moved:
				s.Outcome = audit.OutcomeDone
			case j.moved:
				s.Outcome = audit.OutcomeSuperseded
			case at.Action == action:
				// Not applied and nothing since: the same intent goes
				// again under the same key.
				why[at.ID] = j.evidence
				continue
			default:
				continue // another intent's key: left for it
			}
			s.Err = a.settle(at, seqs[i], s)
			settled = append(settled, s)
		}
	}
	k := a.pending.key(action, target)
	k.Settled = settled
	// Only a key judged here goes again: one opened meanwhile by another
	// process is refused when sent (ErrUnreconciled), never resent blind.
	k.Why, k.reconciled = why[k.ID], k.Retry == nil || why[k.ID] != ""
	return k, nil
}

// settle writes the outcome of each open attempt line (seqs) of at, as
// reconciling found it, unless another process wrote one first.
func (a *Actor) settle(at PendingAttempt, seqs []uint64, s Settlement) error {
	if a.log == nil {
		return nil
	}
	var errs []error
	for _, seq := range seqs {
		// The record as its attempt named it, and its reason: the same
		// intent's end, found by another operator.
		r := audit.Record{Who: a.id.Who, Profile: a.id.Profile, Environment: a.id.Environment,
			Action: at.Action, Target: audit.Target{Kind: at.Kind, ID: at.Target, Detail: at.Before}, Outcome: s.Outcome, Attempt: seq,
			Reason: at.Reason, Evidence: s.Evidence, Holds: s.Holds, Applied: s.Applied}
		if at.Action == Lock || at.Action == Unlock {
			r.IntentID = at.ID
		} else {
			r.MutationID = at.ID
		}
		if s.Outcome == audit.OutcomeSuperseded {
			r.Error = "superseded: " + s.Evidence
		}
		_, err := a.log.AppendDecided(func() (audit.Record, error) {
			if !a.pending.stillOpen(at.Action, at.Target, at.ID, seq) {
				return audit.Record{}, errAlreadyEnded
			}
			return r, nil
		})
		switch {
		case err == nil && a.c.OnOutcome != nil:
			a.c.OnOutcome(at.Action, s.Outcome)
		case err != nil && !errors.Is(err, errAlreadyEnded):
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// errAlreadyEnded: another process wrote the attempt's outcome first.
var errAlreadyEnded = errors.New("its outcome was written meanwhile")

// readFreezes reads a transaction and its freezes and unfreezes: the
// freeze history, or the history the record carries when the interface
// does not serve it.
func (a *Actor) readFreezes(ctx context.Context, ref walletclient.Ref) (wallet.Transaction, []wallet.FreezeEvent, error) {
	tx, err := a.c.Transactions.TransactionAt(ctx, ref)
	if err != nil {
		return tx, nil, err
	}
	events, err := a.c.Transactions.FreezeHistory(ctx, walletclient.RefOf(tx))
	if e, ok := apierr.As(err); ok && (e.HTTPStatus == 404 || e.HTTPStatus == 501 || e.HTTPStatus == 405) {
		return tx, tx.FreezeInfo.History, nil
	}
	return tx, events, err
}

// freezeWord is a transaction's freeze state in words.
func freezeWord(frozen bool) string {
	if frozen {
		return "frozen"
	}
	return "not frozen"
}

// wireAction is a freeze action's name in a freeze history.
func wireAction(action string) string {
	if action == Freeze {
		return wallet.ActionFreeze
	}
	return wallet.ActionUnfreeze
}

// judgeFreeze judges an open freeze or unfreeze key against the
// transaction (now) and its freeze history (events) read just now, and
// the history's length its attempt line recorded (Before "history").
func judgeFreeze(at PendingAttempt, now wallet.Transaction, events []wallet.FreezeEvent) judgement {
	j := judgement{holds: freezeWord(now.FreezeInfo.IsFrozen)}
	n0, known := count(at.Before["history"])
	known = known && n0 <= len(events) // a record that carried less than the history holds says nothing
	since := len(events) - n0
	keyed := false
	idx := -1
	for i, e := range events {
		keyed = keyed || e.MutationID != ""
		if strings.EqualFold(e.MutationID, at.ID) {
			idx = i
		}
	}
	switch {
	case idx >= 0:
		e := events[idx]
		j.applied = yes()
		j.evidence = fmt.Sprintf("the freeze history names %s: %s at %s by %s", at.ID, e.Action, stamp(e.PerformedAt), e.PerformedBy)
		if later := events[idx+1:]; len(later) > 0 {
			j.moved = true
			j.evidence += "; since: " + eventsText(later) + "; the transaction reads " + j.holds
		}
	case keyed:
		j.applied = no()
		j.evidence = fmt.Sprintf("the freeze history (%s, read just now) names no %s under %s", words(len(events), "event"), wireAction(at.Action), at.ID)
		if known && since > 0 {
			j.moved = true
			j.evidence += "; since it was sent: " + eventsText(events[n0:])
		} else if known {
			j.evidence += "; no event since " + at.ID + " was sent"
		}
	case known && since == 0:
		j.applied = no()
		j.evidence = fmt.Sprintf("the freeze history has no event since %s was sent (%s, as then)", at.ID, words(n0, "event"))
	case known && since == 1 && events[n0].Action == wireAction(at.Action):
		j.applied = yes()
		j.evidence = fmt.Sprintf("one %s since %s was sent, at %s (the freeze history names no keys: taken as this one)",
			events[n0].Action, at.ID, stamp(events[n0].PerformedAt))
	case known:
		j.moved = true
		j.evidence = fmt.Sprintf("the freeze history names no keys, and %d events came since %s was sent: %s", since, at.ID, eventsText(events[max(n0, 0):]))
	default:
		j.evidence = fmt.Sprintf("the freeze history names no keys, and the attempt line did not record its length: the transaction reads %s", j.holds)
	}
	return j
}

// judgeIntent judges an open lock or unlock key against the intent read
// by its id (nil: the platform has none) and the endpoint read now, and
// the revision its attempt line recorded (Before "revision").
func judgeIntent(at PendingAttempt, it *custody.Intent, now custody.Endpoint) judgement {
	j := judgement{holds: "endpoint " + now.Lock}
	rev0, known := count(at.Before["revision"])
	if it == nil {
		j.applied = no()
		j.evidence = fmt.Sprintf("the platform has no intent %s (read by its id just now)", at.ID)
		switch {
		case known && now.Metadata.Revision != rev0:
			j.moved = true
			j.evidence += fmt.Sprintf("; the endpoint moved from revision %d to %d since, and reads %s", rev0, now.Metadata.Revision, now.Lock)
		case known:
			j.evidence += fmt.Sprintf("; the endpoint is at revision %d, as when it was sent", rev0)
		}
		return j
	}
	j.applied = yes()
	j.holds = "intent " + it.Status + "; endpoint " + now.Lock
	j.evidence = fmt.Sprintf("intent %s read by its id: %s, proposed at %s", at.ID, it.Status, stamp(it.CreatedAt))
	want := custody.LockUnlocked
	if at.Action == Lock {
		want = custody.LockLocked
	}
	if it.Status == custody.IntentExecuted && now.Lock != want {
		j.moved = true
		j.evidence += "; the endpoint reads " + now.Lock + " since"
	}
	return j
}

// judgeSweep judges an open trigger key against the sweep configuration
// read now and the last run its attempt line recorded (Before "lastRun").
func judgeSweep(at PendingAttempt, now wallet.SweepConfig) judgement {
	last := runOf(now)
	j := judgement{holds: "last run " + last}
	before, known := at.Before["lastRun"]
	switch {
	case known && before == last:
		j.applied = no()
		j.evidence = fmt.Sprintf("the sweep's last run is %s, as when %s was sent: it started no run", last, at.ID)
	case known:
		// A run started since; the platform names no key on its runs:
		// the same key goes again, and the platform answers with the run
		// it started, or starts one (the answer is read back).
		j.evidence = fmt.Sprintf("a run (%s) started after %s was sent: it may be this key's; the platform answers the same key with the run it started", last, at.ID)
	default:
		j.evidence = fmt.Sprintf("the attempt line did not record the sweep's last run: the sweep reads %s", last)
	}
	return j
}

// runOf names a sweep's last run: its instance and whether it runs, or
// "none".
func runOf(sw wallet.SweepConfig) string {
	if sw.LastInstanceID == "" {
		return "none"
	}
	if sw.SweepRunning {
		return sw.LastInstanceID + " (running)"
	}
	return sw.LastInstanceID
}

// words counts n things: "1 event", "0 events".
func words(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// count parses a count recorded on an attempt line.
func count(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// stamp is a time in the audit's form, to the second.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// eventsText lists freeze events in a few words: "UNFREEZE at … by …".
func eventsText(es []wallet.FreezeEvent) string {
	parts := make([]string, 0, len(es))
	for _, e := range es {
		p := e.Action + " at " + stamp(e.PerformedAt)
		if e.MutationID != "" {
			p += " under " + e.MutationID
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}
