package sandbox

import (
	"treasury/wire/webhook"
)

// StartLocalReceiver starts a PAYMENT_STATE_TRANSITION receiver for s on
// 127.0.0.1 (a free port), at webhook.DefaultPath, over HTTPS with a
// self-signed certificate made in memory, and points the sandbox's
// deliveries at it, trusting that certificate and keeping the header prefix
// and the duplicate and reorder rates in force. The receiver verifies with
// the sandbox's webhook key (o.PublicKey and o.HeaderPrefix are set here;
// the rest of o applies; a nil o.Now is the sandbox's clock, which signs
// the timestamps). apply, when not nil, receives every accepted
// notification (live.Store.ApplyPaymentEvent) until the server is closed.
//
// It lives here rather than in package webhook because the sandbox's
// deliverer imports webhook. After Close the sandbox keeps retrying the
// closed address until SetWebhooks points it elsewhere.
func StartLocalReceiver(s *Sandbox, o webhook.ReceiverOptions, apply func(webhook.Event)) (*webhook.Server, error) {
	cur := s.Webhooks()
	o.PublicKey, o.HeaderPrefix = s.WebhookPublicKey(), cur.HeaderPrefix
	if o.Now == nil {
		o.Now = s.Clock().Now // the sender's clock: the timestamps are signed on it
	}
	rcv, err := webhook.NewReceiver(o)
	if err != nil {
		return nil, err
	}
	cert, pool, err := webhook.SelfSigned()
	if err != nil {
		return nil, err
	}
	srv, err := webhook.Serve("127.0.0.1:0", webhook.DefaultPath, cert, rcv)
	if err != nil {
		return nil, err
	}
	srv.Forward(apply)
	cur.URL, cur.RootCAs = srv.URL, pool
	if err := s.SetWebhooks(cur); err != nil {
		srv.Close()
		return nil, err
	}
	return srv, nil
}
