package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"treasury/wire"
	"treasury/wire/transport"
	"treasury/wire/wallet"
)

// Route is where a wallet action goes, resolved before anything is sent:
// the request's method and path exactly as they go on the wire. The
// mutation built from it (Freeze, Trigger) is what the audit log records
// and what Send... sends, once.
type Route struct {
	Method, Path string
	ref          Ref
}

// Line is the request line: "PUT /v2/vaults/v/wallets/w/transactions/t/freeze".
func (rt Route) Line() string { return rt.Method + " " + rt.Path }

// Ref is the transaction the route acts on, its wallet and vault as
// resolved.
func (rt Route) Ref() Ref { return rt.ref }

// FreezeRoute resolves where a freeze (freeze true) or unfreeze of the
// transaction r goes. It reads the transaction first (GET
// .../transactions/{id}): that finds its wallet when r does not name it
// (or names one it left), and learns which form of the per-wallet paths
// the server serves, for every client sharing this one's memory
// (SharingWith), so the action is sent once, to the path recorded, never
// first to a form the server does not serve.
func (c *Client) FreezeRoute(ctx context.Context, r Ref, freeze bool) (Route, wallet.Transaction, error) {
	t, err := c.TransactionAt(ctx, r)
	if err != nil {
		return Route{}, t, err
	}
	ref := RefOf(t)
	if ref.WalletID == "" {
		ref.WalletID = r.WalletID
	}
	if ref.VaultID == "" {
		ref.VaultID = r.VaultID
	}
	verb := "unfreeze"
	if freeze {
		verb = "freeze"
	}
	path, err := c.subPath(ctx, c.shared.form.Load(), ref, txRest(ref.TxID, verb))
	if err != nil {
		return Route{}, t, err
	}
	return Route{Method: http.MethodPut, Path: path, ref: ref}, t, nil
}

// Freeze builds the freeze or unfreeze of rt (FreezeRoute) with reason
// under mutationID: {reason, mutationId}. A reason is required and
// mutationID must be a UUID (NewMutationID); the same one on a retry
// applies the change once.
func (rt Route) Freeze(reason, mutationID string) (transport.Mutation, error) {
	switch {
	case rt.ref.TxID == "" || rt.Path == "":
		return transport.Mutation{}, ErrNoID
	case strings.TrimSpace(reason) == "":
		return transport.Mutation{}, ErrNoReason
	case !ValidMutationID(mutationID):
		return transport.Mutation{}, ErrMutationID
	}
	return transport.NewMutation(rt.Method, rt.Path, wallet.FreezeRequest{Reason: reason, MutationID: mutationID})
}

// SendFreeze sends m, a freeze or unfreeze built from rt, and returns the
// transaction as answered (read again when the answer is not the
// transaction). A transaction whose state forbids it fails with
// ERR010.008 (class State); a credential that is not TRANSACTIONS with
// 403 ERR000.002.
func (c *Client) SendFreeze(ctx context.Context, rt Route, m transport.Mutation) (wallet.Transaction, error) {
	var raw json.RawMessage // checked for JSON syntax by the transport
	if _, err := c.t.Send(ctx, m, &raw); err != nil {
		return wallet.Transaction{}, err
	}
	if t, err := wire.Decode[wallet.Transaction](raw); err == nil && strings.EqualFold(t.ID, rt.ref.TxID) {
		c.txs.put(t)
		return t, nil
	}
	// The answer is not the transaction (empty, or another shape): read it.
	return c.TransactionAt(ctx, rt.ref)
}

// Freeze freezes the transaction r (FreezeRoute, Freeze, SendFreeze): r
// should name the wallet (RefOf a record the caller holds).
func (c *Client) Freeze(ctx context.Context, r Ref, reason, mutationID string) (wallet.Transaction, error) {
	return c.setFrozen(ctx, r, true, reason, mutationID)
}

// Unfreeze unfreezes the transaction r, as Freeze does.
func (c *Client) Unfreeze(ctx context.Context, r Ref, reason, mutationID string) (wallet.Transaction, error) {
	return c.setFrozen(ctx, r, false, reason, mutationID)
}

func (c *Client) setFrozen(ctx context.Context, r Ref, freeze bool, reason, mutationID string) (wallet.Transaction, error) {
	switch {
	case r.TxID == "":
		return wallet.Transaction{}, ErrNoID
	case strings.TrimSpace(reason) == "":
		return wallet.Transaction{}, ErrNoReason
	case !ValidMutationID(mutationID):
		return wallet.Transaction{}, ErrMutationID
	}
	rt, _, err := c.FreezeRoute(ctx, r, freeze)
	if err != nil {
		return wallet.Transaction{}, err
	}
	m, err := rt.Freeze(reason, mutationID)
	if err != nil {
		return wallet.Transaction{}, err
	}
	return c.SendFreeze(ctx, rt, m)
}

// sweepTrigger is the body of a trigger: the spec shows none; the client
// sends the caller's mutationId so that a retry is recognisable.
type sweepTrigger struct {
	MutationID string `json:"mutationId"`
}

// SweepRoute is where a run of sweep configuration sweepID is triggered:
// POST /v2/workflows/sweep/{id}/trigger (nothing to learn: the path has
// one form).
func SweepRoute(sweepID string) (Route, error) {
	if sweepID == "" {
		return Route{}, ErrNoID
	}
	return Route{Method: http.MethodPost, Path: seg(wallet.PathSweeps, sweepID, "trigger")}, nil
}

// Trigger builds the trigger of rt (SweepRoute) under mutationID (a UUID)
// in the body.
func (rt Route) Trigger(mutationID string) (transport.Mutation, error) {
	if !ValidMutationID(mutationID) {
		return transport.Mutation{}, ErrMutationID
	}
	return transport.NewMutation(rt.Method, rt.Path, sweepTrigger{MutationID: mutationID})
}

// SendTrigger sends m, a trigger, once (marked Idempotent with its
// mutationId). A configuration already running fails with ERR017.006
// (class State): also what a retry meets when the first attempt started
// the sweep but its answer was lost. It needs a TRANSACTIONS credential.
func (c *Client) SendTrigger(ctx context.Context, m transport.Mutation) (wallet.TriggerResponse, error) {
	var r wallet.TriggerResponse
	_, err := c.t.Send(ctx, m, &r)
	return r, err
}

// TriggerSweep starts an instance of sweep configuration sweepID
// (SweepRoute, Trigger, SendTrigger).
func (c *Client) TriggerSweep(ctx context.Context, sweepID, mutationID string) (wallet.TriggerResponse, error) {
	rt, err := SweepRoute(sweepID)
	if err != nil {
		return wallet.TriggerResponse{}, err
	}
	m, err := rt.Trigger(mutationID)
	if err != nil {
		return wallet.TriggerResponse{}, err
	}
	return c.SendTrigger(ctx, m)
}

// SharingWith returns a copy of c (its own transport and credential) that
// shares what o has learnt of the server and will learn: which form of
// the per-wallet paths it serves, the vault of each wallet, the wallet of
// each transaction, page sizes, whether it takes the filter parameter.
// The interface's clients (reads, controls, transactions) then each learn
// it once for all.
func (c *Client) SharingWith(o *Client) *Client {
	cc := *c
	cc.shared, cc.txs = o.shared, o.txs
	return &cc
}
