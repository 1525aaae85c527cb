package actions

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"treasury/data/apierr"
	"treasury/data/custody"
	walletclient "treasury/data/wallet/client"
)

// Pending holds the idempotency keys (mutationId, intent id) of the
// actions whose outcome is unknown: sent, and answered by a timeout, a lost
// connection or a 5xx, so the platform may or may not have applied them.
// The next attempt of the same action on the same target reuses the key, so
// the platform applies it at most once (spec 7.1 rule 3 for creations; the
// wallet answers a mutationId it has already applied with what it answered
// then, and the custody interface answers a repeated intent id with the
// same requestId). A known outcome (success, or a 4xx refusal) of any action
// on a target clears that target's keys: the next decision gets a new one.
//
// One Pending serves the whole process, every session included: the
// platform sees one client (the profile's credentials, shared by every
// session), and whether an action was applied is a fact about the
// platform, not about who asked. A second operator who acts on a target
// whose last attempt is unknown makes the same request again; with a key of
// his own it could be applied twice (a second sweep run, a second intent).
// What this costs: the platform keeps the first attempt's answer (and, for
// a freeze, its reason), so the retry shows who attempted it first, when,
// and with which reason, and starts from that reason. While an attempt is
// unknown or on its way, an attempt of the same action on the same target
// under another key is refused (ErrPending): nothing is sent, and the
// operator is told to retry the pending one.
//
// The keys outlive the process: every attempt that sends is first a line
// of the audit log, and Restore, on start, reads back the attempts
// without an outcome (the process was killed while they were on their
// way) and those whose outcome was unknown.
type Pending struct {
	mu sync.Mutex
	// byTarget maps a target's id to its attempts by action.
	byTarget map[string]map[string]*PendingAttempt
}

// PendingAttempt is the last attempt of an action on a target whose
// outcome is not known yet.
type PendingAttempt struct {
	Action string // Freeze, Unfreeze, Lock, Unlock, Sweep
	Target string // the transaction, endpoint or sweep configuration id
	// ID is the idempotency key: mutationId or intent id.
	ID       string
	Operator string
	// Reason is the reason sent with it.
	Reason string
	// At is when it was last sent, Operator by whom; First and FirstBy
	// when and by whom the key was first sent.
	At      time.Time
	First   time.Time
	FirstBy string
	// InFlight counts the calls with this key on their way now.
	InFlight int
	// Err is why the outcome is unknown, in a few words ("HTTP 500
	// INTERNAL(13)", "timed out", "connection lost"); empty while the
	// first call is on its way.
	Err string
}

// NewPending returns an empty set: one per process.
func NewPending() *Pending { return &Pending{byTarget: map[string]map[string]*PendingAttempt{}} }

// Key is the idempotency key of the next attempt of an action.
type Key struct {
	ID string
	// Retry is the attempt whose key ID reuses (a copy); nil when ID is
	// new.
	Retry *PendingAttempt
}

// Key returns the key for the next attempt of action on target: the key of
// the pending attempt when its outcome is unknown, else a new one. Take it
// when the operator is asked, and pass its ID to the action.
func (a *Actor) Key(action, target string) Key {
	if at, ok := a.pending.get(action, target); ok {
		return Key{ID: at.ID, Retry: &at}
	}
	return Key{ID: NewKey()}
}

// ErrPending refuses an attempt under a new key while another attempt of
// the same action on the same target is unknown or on its way.
type ErrPending struct{ Attempt PendingAttempt }

func (e ErrPending) Error() string {
	state := "is still on its way"
	if e.Attempt.InFlight == 0 {
		state = "has an unknown outcome (" + e.Attempt.Err + ")"
	}
	return fmt.Sprintf("the %s of %s sent by %s under %s %s: retry it (the same key) rather than send another",
		e.Attempt.Action, e.Attempt.Target, e.Attempt.Operator, e.Attempt.ID, state)
}

// Unknown reports whether err leaves the outcome of an action unknown: the
// request may have been applied. A timeout, a connection lost, a 5xx
// (except 501, a method the interface does not have) or an answer that could
// not be read is unknown; a 4xx is a refusal and a refusal before anything
// was sent (read-only, no reason, a malformed key) is known. An error this
// cannot place is taken as unknown: reusing a key that was not needed costs
// nothing, while a new key for an action that was applied may apply it twice.
func Unknown(err error) bool {
	if err == nil || errors.As(err, new(ErrOutcomeUnaudited)) {
		return false
	}
	if ae, ok := apierr.As(err); ok {
		s := ae.HTTPStatus
		return !(s >= 400 && s < 500 || s == http.StatusNotImplemented)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return true
	}
	return !notSent(err)
}

// notSent reports the refusals made before anything was sent: the
// session's, and the clients' own.
func notSent(err error) bool {
	var pe ErrPending
	var nc ErrNotConfigured
	var ua ErrUnaudited
	return errors.Is(err, ErrReadOnly) || errors.Is(err, ErrNoReason) || errors.Is(err, errNotSent) || errors.As(err, &pe) ||
		errors.As(err, &nc) || errors.As(err, &ua) || refusedLocally(err)
}

// get returns a copy of the pending attempt of action on target.
func (p *Pending) get(action, target string) (PendingAttempt, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if at, ok := p.byTarget[target][action]; ok {
		return *at, true
	}
	return PendingAttempt{}, false
}

// begin records an attempt about to be sent; end, called with the call's
// error, records its outcome. An attempt under another key than the pending
// one is refused.
func (p *Pending) begin(at PendingAttempt) (end func(error) error, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	acts := p.byTarget[at.Target]
	if acts == nil {
		acts = map[string]*PendingAttempt{}
		p.byTarget[at.Target] = acts
	}
	cur, ok := acts[at.Action]
	switch {
	case ok && cur.ID != at.ID:
		return nil, ErrPending{Attempt: *cur}
	case ok:
		cur.InFlight++
		cur.At, cur.Operator, cur.Reason = at.At, at.Operator, at.Reason
	default:
		at.InFlight, at.First, at.FirstBy = 1, at.At, at.Operator
		cur = &at
		acts[at.Action] = cur
	}
	return func(err error) error {
		p.end(cur, err)
		return err
	}, nil
}

func (p *Pending) end(at *PendingAttempt, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case notSent(err):
		p.settle(at, endNotSent, "")
	case Unknown(err):
		p.settle(at, endUnknown, why(err))
	default:
		p.settle(at, endKnown, "")
	}
}

// How an attempt ended, for its key.
type ending int

const (
	endNotSent ending = iota // refused before it was sent: the key is as it was
	endUnknown               // sent, and no answer said whether it was applied
	endKnown                 // the platform answered: the target's keys are spent
)

// settle ends one call of at; the caller holds p.mu.
func (p *Pending) settle(at *PendingAttempt, how ending, why string) {
	at.InFlight = max(at.InFlight-1, 0)
	acts := p.byTarget[at.Target]
	switch how {
	case endNotSent:
		// A key never sent (no earlier unknown outcome) is dropped.
		if at.InFlight == 0 && at.Err == "" && acts[at.Action] == at {
			delete(acts, at.Action)
		}
	case endUnknown:
		at.Err = why
	case endKnown:
		// A later decision on the target is a new one: every key of the
		// target not on its way is spent.
		for action, a := range acts {
			if a.InFlight == 0 {
				delete(acts, action)
			}
		}
	}
	if len(acts) == 0 {
		delete(p.byTarget, at.Target)
	}
}

// refusedLocally reports the clients' refusals made before anything was
// sent.
func refusedLocally(err error) bool {
	for _, known := range []error{walletclient.ErrNoID, walletclient.ErrNoReason, walletclient.ErrMutationID,
		walletclient.ErrTxNotVisible, custody.ErrNoSigner} {
		if errors.Is(err, known) {
			return true
		}
	}
	return false
}

// begin records an attempt of action on target under key, about to be
// sent by this actor's operator.
func (a *Actor) begin(action, target, key, reason string) (func(error) error, error) {
	return a.pending.begin(PendingAttempt{Action: action, Target: target, ID: key, Operator: a.id.Who.String(), Reason: reason, At: time.Now()})
}

// why says in a few words why err leaves an outcome unknown.
func why(err error) string {
	if ae, ok := apierr.As(err); ok {
		switch {
		case ae.HTTPStatus != 0:
			return strings.TrimSpace(fmt.Sprintf("HTTP %d %s", ae.HTTPStatus, ae.Label()))
		case ae.Class == apierr.ClassRetry:
			return "connection lost"
		}
		return ae.Class.String()
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer in time"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return err.Error()
}
