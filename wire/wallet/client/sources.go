package client

import (
	"cmp"

	"treasury/wire/wallet"
)

// The names a read that spans several records (the wallets of each vault,
// the transactions of each wallet, the subscriptions of each webhook)
// gives, in its *wire.Partial, to the records whose part failed: a view
// finds by them which of its records the data is incomplete for.

// VaultSource names a vault in a partial read.
func VaultSource(v wallet.Vault) string { return "vault " + cmp.Or(v.Name, v.ID) }

// WalletSource names a wallet in a partial read.
func WalletSource(w wallet.Wallet) string { return "wallet " + cmp.Or(w.Name, w.ID) }

// WebhookSource names a webhook in a partial read.
func WebhookSource(h wallet.Webhook) string { return "webhook " + cmp.Or(h.Name, h.ID) }
