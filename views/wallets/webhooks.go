package wallets

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

func (v *View) subscriptions() ([]wallet.Subscription, live.Snapshot) {
	s := live.Get(v.ctx.Store, live.SubscriptionsKey)
	return s.Data, s.Snapshot
}

// webhooksPage is the wallet webhooks with the domains they subscribe to.
func (v *View) webhooksPage() *viewkit.TablePage[wallet.Webhook] {
	domains := map[string][]string{}
	var subs cover
	return viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[wallet.Webhook]{
		Crumb: secWebhooks,
		Columns: []table.Column{
			{Title: "Webhook", Width: 14, Flex: 1}, {Title: "Endpoint", Width: 20, Flex: 3},
			{Title: "Subscriptions", Width: 13, Flex: 2}, {Title: "Created (UTC)", Width: 19}, {Title: "Webhook id", Width: 10, Flex: 1},
		},
		Topics: []live.Topic{live.WalletWebhooks, live.Subscriptions},
		Enter:  func(h wallet.Webhook) tea.Cmd { return v.Stack.Push(v.subscriptionsPage(h)) },
		Empty:  "no wallet webhooks",
		// The domains subscribed to, "; " between two, and their count:
		// both "" while the subscriptions read does not cover the webhook.
		Export: &viewkit.Export[wallet.Webhook]{
			Header: []string{"webhook_id", "name", "endpoint", "subscriptions", "domains", "created_at"},
			Row: func(h wallet.Webhook) []string {
				d, n := domains[h.ID], ""
				err := subs.missing(walletclient.WebhookSource(h))
				if err == nil {
					n = strconv.Itoa(len(d))
				} else {
					d = nil
				}
				return []string{h.ID, h.Name, h.Endpoint, n, strings.Join(d, "; "), viewkit.ISO(h.CreatedAt)}
			},
		},
	}, viewkit.Own[wallet.Webhook]{
		Read: func() ([]wallet.Webhook, live.Snapshot) {
			all, ss := v.subscriptions()
			subs = coverOf(ss)
			clear(domains)
			for _, s := range all {
				domains[s.WebhookID] = append(domains[s.WebhookID], s.Domain)
			}
			snap := live.Get(v.ctx.Store, live.WalletWebhooksKey)
			return snap.Data, viewkit.Needs(v.ctx.Store, snap.Snapshot, "the webhooks' subscriptions",
				viewkit.Source{Topic: live.Subscriptions, Name: "subscriptions"})
		},
		Row: func(h wallet.Webhook) table.Row {
			// "none" only when the subscriptions read covered the webhook.
			d := domains[h.ID]
			cell := "none"
			switch err := subs.missing(walletclient.WebhookSource(h)); {
			case err != nil:
				cell = figure(0, err)
			case len(d) > 0:
				cell = fmt.Sprintf("%d: %s", len(d), strings.Join(d, ", "))
			}
			return table.Row{ID: h.ID, Cells: []string{sanitize.Line(h.Name), sanitize.Line(h.Endpoint), sanitize.Line(cell),
				viewkit.Time(h.CreatedAt), sanitize.Line(h.ID)}, Keys: []table.Key{{}, {}, {}, table.Time(h.CreatedAt)}}
		},
	})
}

// subscriptionsPage is one webhook's subscriptions.
func (v *View) subscriptionsPage(h wallet.Webhook) *viewkit.TablePage[wallet.Subscription] {
	return viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[wallet.Subscription]{
		Crumb: h.Name,
		Columns: []table.Column{
			{Title: "Domain", Width: 12}, {Title: "Created (UTC)", Width: 19}, {Title: "Subscription id", Width: 15, Flex: 1},
			{Title: "Webhook", Width: 12, Flex: 1},
		},
		Topics: []live.Topic{live.Subscriptions},
		Empty:  "this webhook has no subscriptions",
		What:   "the subscriptions of webhook " + h.Name,
		Export: &viewkit.Export[wallet.Subscription]{
			Header: []string{"subscription_id", "domain", "webhook_id", "webhook_name", "created_at"},
			Row: func(s wallet.Subscription) []string {
				return []string{s.ID, s.Domain, s.WebhookID, h.Name, viewkit.ISO(s.CreatedAt)}
			},
		},
	}, viewkit.Own[wallet.Subscription]{
		Read: func() ([]wallet.Subscription, live.Snapshot) {
			all, snap := v.subscriptions()
			// The webhook's part of the subscriptions read failed: its
			// subscriptions are unknown, not none.
			if err := coverOf(snap).missing(walletclient.WebhookSource(h)); err != nil && snap.Loaded() {
				return nil, failedState(snap, err)
			}
			var out []wallet.Subscription
			for _, s := range all {
				if s.WebhookID == h.ID {
					out = append(out, s)
				}
			}
			return out, snap
		},
		Row: func(s wallet.Subscription) table.Row {
			return table.Row{ID: s.ID, Cells: []string{sanitize.Line(s.Domain), viewkit.Time(s.CreatedAt), sanitize.Line(s.ID), sanitize.Line(h.Name)},
				Keys: []table.Key{{}, table.Time(s.CreatedAt)}}
		},
	})
}
