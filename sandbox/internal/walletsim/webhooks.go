package walletsim

import (
	"net/url"
	"slices"
	"strings"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

var domains = []string{wallet.DomainTransaction, wallet.DomainWallet, wallet.DomainPolicy}

func webhookSpec() listSpec[wallet.Webhook] {
	return listSpec[wallet.Webhook]{id: func(h wallet.Webhook) string { return h.ID }, order: "created_at",
		fields: fields[wallet.Webhook]{"id": func(h wallet.Webhook) string { return h.ID },
			"name": func(h wallet.Webhook) string { return h.Name }, "endpoint": func(h wallet.Webhook) string { return h.Endpoint },
			"created_at": func(h wallet.Webhook) string { return stamp(h.CreatedAt) }}}
}

func subscriptionSpec() listSpec[wallet.Subscription] {
	return listSpec[wallet.Subscription]{id: func(s wallet.Subscription) string { return s.ID }, order: "created_at",
		fields: fields[wallet.Subscription]{"id": func(s wallet.Subscription) string { return s.ID },
			"domain":     func(s wallet.Subscription) string { return s.Domain },
			"created_at": func(s wallet.Subscription) string { return stamp(s.CreatedAt) }},
		enums: map[string][]string{"domain": domains}}
}

func listWebhooks(c *call) {
	if page, f, ok := paginate(c, mapOut(c.w.webhooks, c.webhookOut), webhookSpec()); ok {
		c.ok(wallet.WebhooksPage{Webhooks: page, Filter: f})
	}
}

// createWebhook adds a webhook: the endpoint must be https://; a webhook
// of the same name gives 409 ERR015.001 (endpoints may be shared).
func createWebhook(c *call) {
	var req wallet.WebhookRequest
	if !c.decode(&req) {
		return
	}
	u, err := url.Parse(req.Endpoint)
	if strings.TrimSpace(req.Name) == "" || err != nil || u.Scheme != "https" || u.Host == "" {
		c.invalid()
		return
	}
	if slices.ContainsFunc(c.w.webhooks, func(h wallet.Webhook) bool { return h.Name == req.Name }) {
		c.exists(reasonWebhookExists, "webhook already exists")
		return
	}
	c.w.counter++
	r := simkit.Rand(c.s.env.Seed, simkit.Key("walletsim-webhook"), c.w.counter)
	h := wallet.Webhook{ID: simkit.UUID(r), Name: req.Name, Endpoint: req.Endpoint, CreatedAt: c.now}
	c.w.webhooks = append(c.w.webhooks, h)
	c.ok(c.webhookOut(h))
}

// lookupWebhook answers ERR015.002 when the path's webhook is missing.
func (c *call) lookupWebhook() *wallet.Webhook {
	ids, ok := c.ids("webhookId")
	if !ok {
		return nil
	}
	h := c.w.webhook(ids[0])
	if h == nil {
		c.notFound(reasonWebhookGone, "webhook not found")
	}
	return h
}

func getWebhook(c *call) {
	if h := c.lookupWebhook(); h != nil {
		c.ok(c.webhookOut(*h))
	}
}

// deleteWebhook answers 200 whether or not the webhook existed.
func deleteWebhook(c *call) {
	ids, ok := c.ids("webhookId")
	if !ok {
		return
	}
	c.w.webhooks = slices.DeleteFunc(c.w.webhooks, func(h wallet.Webhook) bool { return h.ID == ids[0] })
	c.w.subs = slices.DeleteFunc(c.w.subs, func(s wallet.Subscription) bool { return s.WebhookID == ids[0] })
	c.ok(struct{}{})
}

func listSubscriptions(c *call) {
	h := c.lookupWebhook()
	if h == nil {
		return
	}
	var ss []wallet.Subscription
	for _, s := range c.w.subs {
		if s.WebhookID == h.ID {
			ss = append(ss, s)
		}
	}
	if page, f, ok := paginate(c, ss, subscriptionSpec()); ok {
		c.ok(wallet.SubscriptionsPage{Subscriptions: page, Filter: f})
	}
}

// addSubscriptions takes a JSON array of {domain}; anything else is a
// parser error. An unknown domain is invalid; a domain already subscribed
// gives 409 ERR015.010.
func addSubscriptions(c *call) {
	h := c.lookupWebhook()
	if h == nil {
		return
	}
	var req []wallet.SubscriptionRequest
	if !c.decode(&req) {
		return
	}
	if len(req) == 0 {
		c.invalid()
		return
	}
	seen := map[string]bool{}
	for _, s := range c.w.subs {
		if s.WebhookID == h.ID {
			seen[s.Domain] = true
		}
	}
	for _, q := range req {
		if !slices.Contains(domains, q.Domain) {
			c.invalid()
			return
		}
	}
	for _, q := range req {
		if seen[q.Domain] {
			c.exists(reasonSubscriptionDup, "subscription already exists")
			return
		}
		seen[q.Domain] = true
	}
	var added []wallet.Subscription
	for _, q := range req {
		c.w.counter++
		r := simkit.Rand(c.s.env.Seed, simkit.Key("walletsim-subscription"), c.w.counter)
		s := wallet.Subscription{ID: simkit.UUID(r), WebhookID: h.ID, Domain: q.Domain, CreatedAt: c.now}
		c.w.subs = append(c.w.subs, s)
		added = append(added, s)
	}
	c.ok(wallet.SubscriptionsPage{Subscriptions: added, Filter: wallet.ListFilter{Total: len(added)}})
}

func getSubscription(c *call) {
	h := c.lookupWebhook()
	if h == nil {
		return
	}
	ids, ok := c.ids("subscriptionId")
	if !ok {
		return
	}
	i := slices.IndexFunc(c.w.subs, func(s wallet.Subscription) bool { return s.ID == ids[0] && s.WebhookID == h.ID })
	if i < 0 {
		c.notFound(reasonSubscriptionGone, "subscription not found")
		return
	}
	c.ok(c.w.subs[i])
}

// deleteSubscription answers 200 whether or not it existed.
func deleteSubscription(c *call) {
	ids, ok := c.ids("webhookId", "subscriptionId")
	if !ok {
		return
	}
	c.w.subs = slices.DeleteFunc(c.w.subs, func(s wallet.Subscription) bool { return s.ID == ids[1] && s.WebhookID == ids[0] })
	c.ok(struct{}{})
}
