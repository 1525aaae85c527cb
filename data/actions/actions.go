// Package actions performs the dashboard's operator actions (freeze and
// unfreeze a wallet transaction, lock and unlock a custody endpoint,
// trigger a sweep) for one operator: it refuses them all in a read-only
// session, gives each confirmed action an idempotency key (mutationId or
// intent id) that a retry after an unknown outcome reuses (Pending, Key),
// and writes every attempt, however it ends (done, failed, refused,
// cancelled in the confirmation, or unknown when no answer came), to the
// audit log.
//
// The log is written ahead: before an action's request leaves the
// process, its attempt line (who, what, target, environment, reason, key,
// the request) is appended and synced; the outcome line that follows
// names it. When the attempt line cannot be written the action is refused
// before anything is sent (ErrUnaudited), and so is every later one until
// the log is found writable again. On start, Pending.Restore reads the
// log back: an attempt without an outcome (its process was killed) or
// with an unknown one keeps its key for the next attempt.
//
// The confirmation itself is the UI's: a view asks the operator, then calls
// the Actor once per confirmed action, or Cancelled or Refused when the
// attempt ended before that.
package actions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"treasury/data/audit"
	"treasury/data/custody"
	"treasury/data/wallet"
	walletclient "treasury/data/wallet/client"
)

// Action names, as written to the audit log.
const (
	Freeze   = "freeze"
	Unfreeze = "unfreeze"
	Lock     = "lock"
	Unlock   = "unlock"
	Sweep    = "sweep"
)

// ErrReadOnly refuses an action in a read-only session.
var ErrReadOnly = errors.New("read-only session: actions are disabled (profile read_only, --read-only, or an SSH viewer key)")

// ErrNoReason refuses an action without a reason, before anything is
// sent: a freeze sends it to the platform, a lock or unlock with its
// intent; the audit log keeps it for every action.
var ErrNoReason = errors.New("a reason is required")

// ErrWrongCode refuses an action whose confirmation was given a code other
// than the one asked for (prod: the last characters of the record's id).
var ErrWrongCode = errors.New("the confirmation code typed does not match the record's")

// ErrNotConfigured refuses an action the profile has no credential for.
type ErrNotConfigured struct{ What string }

func (e ErrNotConfigured) Error() string {
	return "not configured: " + e.What
}

// ErrUnaudited refuses an action whose attempt could not be written to
// the audit log first: nothing was sent. Err is why the log cannot be
// written (a full disk, permission denied).
type ErrUnaudited struct{ Err error }

func (e ErrUnaudited) Error() string {
	return "the audit log cannot be written, so nothing was sent: " + e.Err.Error()
}

func (e ErrUnaudited) Unwrap() error { return e.Err }

// ErrOutcomeUnaudited says that an action ended as Outcome (done) but its
// outcome line could not be written: its attempt line is in the log, and
// `treasury audit verify` lists it as without an outcome. The action
// itself is not in doubt (Applied).
type ErrOutcomeUnaudited struct {
	Outcome string
	Err     error
}

func (e ErrOutcomeUnaudited) Error() string {
	return e.Outcome + ", but its outcome could not be written to the audit log (its attempt line is there): " + e.Err.Error()
}

func (e ErrOutcomeUnaudited) Unwrap() error { return e.Err }

// Applied reports whether an action's error says it was done: nil, or
// only that its outcome could not be audited.
func Applied(err error) bool {
	var ou ErrOutcomeUnaudited
	return err == nil || errors.As(err, &ou) && ou.Outcome == audit.OutcomeDone
}

// Identity is who acts, where.
type Identity struct {
	Profile, Environment string
	Who                  audit.Who
	ReadOnly             bool
}

// Clients are the action clients of the profile; any may be nil.
type Clients struct {
	// Transactions freezes, unfreezes and triggers sweeps (a TRANSACTIONS
	// credential, spec 5.6).
	Transactions *walletclient.Client
	// Custody signs and submits lock and unlock intents; CanSign says
	// whether the profile has the signing key.
	Custody *custody.Client
	CanSign bool
	// Pending is the process's set of keys of actions whose outcome is
	// unknown, shared by every session; nil gives the actor a set of its
	// own.
	Pending *Pending
}

// Actor performs actions for one identity. It is safe for concurrent use.
type Actor struct {
	c       Clients
	id      Identity
	log     *audit.Log
	pending *Pending
}

// New returns an actor; log may be nil only in tests that do not audit.
func New(c Clients, id Identity, log *audit.Log) *Actor {
	if c.Pending == nil {
		c.Pending = NewPending()
	}
	return &Actor{c: c, id: id, log: log, pending: c.Pending}
}

// ReadOnly reports whether every action is refused.
func (a *Actor) ReadOnly() bool { return a.id.ReadOnly }

// Identity is who acts.
func (a *Actor) Identity() Identity { return a.id }

// NewKey is a fresh idempotency key. Views take theirs from Actor.Key,
// which reuses the key of an attempt whose outcome is unknown.
func NewKey() string { return uuid.NewString() }

// Can says whether an action is possible in this session, and why not.
// An audit log that cannot be written refuses every action: nothing is
// done that could not be recorded. After a failed write the log is
// checked again (audit.Log.Writable), not assumed to be fixed or broken.
func (a *Actor) Can(action string) error {
	if a.id.ReadOnly {
		return ErrReadOnly
	}
	if a.log != nil {
		if err := a.log.Writable(); err != nil {
			return refusal{ErrUnaudited{err}}
		}
	}
	switch action {
	case Freeze, Unfreeze, Sweep:
		if a.c.Transactions == nil {
			return ErrNotConfigured{"a wallet TRANSACTIONS credential (wallet.transactions in the profile)"}
		}
	case Lock, Unlock:
		if a.c.Custody == nil || !a.c.CanSign {
			return ErrNotConfigured{"a custody signing key (custody.signing_key_file in the profile)"}
		}
	default:
		return fmt.Errorf("unknown action %q", action)
	}
	return nil
}

// FreezeTx freezes (freeze true) or unfreezes a wallet transaction with a
// reason, under mutationID (Key: the same on a retry after an unknown
// outcome).
func (a *Actor) FreezeTx(ctx context.Context, tx wallet.Transaction, freeze bool, reason, mutationID string) (wallet.Transaction, error) {
	at := TxAttempt(tx, freeze, reason, mutationID)
	if strings.TrimSpace(reason) == "" {
		return wallet.Transaction{}, a.record(at, ErrNoReason, "", 0)
	}
	verb := "unfreeze"
	if freeze {
		verb = "freeze"
	}
	var got wallet.Transaction
	err := a.send(&at, fmt.Sprintf("PUT %s/%s/transactions/%s/%s", wallet.PathWallets, tx.WalletID, tx.ID, verb), func() (string, error) {
		var err error
		if freeze {
			got, err = a.c.Transactions.Freeze(ctx, walletclient.RefOf(tx), reason, mutationID)
		} else {
			got, err = a.c.Transactions.Unfreeze(ctx, walletclient.RefOf(tx), reason, mutationID)
		}
		return "", err
	})
	return got, err
}

// LockEndpoint locks (lock true) or unlocks a custody endpoint with a signed
// intent whose id is intentID (Key), carrying the operator's reason as the
// intent's custom property "reason" for its approvers. The intent is
// accepted, not yet applied: follow it with Intent.
func (a *Actor) LockEndpoint(ctx context.Context, ep custody.Endpoint, lock bool, reason, intentID string) (custody.IntentAccepted, error) {
	at := EndpointAttempt(ep, lock, reason, intentID)
	if strings.TrimSpace(reason) == "" {
		return custody.IntentAccepted{}, a.record(at, ErrNoReason, "", 0)
	}
	payload := custody.PayloadUnlock
	if lock {
		payload = custody.PayloadLock
	}
	var got custody.IntentAccepted
	err := a.send(&at, fmt.Sprintf("POST %s %s of endpoint %s", custody.PathIntents, payload, ep.ID), func() (string, error) {
		var err error
		got, err = a.c.Custody.Propose(ctx, payload, ep.ID, intentID, map[string]string{PropReason: strings.TrimSpace(reason)})
		return got.RequestID, err
	})
	return got, err
}

// PropReason is the intent's custom property that carries the operator's
// reason for a lock or unlock.
const PropReason = "reason"

// Intent reads an intent's status (no audit: it changes nothing).
func (a *Actor) Intent(ctx context.Context, intentID string) (custody.Intent, error) {
	if a.c.Custody == nil {
		return custody.Intent{}, ErrNotConfigured{"the custody interface"}
	}
	return a.c.Custody.Intent(ctx, intentID)
}

// TriggerSweep starts a run of a sweep configuration under mutationID.
func (a *Actor) TriggerSweep(ctx context.Context, sw wallet.SweepConfig, mutationID string) (wallet.TriggerResponse, error) {
	at := SweepAttempt(sw, mutationID)
	var got wallet.TriggerResponse
	err := a.send(&at, fmt.Sprintf("POST %s/%s/trigger", wallet.PathSweeps, sw.ID), func() (string, error) {
		var err error
		got, err = a.c.Transactions.TriggerSweep(ctx, sw.ID, mutationID)
		if err == nil && got.InstanceID != "" {
			at.Target.Detail["instance"] = got.InstanceID
		}
		return "", err
	})
	return got, err
}

// send runs an attempt that sends a request: refused when the session may
// not act (Can) or another key of the same action on the target is
// pending; then its attempt line, naming request, is appended and synced,
// and only then call sends; then the outcome line, naming the attempt. An
// attempt line that cannot be written refuses the action (ErrUnaudited):
// call is never made. call returns the platform's request id, if any.
func (a *Actor) send(at *Attempt, request string, call func() (requestID string, err error)) error {
	if err := a.Can(at.Action); err != nil {
		return a.record(*at, err, "", 0)
	}
	end, err := a.begin(at.Action, at.Target.ID, at.key(), at.Reason)
	if err != nil {
		return a.record(*at, refusal{err}, "", 0)
	}
	seq, err := a.writeAhead(*at, request)
	if err != nil {
		end(errNotSent)
		return a.record(*at, refusal{ErrUnaudited{err}}, "", 0)
	}
	rid, err := call()
	return a.record(*at, end(err), rid, seq)
}

// Refused records an attempt the session refused before it reached the
// actor (a read-only session's key press) and returns err, or the failure
// to record it too.
func (a *Actor) Refused(at Attempt, err error) error {
	if err == nil {
		err = errors.New("refused")
	}
	return a.record(at, refusal{err}, "", 0)
}

// Cancelled records an attempt whose confirmation the operator closed
// without confirming, with the reason typed if any (at.Reason); wrongCode
// says they had typed a code that does not match, which is recorded as a
// refusal (ErrWrongCode). It returns nil, or ErrWrongCode, or the failure
// to record.
func (a *Actor) Cancelled(at Attempt, wrongCode bool) error {
	if wrongCode {
		return a.record(at, ErrWrongCode, "", 0)
	}
	return a.record(at, errCancelled, "", 0)
}
