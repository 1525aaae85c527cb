package actions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"treasury/wire/apierr"
	"treasury/wire/custody"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// An outcome is what the platform holds. An answer tied to this request
// (a transaction whose freeze history ends with this key's event, the run
// a new key started) says it; an answer to a key sent again, or one the
// client cannot tie to this request, is followed by a read of the record,
// and the result and the outcome line say what that read found: "now
// frozen" only when a read says so.

// answer is what an action's request got: the platform's request id, and
// what the platform holds, as the answer or the read after it says.
type answer struct {
	requestID string
	// evidence is the read that says the outcome; holds the record's
	// state as read; applied whether the record holds the key as applied
	// (nil: it cannot tell).
	evidence, holds string
	applied         *bool
}

// ErrSuperseded says an action's key is spent without its action holding
// now: the platform answered with what it answered when it applied the
// key before, and the record moved on since (Applied true); or a read
// shows the action does not hold and cannot tell whether the key was
// applied (Applied nil). Nothing was applied now: a new intent on the
// record takes a new key.
type ErrSuperseded struct {
	Evidence, Holds string
	Applied         *bool
}

func (e ErrSuperseded) Error() string { return "not applied now: " + e.Evidence }

// errUnconfirmed says the platform answered but what it holds could not
// be read back: the outcome is unknown, and the key stays open for the
// next decision to reconcile.
type errUnconfirmed struct{ why string }

func (e errUnconfirmed) Error() string { return e.why }

// confirmFreeze says what the platform holds after it answered a freeze
// (freeze true) or unfreeze of ref under key with got; retry says the key
// was sent before.
func (a *Actor) confirmFreeze(ctx context.Context, ref walletclient.Ref, freeze bool, key string, got wallet.Transaction, retry bool) (answer, wallet.Transaction, error) {
	action := wireAction(Unfreeze)
	if freeze {
		action = wireAction(Freeze)
	}
	if a.c.Blind {
		return answer{evidence: "the answer (not read back)", holds: freezeWord(freeze)}, got, nil
	}
	if h := got.FreezeInfo.History; !retry && len(h) > 0 {
		if e := h[len(h)-1]; strings.EqualFold(e.MutationID, key) && e.Action == action && got.FreezeInfo.IsFrozen == freeze {
			return answer{evidence: fmt.Sprintf("the answer: %s under %s at %s", e.Action, key, stamp(e.PerformedAt)),
				holds: freezeWord(freeze), applied: yes()}, got, nil
		}
	}
	now, events, err := a.readFreezes(ctx, ref)
	if err != nil {
		return answer{}, got, errUnconfirmed{"the platform answered, but the transaction could not be read back: " + err.Error()}
	}
	holds := freezeWord(now.FreezeInfo.IsFrozen)
	idx, keyed := -1, false
	for i, e := range events {
		keyed = keyed || e.MutationID != ""
		if strings.EqualFold(e.MutationID, key) && e.Action == action {
			idx = i
		}
	}
	first := "the platform answered"
	if retry {
		first = "the platform answered the key sent again"
	}
	switch {
	case idx >= 0 && idx == len(events)-1 && now.FreezeInfo.IsFrozen == freeze:
		e := events[idx]
		return answer{evidence: fmt.Sprintf("%s; read back: %s under %s at %s, the transaction %s", first, e.Action, key, stamp(e.PerformedAt), holds),
			holds: holds, applied: yes()}, now, nil
	case idx >= 0:
		e := events[idx]
		return answer{}, now, ErrSuperseded{Applied: yes(), Holds: holds, Evidence: fmt.Sprintf(
			"the platform answered with its first answer, of %s (%s under %s applied then); since: %s; the transaction reads %s",
			stamp(e.PerformedAt), e.Action, key, eventsText(events[idx+1:]), holds)}
	case keyed:
		return answer{}, now, errUnconfirmed{fmt.Sprintf("%s, but its freeze history (read back) names no %s under %s: the transaction reads %s", first, action, key, holds)}
	case now.FreezeInfo.IsFrozen == freeze:
		return answer{evidence: first + "; read back: the transaction reads " + holds + " (its freeze history names no keys)", holds: holds}, now, nil
	}
	return answer{}, now, ErrSuperseded{Holds: holds, Evidence: first + "; read back: the transaction reads " + holds + " (its freeze history names no keys)"}
}

// confirmTrigger says what the platform holds after it answered a trigger
// of sweepID under a key with run instance.
func (a *Actor) confirmTrigger(ctx context.Context, sweepID, instance string, retry bool) (answer, error) {
	if !retry || a.c.Blind {
		return answer{evidence: "the answer: run " + instance + " started", holds: "last run " + instance + " (running)", applied: yes()}, nil
	}
	now, err := a.c.Transactions.Sweep(ctx, sweepID)
	if err != nil {
		return answer{}, errUnconfirmed{"the platform answered the key sent again with run " + instance + ", but the sweep could not be read back: " + err.Error()}
	}
	if now.LastInstanceID == instance {
		return answer{evidence: "the platform answered the key sent again with run " + instance + "; read back: it is the sweep's last run",
			holds: "last run " + runOf(now), applied: yes()}, nil
	}
	return answer{}, ErrSuperseded{Applied: yes(), Holds: "last run " + runOf(now), Evidence: fmt.Sprintf(
		"the platform answered with its first answer, run %s; the sweep's last run is %s", instance, runOf(now))}
}

// confirmIntent says what the platform holds after it accepted a lock
// (lock true) or unlock of ep under intent id key with acc.
func (a *Actor) confirmIntent(ctx context.Context, epID string, lock bool, key string, acc custody.IntentAccepted, retry bool) (answer, error) {
	if !retry || a.c.Blind {
		return answer{requestID: acc.RequestID, evidence: "the answer: intent " + key + " accepted (requestId " + acc.RequestID + ")",
			holds: "intent proposed", applied: yes()}, nil
	}
	it, err := a.c.Custody.Intent(ctx, key)
	if e, ok := apierr.As(err); ok && e.HTTPStatus == 404 {
		return answer{}, errUnconfirmed{"the platform accepted the intent id sent again, but has no intent " + key + " when read back"}
	}
	var ep custody.Endpoint
	if err == nil {
		ep, err = a.c.Custody.Endpoint(ctx, epID)
	}
	if err != nil {
		return answer{}, errUnconfirmed{"the platform accepted the intent id sent again, but it could not be read back: " + err.Error()}
	}
	want := custody.LockUnlocked
	if lock {
		want = custody.LockLocked
	}
	holds := "intent " + it.Status + "; endpoint " + ep.Lock
	first := fmt.Sprintf("the platform answered the intent id sent again (requestId %s; the intent was proposed at %s)", acc.RequestID, stamp(it.CreatedAt))
	switch {
	case it.Status == custody.IntentRejected || it.Status == custody.IntentExpired,
		it.Status == custody.IntentExecuted && ep.Lock != want:
		return answer{}, ErrSuperseded{Applied: yes(), Holds: holds, Evidence: first + "; read back: intent " + it.Status + ", the endpoint reads " + ep.Lock}
	}
	return answer{requestID: acc.RequestID, evidence: first + "; read back: " + holds, holds: holds, applied: yes()}, nil
}

// superseded is the ErrSuperseded in err, if any.
func superseded(err error) (ErrSuperseded, bool) {
	var s ErrSuperseded
	ok := errors.As(err, &s)
	return s, ok
}
