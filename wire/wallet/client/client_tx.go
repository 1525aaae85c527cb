package client

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"treasury/wire/apierr"
	"treasury/wire/transport"
	"treasury/wire/wallet"
)

// filterQuery turns the selection of f into the list's query.
func filterQuery(f wallet.ListFilter) url.Values {
	var clauses []string
	for _, kv := range [][2]string{{"id", f.ID}, {"status", f.Status}, {"action", f.Action}, {"asset", f.Asset}, {"external_id", f.ExternalID}} {
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

// refusedFilter reports whether err is the 400 of a server that does not
// take the filter parameter (a parser error without a reason, or one that
// names the filter), not of a bad page size.
func refusedFilter(err error) bool {
	e, ok := apierr.As(err)
	if !ok || e.HTTPStatus != http.StatusBadRequest {
		return false
	}
	return e.Code == "" || strings.Contains(strings.ToLower(e.Message), "filter")
}

// selected applies the selection of f locally (for a server that does not
// take the filter parameter).
func selected(ts []wallet.Transaction, f wallet.ListFilter) []wallet.Transaction {
	return slices.DeleteFunc(ts, func(t wallet.Transaction) bool {
		return (f.ID != "" && !strings.EqualFold(t.ID, f.ID)) || (f.Status != "" && t.Status != f.Status) || (f.Action != "" && t.Action != f.Action) ||
			(f.Asset != "" && t.Asset != f.Asset) || (f.ExternalID != "" && t.ExternalID != f.ExternalID)
	})
}

// walletTransactions reads every page of one wallet's transactions that f
// selects, through the filter parameter while the server takes it.
func (c *Client) walletTransactions(ctx context.Context, r Ref, f wallet.ListFilter) ([]wallet.Transaction, error) {
	q := filterQuery(f)
	read := func(q url.Values) ([]wallet.Transaction, error) {
		return onWallet(ctx, c, r, txRest(""), func(ctx context.Context, path string) ([]wallet.Transaction, error) {
			return c.listTx(ctx, path, q, nested)
		})
	}
	if q.Has(wallet.QueryFilter) && !c.shared.noFilter.Load() {
		ts, err := read(q)
		if err == nil || !refusedFilter(err) {
			return ts, err
		}
		c.shared.noFilter.Store(true)
	}
	q.Del(wallet.QueryFilter)
	ts, err := read(q)
	return selected(ts, f), err
}

// listTx reads every page of a list of transactions, drops repeats and
// remembers the wallet of each.
func (c *Client) listTx(ctx context.Context, path string, q url.Values, style pageStyle) ([]wallet.Transaction, error) {
	ts, err := listAll[wallet.Transaction](ctx, c, "transactions", path, "transactions", q, style)
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
// and then, unless f.OrderBy is set, sorts the whole newest first. A
// wallet whose list fails does not blank the others: their transactions
// come back with a *wire.Partial that names the wallets that failed.
func (c *Client) Transactions(ctx context.Context, f wallet.ListFilter) ([]wallet.Transaction, error) {
	if f.WalletID != "" {
		return c.walletTransactions(ctx, Ref{VaultID: f.VaultID, WalletID: f.WalletID}, f)
	}
	ws, err := c.Wallets(ctx, f.VaultID)
	if err != nil && len(ws) == 0 {
		return nil, err
	}
	ts, terr := fanOut(ctx, "transactions of each wallet", ws, WalletSource, func(ctx context.Context, w wallet.Wallet) ([]wallet.Transaction, error) {
		return gone(c.walletTransactions(ctx, Ref{VaultID: w.VaultID, WalletID: w.ID}, f))
	})
	if terr != nil && ts == nil {
		return nil, terr
	}
	if f.OrderBy == "" {
		slices.SortStableFunc(ts, func(a, b wallet.Transaction) int {
			return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(a.ID, b.ID))
		})
	}
	return ts, cmp.Or(terr, err) // a vault whose wallets failed is a partial read too
}

// walletOf returns the wallet of transaction id: remembered, or found by
// asking each wallet's list for it.
func (c *Client) walletOf(ctx context.Context, id string) (Ref, error) {
	if id == "" {
		return Ref{}, ErrNoID
	}
	if r, ok := c.txs.get(id); ok {
		return r, nil
	}
	ws, err := c.Wallets(ctx, "")
	if err != nil && len(ws) == 0 {
		return Ref{}, err
	}
	_, serr := fanOut(ctx, "transaction search", ws, WalletSource, func(ctx context.Context, w wallet.Wallet) ([]wallet.Transaction, error) {
		return gone(c.walletTransactions(ctx, Ref{VaultID: w.VaultID, WalletID: w.ID}, wallet.ListFilter{ID: id}))
	})
	if r, ok := c.txs.get(id); ok {
		return r, nil
	}
	if err := cmp.Or(serr, err); err != nil {
		return Ref{}, err // not found where it could be read: it may be where it could not
	}
	return Ref{}, ErrTxNotVisible
}

// withTx runs fn on the transaction of r, finding its wallet when r does
// not name it; when a remembered wallet answers not found (ERR009.101,
// ERR010.004) it forgets it and looks once more.
func withTx[T any](ctx context.Context, c *Client, r Ref, fn func(r Ref) (T, error)) (T, error) {
	var zero T
	if r.TxID == "" {
		return zero, ErrNoID
	}
	remembered := false
	if r.WalletID == "" {
		_, remembered = c.txs.get(r.TxID)
		found, err := c.walletOf(ctx, r.TxID)
		if err != nil {
			return zero, err
		}
		r.VaultID, r.WalletID = found.VaultID, found.WalletID
	}
	v, err := fn(r)
	if e, ok := apierr.As(err); ok && remembered && e.Class == apierr.ClassNotFound {
		c.txs.drop(r.TxID)
		found, ferr := c.walletOf(ctx, r.TxID)
		if ferr != nil {
			return zero, ferr
		}
		r.VaultID, r.WalletID = found.VaultID, found.WalletID
		v, err = fn(r)
	}
	return v, err
}

// Transaction reads one transaction by id, finding its wallet.
func (c *Client) Transaction(ctx context.Context, id string) (wallet.Transaction, error) {
	return c.TransactionAt(ctx, Ref{TxID: id})
}

// TransactionAt reads one transaction; r names its wallet when the caller
// knows it (then nothing else is read).
func (c *Client) TransactionAt(ctx context.Context, r Ref) (wallet.Transaction, error) {
	return withTx(ctx, c, r, func(r Ref) (wallet.Transaction, error) {
		t, err := onWallet(ctx, c, r, txRest(r.TxID), func(ctx context.Context, path string) (wallet.Transaction, error) {
			return transport.Get[wallet.Transaction](ctx, c.t, path, nil)
		})
		if err == nil {
			c.txs.put(t)
		}
		return t, err
	})
}

// FreezeHistory reads every freeze and unfreeze of a transaction, oldest
// first.
func (c *Client) FreezeHistory(ctx context.Context, r Ref) ([]wallet.FreezeEvent, error) {
	return withTx(ctx, c, r, func(r Ref) ([]wallet.FreezeEvent, error) {
		return onWallet(ctx, c, r, txRest(r.TxID, "freeze-history"), func(ctx context.Context, path string) ([]wallet.FreezeEvent, error) {
			return listAll[wallet.FreezeEvent](ctx, c, "freeze history", path, "history", nil, topLevel)
		})
	})
}
