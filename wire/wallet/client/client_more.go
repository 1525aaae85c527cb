package client

import (
	"cmp"
	"context"

	"treasury/wire/transport"
	"treasury/wire/wallet"
)

// Limits reads the wallet limits of a wallet; walletID "" reads the
// org-wide list (GET /v2/policy-rules/limits). It needs a CONTROLS
// credential with keylimit:* permissions: others get 403 ERR000.002.
func (c *Client) Limits(ctx context.Context, walletID string) ([]wallet.Limit, error) {
	if walletID == "" {
		return listAll[wallet.Limit](ctx, c, "limits", wallet.PathPolicyRules+"/limits", "limits", nil, nested)
	}
	return onWallet(ctx, c, Ref{WalletID: walletID}, []string{"policy-rules", "limits"}, func(ctx context.Context, path string) ([]wallet.Limit, error) {
		return listAll[wallet.Limit](ctx, c, "limits", path, "limits", nil, nested)
	})
}

// Policies reads the org-wide policy rules. It needs a CONTROLS credential
// with policy:* permissions: others get 403 ERR000.002.
func (c *Client) Policies(ctx context.Context) ([]wallet.PolicyRule, error) {
	return listAll[wallet.PolicyRule](ctx, c, "policy rules", wallet.PathPolicyRules, "policyRules", nil, nested)
}

// Counterparties reads the address book's counterparties.
func (c *Client) Counterparties(ctx context.Context) ([]wallet.Counterparty, error) {
	return listAll[wallet.Counterparty](ctx, c, "counterparties", wallet.PathCounterparties, "counterparties", nil, nested)
}

// Addresses reads the addresses of a counterparty; counterpartyID "" reads
// those of every counterparty (one deleted meanwhile counts as none).
func (c *Client) Addresses(ctx context.Context, counterpartyID string) ([]wallet.Address, error) {
	if counterpartyID != "" {
		return listAll[wallet.Address](ctx, c, "addresses", seg(wallet.PathCounterparties, counterpartyID)+"/addresses", "addresses", nil, nested)
	}
	cps, err := c.Counterparties(ctx)
	if err != nil {
		return nil, err
	}
	return fanOut(ctx, "addresses of each counterparty", cps, func(cp wallet.Counterparty) string { return "counterparty " + cmp.Or(cp.Name, cp.ID) }, func(ctx context.Context, cp wallet.Counterparty) ([]wallet.Address, error) {
		return gone(c.Addresses(ctx, cp.ID))
	})
}

// Webhooks reads the wallet webhooks.
func (c *Client) Webhooks(ctx context.Context) ([]wallet.Webhook, error) {
	return listAll[wallet.Webhook](ctx, c, "webhooks", wallet.PathWebhooks, "webhooks", nil, nested)
}

// Subscriptions reads the subscriptions of every webhook (the interface
// lists them per webhook: /v2/webhooks/{id}/subscriptions); a webhook
// deleted meanwhile counts as none.
func (c *Client) Subscriptions(ctx context.Context) ([]wallet.Subscription, error) {
	hs, err := c.Webhooks(ctx)
	if err != nil {
		return nil, err
	}
	return fanOut(ctx, "subscriptions of each webhook", hs, WebhookSource, func(ctx context.Context, h wallet.Webhook) ([]wallet.Subscription, error) {
		return gone(c.WebhookSubscriptions(ctx, h.ID))
	})
}

// WebhookSubscriptions reads the subscriptions of one webhook.
func (c *Client) WebhookSubscriptions(ctx context.Context, webhookID string) ([]wallet.Subscription, error) {
	if webhookID == "" {
		return nil, ErrNoID
	}
	return listAll[wallet.Subscription](ctx, c, "subscriptions", seg(wallet.PathWebhooks, webhookID)+"/subscriptions", "subscriptions", nil, nested)
}

// Sweeps reads the sweep configurations.
func (c *Client) Sweeps(ctx context.Context) ([]wallet.SweepConfig, error) {
	return listAll[wallet.SweepConfig](ctx, c, "sweeps", wallet.PathSweeps, "sweepConfigurations", nil, nested)
}

// Sweep reads one sweep configuration.
func (c *Client) Sweep(ctx context.Context, sweepID string) (wallet.SweepConfig, error) {
	if sweepID == "" {
		return wallet.SweepConfig{}, ErrNoID
	}
	return transport.Get[wallet.SweepConfig](ctx, c.t, seg(wallet.PathSweeps, sweepID), nil)
}

// SweepTransactions reads every transaction of a sweep instance: GET
// /v2/workflows/sweep/{id}/instances/{instanceId}/transactions (top-level
// pageSize, max 100). instanceID "" means the configuration's last
// instance (lastInstanceId); none yet gives no transactions. An instance
// that does not exist has no transactions.
func (c *Client) SweepTransactions(ctx context.Context, sweepID, instanceID string) ([]wallet.Transaction, error) {
	if sweepID == "" {
		return nil, ErrNoID
	}
	if instanceID == "" {
		sw, err := c.Sweep(ctx, sweepID)
		if err != nil {
			return nil, err
		}
		if instanceID = sw.LastInstanceID; instanceID == "" {
			return nil, nil
		}
	}
	return c.listTx(ctx, seg(wallet.PathSweeps, sweepID, "instances", instanceID, "transactions"), nil, topLevel)
}
