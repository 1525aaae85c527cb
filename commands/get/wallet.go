package get

import (
	"context"

	"treasury/desk/platform"
	custodyclient "treasury/wire/custody/client"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// walletResources are the resources of the wallet and custody interfaces.
func walletResources() []getResource {
	mon := func(p *platform.Platform) (*walletclient.Client, error) {
		if p.Wallet == nil {
			return nil, errNotConfigured("wallet")
		}
		return p.Wallet, nil
	}
	// Limits and policies need a CONTROLS credential; without one the
	// monitoring credential is tried and the interface says why not.
	ctl := func(p *platform.Platform) (*walletclient.Client, error) {
		if p.WalletControls != nil {
			return p.WalletControls, nil
		}
		return mon(p)
	}
	rs := []getResource{
		{name: "vaults", summary: "wallet vaults",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) { return c.Vaults(ctx) })},
		{name: "wallets", arg: "[VAULT]", summary: "wallets of a vault, or of every vault",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) { return c.Wallets(ctx, a.id) })},
		{name: "wallet", arg: "ID", summary: "one wallet",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) { return c.Wallet(ctx, a.id) })},
		{name: "wallet-balances", arg: "WALLET", summary: "a wallet's balances per asset",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) {
				return c.Balances(ctx, "", a.id)
			})},
		{name: "transactions", aliases: []string{"txs"}, summary: "wallet transactions, newest first", flags: []string{"wallet", "state"},
			enums: map[string][]string{"state": {wallet.TxRequested, wallet.TxPolicyCheckPending, wallet.TxPendingApproval,
				wallet.TxSigning, wallet.TxBroadcasted, wallet.TxConfirmed, wallet.TxRejected, wallet.TxFailed}},
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) {
				f := wallet.ListFilter{WalletID: a.wallet}
				if len(a.states) == 1 {
					f.Status = a.states[0]
				}
				return c.Transactions(ctx, f)
			})},
		{name: "transaction", aliases: []string{"tx"}, arg: "ID", summary: "one wallet transaction",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) {
				return c.Transaction(ctx, a.id)
			})},
		{name: "freeze-history", aliases: []string{"freezes"}, arg: "TX", summary: "a transaction's freezes and unfreezes",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) {
				return c.FreezeHistory(ctx, walletclient.Ref{TxID: a.id})
			})},
		{name: "limits", arg: "WALLET", summary: "a wallet's limits (CONTROLS credential)",
			read: withClient(ctl, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) { return c.Limits(ctx, a.id) })},
		{name: "policies", aliases: []string{"policy-rules"}, summary: "org-wide policy rules (CONTROLS credential)",
			read: withClient(ctl, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) { return c.Policies(ctx) })},
		{name: "counterparties", summary: "wallet counterparties",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) {
				return c.Counterparties(ctx)
			})},
		{name: "addresses", arg: "CP", summary: "a counterparty's addresses",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) {
				return c.Addresses(ctx, a.id)
			})},
		{name: "webhooks", summary: "wallet webhooks",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) { return c.Webhooks(ctx) })},
		{name: "subscriptions", arg: "[WEBHOOK]", summary: "webhook subscriptions, of one webhook or all",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) {
				if a.id != "" {
					return c.WebhookSubscriptions(ctx, a.id)
				}
				return c.Subscriptions(ctx)
			})},
		{name: "sweeps", summary: "sweep configurations",
			read: withClient(mon, func(ctx context.Context, c *walletclient.Client, a getArgs) (any, error) { return c.Sweeps(ctx) })},
	}
	return append(rs, custodyResources()...)
}

// custodyResources are the resources of the custody interface.
func custodyResources() []getResource {
	cus := func(p *platform.Platform) (*custodyclient.Client, error) {
		if p.Custody == nil {
			return nil, errNotConfigured("custody")
		}
		return p.Custody, nil
	}
	return []getResource{
		{name: "endpoints", summary: "custody endpoints of the profile's domain",
			read: withClient(cus, func(ctx context.Context, c *custodyclient.Client, a getArgs) (any, error) { return c.Endpoints(ctx) })},
		{name: "endpoint", arg: "ID", summary: "one custody endpoint",
			read: withClient(cus, func(ctx context.Context, c *custodyclient.Client, a getArgs) (any, error) {
				return c.Endpoint(ctx, a.id)
			})},
	}
}
