package actions

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"

	"treasury/desk/audit"
	"treasury/wire/apierr"
	"treasury/wire/custody"
	"treasury/wire/transport"
	"treasury/wire/wallet"
)

// Attempt is one action on one record, as its confirmation showed it: what
// the audit line says was attempted.
type Attempt struct {
	Action string
	Target audit.Target
	// Reason is the operator's reason (every action but a sweep), or what
	// was typed before a cancel.
	Reason string
	// MutationID or IntentID is the action's idempotency key, made when
	// the confirmation opened.
	MutationID, IntentID string
}

// TxAttempt is a freeze (freeze true) or unfreeze of tx, as read when the
// operator was asked: with the length of its freeze history ("history"),
// which tells later whether the record moved since (reconcile.go).
func TxAttempt(tx wallet.Transaction, freeze bool, reason, mutationID string) Attempt {
	action := Unfreeze
	if freeze {
		action = Freeze
	}
	return Attempt{Action: action, Reason: reason, MutationID: mutationID, Target: target("transaction", tx.ID,
		"wallet", tx.WalletID, "vault", tx.VaultID, "asset", tx.Asset, "qty", tx.Qty.String(),
		"status", tx.Status, "history", strconv.Itoa(len(tx.FreezeInfo.History)))}
}

// EndpointAttempt is a lock (lock true) or unlock of ep, with its lock
// and revision as read when the operator was asked.
func EndpointAttempt(ep custody.Endpoint, lock bool, reason, intentID string) Attempt {
	action := Unlock
	if lock {
		action = Lock
	}
	return Attempt{Action: action, Reason: reason, IntentID: intentID, Target: target("endpoint", ep.ID,
		"alias", ep.Alias, "address", ep.Address, "ledger", ep.LedgerID, "lock", ep.Lock,
		"revision", strconv.Itoa(ep.Metadata.Revision))}
}

// SweepAttempt is a run of sw, with its last run as read when the
// operator was asked ("lastRun": an instance, or "none").
func SweepAttempt(sw wallet.SweepConfig, mutationID string) Attempt {
	return Attempt{Action: Sweep, MutationID: mutationID, Target: target("sweep", sw.ID,
		"name", sw.Name, "destinationWallet", sw.DestinationWallet, "lastRun", runOf(sw))}
}

// key is the attempt's idempotency key, whichever it is.
func (at Attempt) key() string { return cmp.Or(at.MutationID, at.IntentID) }

// setKey sets the attempt's idempotency key, in the field its action
// uses (an intent id for a lock or unlock, a mutationId otherwise).
func (at *Attempt) setKey(key string) {
	if at.Action == Lock || at.Action == Unlock {
		at.IntentID = key
		return
	}
	at.MutationID = key
}

// target is a record's kind, id and the details (key, value pairs) that
// are not empty.
func target(kind, id string, kv ...string) audit.Target {
	t := audit.Target{Kind: kind, ID: id, Detail: map[string]string{}}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			t.Detail[kv[i]] = kv[i+1]
		}
	}
	return t
}

// refusal marks an error as the session's refusal (not the platform's).
type refusal struct{ err error }

func (r refusal) Error() string { return r.err.Error() }
func (r refusal) Unwrap() error { return r.err }

// errCancelled is the end of an attempt cancelled in its confirmation.
var errCancelled = errors.New("cancelled")

// beforeSend is a failure to prepare an action's request (reading the
// record it acts on, resolving its path): nothing was sent, and the keys
// are as they were.
type beforeSend struct{ err error }

func (b beforeSend) Error() string { return "nothing was sent: " + b.err.Error() }
func (b beforeSend) Unwrap() error { return b.err }

// outcome classifies how an attempt ended.
func outcome(err error) string {
	switch {
	case err == nil:
		return audit.OutcomeDone
	case errors.As(err, new(ErrSuperseded)):
		return audit.OutcomeSuperseded
	case errors.Is(err, errCancelled):
		return audit.OutcomeCancelled
	case errors.As(err, new(refusal)), errors.Is(err, ErrReadOnly), errors.As(err, new(ErrNotConfigured)),
		errors.Is(err, ErrNoReason), errors.Is(err, ErrWrongCode), errors.As(err, new(ErrUnaudited)):
		return audit.OutcomeRefused
	case errors.As(err, new(beforeSend)):
		return audit.OutcomeFailed
	case Unknown(err):
		// Sent, and no answer said whether it was done: a timeout, a lost
		// or unreadable answer, a 5xx. A retry reuses its key (Pending).
		return audit.OutcomeUnknown
	}
	return audit.OutcomeFailed
}

// line is the attempt line of at, about to send m.
func (a *Actor) line(at Attempt, outcome string, m transport.Mutation) audit.Record {
	return audit.Record{Who: a.id.Who, Profile: a.id.Profile, Environment: a.id.Environment,
		Action: at.Action, Target: at.Target, Outcome: outcome, Request: m.Line(), RequestBody: m.Body, Reason: at.Reason,
		MutationID: at.MutationID, IntentID: at.IntentID}
}

// record writes the line of the attempt's end (naming its attempt line,
// seq, when one was written, with what the platform holds as ans or a
// superseding read says) and returns what the caller reports: err (nil
// for a cancel), joined with the failure to write the line if there was
// one, so an action is never done or refused unrecorded in silence. An
// outcome line that cannot be written now is owed: the log writes it as
// soon as it can (audit.ErrOwed).
func (a *Actor) record(at Attempt, err error, ans answer, seq uint64) error {
	r := audit.Record{Who: a.id.Who, Profile: a.id.Profile, Environment: a.id.Environment,
		Action: at.Action, Target: at.Target, Outcome: outcome(err), Attempt: seq, Reason: at.Reason,
		MutationID: at.MutationID, IntentID: at.IntentID, RequestID: ans.requestID,
		Evidence: ans.evidence, Holds: ans.holds, Applied: ans.applied}
	if s, ok := superseded(err); ok {
		r.Evidence, r.Holds, r.Applied = s.Evidence, s.Holds, s.Applied
	}
	if err != nil && r.Outcome != audit.OutcomeCancelled {
		r.Error = err.Error()
		if e, ok := apierr.As(err); ok {
			r.ErrorCode = e.Label()
			if e.RequestID != "" {
				r.RequestID = e.RequestID
			}
		}
	}
	if rf := (refusal{}); errors.As(err, &rf) {
		err = rf.err
	}
	if r.Outcome == audit.OutcomeCancelled {
		err = nil
	}
	if a.c.OnOutcome != nil {
		a.c.OnOutcome(at.Action, r.Outcome)
	}
	if a.log == nil {
		return err
	}
	var lerr error
	if seq != 0 {
		_, lerr = a.log.AppendOutcome(r)
	} else {
		_, lerr = a.log.Append(r)
	}
	if lerr != nil {
		switch {
		case errors.As(err, new(ErrUnaudited)):
			return err // it says already that the log cannot be written
		case err == nil && seq != 0:
			return ErrOutcomeUnaudited{Outcome: r.Outcome, Err: lerr}
		case err == nil:
			return fmt.Errorf("the attempt (%s) could not be audited: %w", r.Outcome, lerr)
		}
		return errors.Join(err, lerr)
	}
	return err
}
