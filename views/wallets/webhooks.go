package wallets

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"treasury/data/live"
	"treasury/data/wallet"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

func (v *View) subscriptions() ([]wallet.Subscription, live.Snapshot) {
	s := live.Get(v.ctx.Store, live.SubscriptionsKey)
	return s.Data, s.Snapshot
}

// webhooksPage is the wallet webhooks with the domains they subscribe to.
func (v *View) webhooksPage() *viewkit.TablePage[wallet.Webhook] {
	domains := map[string][]string{}
	return viewkit.NewTablePage(v.ctx, viewkit.TableSpec[wallet.Webhook]{
		Crumb: secWebhooks,
		Columns: []table.Column{
			{Title: "Webhook", Width: 14, Flex: 1}, {Title: "Endpoint", Width: 20, Flex: 3},
			{Title: "Subscriptions", Width: 13, Flex: 2}, {Title: "Created (UTC)", Width: 19}, {Title: "Webhook id", Width: 10, Flex: 1},
		},
		Topics: []live.Topic{live.WalletWebhooks, live.Subscriptions},
		Read: func() ([]wallet.Webhook, live.Snapshot) {
			subs, ss := v.subscriptions()
			clear(domains)
			for _, s := range subs {
				domains[s.WebhookID] = append(domains[s.WebhookID], s.Domain)
			}
			snap := live.Get(v.ctx.Store, live.WalletWebhooksKey)
			if ss.Seq > snap.Seq {
				snap.Seq = ss.Seq
			}
			return snap.Data, snap.Snapshot
		},
		Row: func(h wallet.Webhook) table.Row {
			d := domains[h.ID]
			subs := "none"
			if len(d) > 0 {
				subs = fmt.Sprintf("%d: %s", len(d), strings.Join(d, ", "))
			}
			return table.Row{ID: h.ID, Cells: []string{sanitize.Line(h.Name), sanitize.Line(h.Endpoint), sanitize.Line(subs),
				viewkit.Time(h.CreatedAt), sanitize.Line(h.ID)}, Keys: []table.Key{{}, {}, {}, table.Time(h.CreatedAt)}}
		},
		Enter: func(h wallet.Webhook) tea.Cmd { return v.Stack.Push(v.subscriptionsPage(h)) },
		Empty: "no wallet webhooks",
	})
}

// subscriptionsPage is one webhook's subscriptions.
func (v *View) subscriptionsPage(h wallet.Webhook) *viewkit.TablePage[wallet.Subscription] {
	return viewkit.NewTablePage(v.ctx, viewkit.TableSpec[wallet.Subscription]{
		Crumb: h.Name,
		Columns: []table.Column{
			{Title: "Domain", Width: 12}, {Title: "Created (UTC)", Width: 19}, {Title: "Subscription id", Width: 15, Flex: 1},
			{Title: "Webhook", Width: 12, Flex: 1},
		},
		Topics: []live.Topic{live.Subscriptions},
		Read: func() ([]wallet.Subscription, live.Snapshot) {
			all, snap := v.subscriptions()
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
		Empty: "this webhook has no subscriptions",
	})
}
