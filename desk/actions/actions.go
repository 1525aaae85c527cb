// Package actions performs the dashboard's operator actions (freeze and
// unfreeze a wallet transaction, lock and unlock a custody endpoint,
// trigger a sweep) for one operator: it refuses them all in a read-only
// session, gives each confirmed action an idempotency key (mutationId or
// intent id) that a retry after an unknown outcome reuses (Pending, Key),
// and writes every attempt, however it ends (done, failed, refused,
// cancelled in the confirmation, or unknown when no answer came), to the
// audit log.
//
// The log is written ahead, and it is the one record of every process on
// the state directory: before an action's request leaves the process, its
// attempt line (who, what, target, environment, reason, key, and the
// request exactly as it is sent, body included) is appended and synced,
// with the log locked and read to its end, so the key it sends is decided
// on every line any process wrote (Pending); the outcome line that follows
// names it. When the attempt line cannot be written the action is refused
// before anything is sent (ErrUnaudited), and so is every later one until
// the log is found writable again. The request is built once (a route
// resolved before the attempt, a body made under the lock) and that one
// value is what the dialog shows, the attempt line records and the wire
// carries.
//
// The confirmation itself is the UI's: a view asks the operator, then calls
// the Actor once per confirmed action, or Cancelled or Refused when the
// attempt ended before that.
package actions

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/uuid"

	"treasury/config"
	"treasury/desk/audit"
	"treasury/wire/custody"
	custodyclient "treasury/wire/custody/client"
	"treasury/wire/transport"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// Action names, as written to the audit log.
const (
	Freeze   = "freeze"
	Unfreeze = "unfreeze"
	Lock     = "lock"
	Unlock   = "unlock"
	Sweep    = "sweep"
)

// ErrReadOnly refuses an action in a read-only session: config's, which
// the shell refuses with too.
var ErrReadOnly = config.ErrReadOnly

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
	Custody *custodyclient.Client
	CanSign bool
	// Blind, for the soak's control run only (tools/soak -break), takes
	// the keys the log leaves open as they are and sends them again
	// without reading the platform first, and takes any answer as done
	// without reading the record back: the behaviour that recorded an
	// action done while the platform held it undone. Never set it
	// elsewhere.
	Blind bool
	// Pending is the process's reading of the keys in the audit log, one
	// for every session (Pending.Follow); nil gives the actor one of its
	// own, following its log.
	Pending *Pending
	// OnOutcome, when set, is told the end of each attempt (its action
	// and outcome, as its line says it), whether or not the line could be
	// written: the process's metrics.
	OnOutcome func(action, outcome string)
}

// Actor performs actions for one identity. It is safe for concurrent use.
type Actor struct {
	c       Clients
	id      Identity
	log     *audit.Log
	pending *Pending
}

// New returns an actor; log may be nil only in tests that do not audit
// (every key is then the one the caller took).
func New(c Clients, id Identity, log *audit.Log) *Actor {
	if c.Pending == nil {
		c.Pending = NewPending()
		if log != nil {
			_, _ = c.Pending.Follow(log) // a log that cannot be read refuses the action, and says so
		}
	}
	return &Actor{c: c, id: id, log: log, pending: c.Pending}
}

// ReadOnly reports whether every action is refused.
func (a *Actor) ReadOnly() bool { return a.id.ReadOnly }

// Identity is who acts.
func (a *Actor) Identity() Identity { return a.id }

// NewKey is a fresh idempotency key. Views take theirs from Actor.Key,
// which reuses the key of an attempt whose outcome is not known.
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

// Sent is what an action sent: the key decided when its attempt line was
// written (Key's, or that of an attempt not settled, which this one then
// retries), and the request line recorded and sent.
type Sent struct {
	Key string
	// Retry is the attempt whose key was reused; nil for a new key.
	Retry   *PendingAttempt
	Request string
	// Evidence is what the platform's answer, or the read after it, says
	// of the record; Holds the record's state as that read found it
	// ("frozen", "last run 3f2… (running)", "intent Pending; endpoint
	// Unlocked"): what a result may say the platform holds.
	Evidence, Holds string
}

// Key returns the key for the next attempt of action on target, read from
// the log as every process has written it: the key of an attempt not
// settled (on its way, interrupted, or unknown: Retry says which, by
// whom, from where, when), else a new one. Take it when the operator is
// asked and pass it to the action, which decides again, under the log's
// lock, what it sends.
func (a *Actor) Key(action, target string) Key {
	if a.log != nil {
		// The local file only: this runs as a key is pressed, and a
		// site's lines come through the log's watcher; the action reads
		// the site again before it decides.
		_ = a.log.RefreshLocal() // a failure to read is met again, and said, by the action
	}
	return a.pending.key(action, target)
}

// FreezeRoute reads the transaction and resolves where its freeze (freeze
// true) or unfreeze goes, before the operator confirms: the dialog shows
// the request line that will be recorded and sent. It returns the
// transaction as read.
func (a *Actor) FreezeRoute(ctx context.Context, tx wallet.Transaction, freeze bool) (walletclient.Route, wallet.Transaction, error) {
	if a.c.Transactions == nil {
		return walletclient.Route{}, tx, ErrNotConfigured{"a wallet TRANSACTIONS credential (wallet.transactions in the profile)"}
	}
	return a.c.Transactions.FreezeRoute(ctx, walletclient.RefOf(tx), freeze)
}

// IntentLine is the request line of every lock and unlock: one path,
// whatever the endpoint (the dialog shows it before the endpoint is read).
func IntentLine() string { return http.MethodPost + " " + custody.PathIntents }

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

// TriggerSweep starts a run of a sweep configuration under the key k
// (Key).
func (a *Actor) TriggerSweep(ctx context.Context, sw wallet.SweepConfig, k Key) (wallet.TriggerResponse, Sent, error) {
	at := SweepAttempt(sw, k.ID)
	var got wallet.TriggerResponse
	sent, err := a.send(&at, k, func() (builder, error) {
		rt, err := walletclient.SweepRoute(sw.ID)
		if err != nil {
			return nil, err
		}
		return rt.Trigger, nil
	}, func(m transport.Mutation, _ string, retry bool) (answer, error) {
		var err error
		if got, err = a.c.Transactions.SendTrigger(ctx, m); err != nil {
			return answer{}, err
		}
		if got.InstanceID != "" {
			at.Target.Detail["instance"] = got.InstanceID
		}
		return a.confirmTrigger(ctx, sw.ID, got.InstanceID, retry)
	})
	return got, sent, err
}

// Refused records an attempt the session refused before it reached the
// actor (a read-only session's key press) and returns err, or the failure
// to record it too.
func (a *Actor) Refused(at Attempt, err error) error {
	if err == nil {
		err = errors.New("refused")
	}
	return a.record(at, refusal{err}, answer{}, 0)
}

// Cancelled records an attempt whose confirmation the operator closed
// without confirming, with the reason typed if any (at.Reason); wrongCode
// says they had typed a code that does not match, which is recorded as a
// refusal (ErrWrongCode). It returns nil, or ErrWrongCode, or the failure
// to record.
func (a *Actor) Cancelled(at Attempt, wrongCode bool) error {
	if wrongCode {
		return a.record(at, ErrWrongCode, answer{}, 0)
	}
	return a.record(at, errCancelled, answer{}, 0)
}
