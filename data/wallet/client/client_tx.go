package client

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"treasury/data/apierr"
	"treasury/data/transport"
	"treasury/data/wallet"
)

// filterQuery turns the selection of f into the list's query.
func filterQuery(f wallet.ListFilter) url.Values {
	var clauses []string
	for _, kv := range [][2]string{{"status", f.Status}, {"action", f.Action}, {"asset", f.Asset}, {"external_id", f.ExternalID}} {
		if kv[1] != "" {
			clauses = append(clauses, kv[0]+" = "+strconv.Quote(kv[1]))
		}
	}
	q := url.Values{}
	if len(clauses) > 0 {
		q.Set(wallet.QueryFilter, strings.Join(clauses, " AND "))
	}
	if f.OrderBy != "" {
		q.Set(wallet.QueryOrderBy, f.OrderBy)
	}
	return q
}

func txPath(walletID string, rest ...string) string {
	return seg(seg(wallet.PathWallets, walletID)+"/transactions", rest...)
}

func txItems(p wallet.TransactionsPage) ([]wallet.Transaction, wallet.ListFilter) {
	return p.Transactions, p.Filter
}

// walletTransactions reads every page of one wallet's transactions.
func (c *Client) walletTransactions(ctx context.Context, walletID string, q url.Values) ([]wallet.Transaction, error) {
	return c.listTx(ctx, txPath(walletID), q, nested)
}

// listTx reads every page of a list of transactions, drops repeats and
// remembers the wallet of each.
func (c *Client) listTx(ctx context.Context, path string, q url.Values, style pageStyle) ([]wallet.Transaction, error) {
	ts, err := listAll(ctx, c, path, q, style, txItems)
	ts = uniqueTx(ts)
	c.txs.put(ts...)
	return ts, err
}

// uniqueTx drops a transaction met again on a later page (a cursor that
// repeats the record it resumes after, or a list that shifted between
// pages), keeping the first.
func uniqueTx(ts []wallet.Transaction) []wallet.Transaction {
	seen := make(map[string]bool, len(ts))
	out := ts[:0]
	for _, t := range ts {
		if !seen[t.ID] {
			seen[t.ID] = true
			out = append(out, t)
		}
	}
	return out
}

// Transactions reads every transaction f selects, every page. With a
// WalletID it reads that wallet (ERR009.101 when the wallet is missing);
// otherwise every wallet of f.VaultID, or of every vault, concurrently,
// and then, unless f.OrderBy is set, sorts the whole newest first.
func (c *Client) Transactions(ctx context.Context, f wallet.ListFilter) ([]wallet.Transaction, error) {
	q := filterQuery(f)
	if f.WalletID != "" {
		return c.walletTransactions(ctx, f.WalletID, q)
	}
	ws, err := c.Wallets(ctx, f.VaultID)
	if err != nil {
		return nil, err
	}
	ts, err := fanOut(ctx, c, ws, func(ctx context.Context, w wallet.Wallet) ([]wallet.Transaction, error) {
		return gone(c.walletTransactions(ctx, w.ID, q))
	})
	if err != nil {
		return nil, err
	}
	if f.OrderBy == "" {
		slices.SortStableFunc(ts, func(a, b wallet.Transaction) int {
			return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(a.ID, b.ID))
		})
	}
	return ts, nil
}

// walletOf returns the wallet of transaction id: remembered, or found by
// asking each wallet's list for it.
func (c *Client) walletOf(ctx context.Context, id string) (string, error) {
	if id == "" {
		return "", ErrNoID
	}
	if w, ok := c.txs.get(id); ok {
		return w, nil
	}
	ws, err := c.Wallets(ctx, "")
	if err != nil {
		return "", err
	}
	q := url.Values{wallet.QueryFilter: {"id = " + strconv.Quote(id)}, wallet.QueryPageSize: {"1"}}
	found, err := fanOut(ctx, c, ws, func(ctx context.Context, w wallet.Wallet) ([]wallet.Transaction, error) {
		p, err := transport.Get[wallet.TransactionsPage](ctx, c.t, txPath(w.ID), q)
		return p.Transactions, err
	})
	if err != nil {
		return "", err
	}
	c.txs.put(found...)
	if w, ok := c.txs.get(id); ok {
		return w, nil
	}
	return "", ErrTxNotVisible
}

// withWallet runs fn on the wallet of transaction id; when the remembered
// wallet answers not found (ERR009.101, ERR010.004) it forgets it and
// looks once more.
func withWallet[T any](ctx context.Context, c *Client, id string, fn func(walletID string) (T, error)) (T, error) {
	_, known := c.txs.get(id)
	w, err := c.walletOf(ctx, id)
	if err != nil {
		var zero T
		return zero, err
	}
	v, err := fn(w)
	if e, ok := apierr.As(err); ok && known && e.Class == apierr.ClassNotFound {
		c.txs.drop(id)
		if w, err = c.walletOf(ctx, id); err != nil {
			var zero T
			return zero, err
		}
		v, err = fn(w)
	}
	return v, err
}

// Transaction reads one transaction.
func (c *Client) Transaction(ctx context.Context, id string) (wallet.Transaction, error) {
	return withWallet(ctx, c, id, func(w string) (wallet.Transaction, error) {
		t, err := transport.Get[wallet.Transaction](ctx, c.t, txPath(w, id), nil)
		if err == nil {
			c.txs.put(t)
		}
		return t, err
	})
}

// Freeze freezes transaction txID: PUT .../transactions/{id}/freeze with
// {reason, mutationId}. mutationID must be a UUID (NewMutationID); the
// same one on a retry applies the freeze once. A transaction whose state
// forbids it fails with ERR010.008 (class State); a credential that is not
// TRANSACTIONS with 403 ERR000.002.
func (c *Client) Freeze(ctx context.Context, txID, reason, mutationID string) (wallet.Transaction, error) {
	return c.setFrozen(ctx, txID, "freeze", reason, mutationID)
}

// Unfreeze unfreezes transaction txID, as Freeze does.
func (c *Client) Unfreeze(ctx context.Context, txID, reason, mutationID string) (wallet.Transaction, error) {
	return c.setFrozen(ctx, txID, "unfreeze", reason, mutationID)
}

func (c *Client) setFrozen(ctx context.Context, txID, action, reason, mutationID string) (wallet.Transaction, error) {
	switch {
	case txID == "":
		return wallet.Transaction{}, ErrNoID
	case strings.TrimSpace(reason) == "":
		return wallet.Transaction{}, ErrNoReason
	case !ValidMutationID(mutationID):
		return wallet.Transaction{}, ErrMutationID
	}
	return withWallet(ctx, c, txID, func(w string) (wallet.Transaction, error) {
		// A RawMessage is checked for JSON syntax by the transport: an
		// unreadable answer is retried there, with the same mutationId.
		var raw json.RawMessage
		_, err := c.t.Do(ctx, transport.Request{Method: http.MethodPut, Path: txPath(w, txID, action),
			Body: wallet.FreezeRequest{Reason: reason, MutationID: mutationID}, Idempotent: true}, &raw)
		if err != nil {
			return wallet.Transaction{}, err
		}
		var t wallet.Transaction
		if json.Unmarshal(raw, &t) == nil && strings.EqualFold(t.ID, txID) {
			c.txs.put(t)
			return t, nil
		}
		// The answer is not the transaction (empty, or another shape): read it.
		t, err = transport.Get[wallet.Transaction](ctx, c.t, txPath(w, txID), nil)
		if err == nil {
			c.txs.put(t)
		}
		return t, err
	})
}

// FreezeHistory reads every freeze and unfreeze of a transaction, oldest
// first.
func (c *Client) FreezeHistory(ctx context.Context, txID string) ([]wallet.FreezeEvent, error) {
	return withWallet(ctx, c, txID, func(w string) ([]wallet.FreezeEvent, error) {
		return listAll(ctx, c, txPath(w, txID, "freeze-history"), nil, topLevel,
			func(p wallet.FreezeHistoryPage) ([]wallet.FreezeEvent, wallet.ListFilter) { return p.History, p.Filter })
	})
}
