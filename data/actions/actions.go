// Package actions performs the dashboard's operator actions (freeze and
// unfreeze a wallet transaction, lock and unlock a custody endpoint,
// trigger a sweep) for one operator: it refuses them all in a read-only
// session, gives each confirmed action an idempotency key (mutationId or
// intent id) that a retry after an unknown outcome reuses (Pending, Key),
// and appends every attempt, refused, failed or done, to the audit log.
//
// The confirmation itself is the UI's: a view asks the operator, then calls
// the Actor once per confirmed action.
package actions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"treasury/data/apierr"
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

// ErrNoReason refuses a freeze or unfreeze without a reason: the wallet
// client's own refusal, given before anything is sent.
var ErrNoReason = walletclient.ErrNoReason

// ErrNotConfigured refuses an action the profile has no credential for.
type ErrNotConfigured struct{ What string }

func (e ErrNotConfigured) Error() string {
	return "not configured: " + e.What
}

// Identity is who acts, where.
type Identity struct {
	Profile, Environment string
	// Operator is the local user, or "ssh:<user> <fingerprint>".
	Operator string
	ReadOnly bool
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
	now     func() time.Time
	pending *Pending
}

// New returns an actor; log may be nil only in tests that do not audit.
func New(c Clients, id Identity, log *audit.Log, now func() time.Time) *Actor {
	if now == nil {
		now = time.Now
	}
	if c.Pending == nil {
		c.Pending = NewPending()
	}
	return &Actor{c: c, id: id, log: log, now: now, pending: c.Pending}
}

// ReadOnly reports whether every action is refused.
func (a *Actor) ReadOnly() bool { return a.id.ReadOnly }

// Identity is who acts.
func (a *Actor) Identity() Identity { return a.id }

// NewKey is a fresh idempotency key. Views take theirs from Actor.Key,
// which reuses the key of an attempt whose outcome is unknown.
func NewKey() string { return uuid.NewString() }

// Can says whether an action is possible in this session, and why not.
func (a *Actor) Can(action string) error {
	if a.id.ReadOnly {
		return ErrReadOnly
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
	action := Unfreeze
	if freeze {
		action = Freeze
	}
	e := a.entry(action, map[string]string{"transaction": tx.ID, "wallet": tx.WalletID, "vault": tx.VaultID,
		"asset": tx.Asset, "qty": tx.Qty.String()})
	e.Reason, e.MutationID = reason, mutationID
	if strings.TrimSpace(reason) == "" {
		return wallet.Transaction{}, a.done(e, ErrNoReason)
	}
	if err := a.Can(action); err != nil {
		return wallet.Transaction{}, a.done(e, err)
	}
	end, err := a.begin(action, tx.ID, mutationID, reason)
	if err != nil {
		return wallet.Transaction{}, a.done(e, err)
	}
	var got wallet.Transaction
	if freeze {
		got, err = a.c.Transactions.Freeze(ctx, walletclient.RefOf(tx), reason, mutationID)
	} else {
		got, err = a.c.Transactions.Unfreeze(ctx, walletclient.RefOf(tx), reason, mutationID)
	}
	return got, a.done(e, end(err))
}

// LockEndpoint locks (lock true) or unlocks a custody endpoint with a signed
// intent whose id is intentID (Key). The intent is accepted, not yet
// applied: follow it with Intent.
func (a *Actor) LockEndpoint(ctx context.Context, ep custody.Endpoint, lock bool, intentID string) (custody.IntentAccepted, error) {
	action := Unlock
	if lock {
		action = Lock
	}
	e := a.entry(action, map[string]string{"endpoint": ep.ID, "alias": ep.Alias, "address": ep.Address, "ledger": ep.LedgerID})
	e.IntentID = intentID
	if err := a.Can(action); err != nil {
		return custody.IntentAccepted{}, a.done(e, err)
	}
	end, err := a.begin(action, ep.ID, intentID, "")
	if err != nil {
		return custody.IntentAccepted{}, a.done(e, err)
	}
	var got custody.IntentAccepted
	if lock {
		got, err = a.c.Custody.Lock(ctx, ep.ID, intentID)
	} else {
		got, err = a.c.Custody.Unlock(ctx, ep.ID, intentID)
	}
	return got, a.done(e, end(err))
}

// Intent reads an intent's status (no audit: it changes nothing).
func (a *Actor) Intent(ctx context.Context, intentID string) (custody.Intent, error) {
	if a.c.Custody == nil {
		return custody.Intent{}, ErrNotConfigured{"the custody interface"}
	}
	return a.c.Custody.Intent(ctx, intentID)
}

// TriggerSweep starts a run of a sweep configuration under mutationID
// (Key).
func (a *Actor) TriggerSweep(ctx context.Context, sw wallet.SweepConfig, mutationID string) (wallet.TriggerResponse, error) {
	e := a.entry(Sweep, map[string]string{"sweep": sw.ID, "name": sw.Name, "destinationWallet": sw.DestinationWallet})
	e.MutationID = mutationID
	if err := a.Can(Sweep); err != nil {
		return wallet.TriggerResponse{}, a.done(e, err)
	}
	end, err := a.begin(Sweep, sw.ID, mutationID, "")
	if err != nil {
		return wallet.TriggerResponse{}, a.done(e, err)
	}
	got, err := a.c.Transactions.TriggerSweep(ctx, sw.ID, mutationID)
	err = end(err)
	if err == nil && got.InstanceID != "" {
		e.Targets["instance"] = got.InstanceID
	}
	return got, a.done(e, err)
}

func (a *Actor) entry(action string, targets map[string]string) audit.Entry {
	for k, v := range targets {
		if v == "" {
			delete(targets, k)
		}
	}
	return audit.Entry{Time: a.now(), Profile: a.id.Profile, Environment: a.id.Environment,
		Operator: a.id.Operator, Action: action, Targets: targets}
}

// done records the outcome and returns err, or the audit failure: an
// action that cannot be recorded is reported, never silently kept.
func (a *Actor) done(e audit.Entry, err error) error {
	switch {
	case err == nil:
		e.Outcome = audit.OutcomeOK
	case errors.Is(err, ErrReadOnly) || errors.As(err, new(ErrNotConfigured)) || errors.Is(err, ErrNoReason) ||
		errors.As(err, new(ErrPending)):
		e.Outcome = audit.OutcomeRefused
		e.Error = err.Error()
	default:
		e.Outcome = audit.OutcomeError
		e.Error = err.Error()
		var ae *apierr.Error
		if errors.As(err, &ae) {
			e.ErrorCode = ae.Code
		}
	}
	if a.log != nil {
		if lerr := a.log.Append(e); lerr != nil {
			if err == nil {
				return fmt.Errorf("the action was done but could not be audited: %w", lerr)
			}
			return errors.Join(err, lerr)
		}
	}
	return err
}
