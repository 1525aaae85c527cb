package client

import (
	"context"
	"net/http"

	"treasury/wire/apierr"
	"treasury/wire/transport"
	"treasury/wire/wallet"
)

// Ref names a wallet, or a transaction of a wallet, with what a path to it
// needs. VaultID may be empty: the client finds it when the server serves
// only the vault form of the paths.
type Ref struct {
	VaultID  string
	WalletID string
	// TxID is the transaction, for the paths under it.
	TxID string
}

// RefOf is the reference of a transaction record.
func RefOf(t wallet.Transaction) Ref {
	return Ref{VaultID: t.VaultID, WalletID: t.WalletID, TxID: t.ID}
}

// pathForm is one of the two forms of the per-wallet paths the spec writes
// `.../wallets/{walletId}/...`.
const (
	formWallet int32 = iota // /v2/wallets/{walletId}/...
	formVault               // /v2/vaults/{vaultId}/wallets/{walletId}/...
)

func (c *Client) rememberVault(walletID, vaultID string) {
	if walletID != "" && vaultID != "" {
		c.shared.vaults.Store(walletID, vaultID)
	}
}

// vaultOf is the vault of a wallet: known, or read with GET
// /v2/wallets/{id} (a path the spec lists).
func (c *Client) vaultOf(ctx context.Context, r Ref) (string, error) {
	if r.VaultID != "" {
		return r.VaultID, nil
	}
	if v, ok := c.shared.vaults.Load(r.WalletID); ok {
		return v.(string), nil
	}
	w, err := c.Wallet(ctx, r.WalletID)
	if err != nil {
		return "", err
	}
	return w.VaultID, nil
}

// subPath is the path of rest under the wallet of r in form f.
func (c *Client) subPath(ctx context.Context, f int32, r Ref, rest []string) (string, error) {
	if f == formWallet {
		return seg(seg(wallet.PathWallets, r.WalletID), rest...), nil
	}
	v, err := c.vaultOf(ctx, r)
	if err != nil {
		return "", err
	}
	return seg(seg(wallet.PathVaults, v, "wallets", r.WalletID), rest...), nil
}

// routeMissing reports whether err says the path itself is unknown to the
// server (not that the wallet or transaction is): a 404 without a reason
// code, a 405, or a 501.
func routeMissing(err error) bool {
	e, ok := apierr.As(err)
	if !ok {
		return false
	}
	return (e.HTTPStatus == http.StatusNotFound && e.Code == "") || e.HTTPStatus == http.StatusMethodNotAllowed ||
		e.HTTPStatus == http.StatusNotImplemented
}

// onWallet calls call with the path of rest under the wallet of r, in the
// form that works: the one learnt, else the other after an answer that
// says the route does not exist, which is then kept.
//
// call must send with the context it is given: the failure of the form
// that does not exist is held (transport.Hold) and dropped when the other
// form works, since the server only told the client its choice.
func onWallet[T any](ctx context.Context, c *Client, r Ref, rest []string, call func(ctx context.Context, path string) (T, error)) (T, error) {
	f := c.shared.form.Load()
	var zero T
	p, err := c.subPath(ctx, f, r, rest)
	if err != nil {
		return zero, err
	}
	hctx, held := transport.Hold(ctx)
	v, err := call(hctx, p)
	if !routeMissing(err) {
		held.Release()
		return v, err
	}
	other := formVault - f
	p2, perr := c.subPath(ctx, other, r, rest)
	if perr != nil {
		held.Release()
		return v, err
	}
	v2, err2 := call(ctx, p2)
	if routeMissing(err2) {
		held.Release()
		return v, err
	}
	held.Drop()
	c.shared.form.Store(other)
	return v2, err2
}

// txRest is the path of a transaction (txID "" for the list) and of
// rest under it, relative to its wallet.
func txRest(txID string, rest ...string) []string {
	out := []string{"transactions"}
	if txID != "" {
		out = append(out, txID)
	}
	return append(out, rest...)
}
