package process

import (
	"crypto/tls"
	"errors"
	"log/slog"

	"treasury/config"
	"treasury/kit/portowner"
	"treasury/sandbox"
	"treasury/wire/apierr"
	"treasury/wire/webhook"
)

// hooks is the runtime's PAYMENT_STATE_TRANSITION receiver: serving, or
// why not. A receiver that cannot listen (its port held by a second
// dashboard on the same profile, say) does not stop the dashboard: the
// payments poll still moves every payment, only later; the header, the
// errors view and the log say so.
type hooks struct {
	addr   string
	srv    *webhook.Server // nil when it does not listen
	err    error
	holder string // the process holding addr, when err is "in use"
}

// Status is what the views show of the receiver.
func (h *hooks) Status() webhook.Status {
	st := webhook.Status{Addr: h.addr, Err: h.err, Holder: h.holder}
	if h.srv != nil {
		rcv := h.srv.Receiver()
		st.Stats, st.Rejections = rcv.Stats(), rcv.Rejections()
	}
	return st
}

// startWebhooks starts the profile's receiver, or the embedded sandbox's,
// feeding accepted notifications to the store and logging refusals to
// log. It fails only on what the profile must fix (certificate, key); a
// failure to listen is kept in the returned hooks and logged, and the
// dashboard runs on polling alone. No receiver configured: nil, nil.
func startWebhooks(r *Runtime, log *slog.Logger) (*hooks, error) {
	opts := webhook.ReceiverOptions{Log: log}
	apply := r.Platform.Store.ApplyPaymentEvents
	if r.Site != nil {
		// On a site, what this bastion receives reaches every bastion
		// once, and what the others receive reaches this one.
		apply = r.shareEvents(log)
		r.closers = append(r.closers, r.Site.FollowEvents(r.Platform.Store.ApplyPaymentEvents))
	}
	var srv *webhook.Server
	var err error
	h := &hooks{}
	switch {
	case r.Sandbox != nil:
		// Judged on the embedded sandbox's own clock, which signs them.
		h.addr = "127.0.0.1:0"
		opts.Now, opts.Rate = r.Sandbox.Clock().Now, r.Sandbox.Clock().Speed
		if srv, err = sandbox.StartLocalReceiver(r.Sandbox.Sandbox, opts, nil); err == nil {
			srv.ForwardBatch(apply)
		}
	case r.Config.Webhooks != nil:
		// The signed timestamps are the platform's time: they are judged
		// against the platform's clock as the payments interface's
		// answers tell it, not this host's, which may be off from it.
		h.addr = r.Config.Webhooks.Listen
		// Its tolerance too is of the platform's clock: a sandbox at
		// --speed 240 runs four minutes a second.
		opts.Now = r.Platform.Store.PlatformClock(apierr.Payments)
		opts.Rate = func() float64 { return r.Platform.Store.PlatformRate(apierr.Payments) }
		srv, err = startReceiver(r.Config.Webhooks, opts, apply)
	default:
		return nil, nil
	}
	var le *webhook.ListenError
	switch {
	case errors.As(err, &le):
		h.err = le
		if le.InUse() {
			h.holder = portowner.NameAddr(le.Addr)
		}
		log.Warn("webhook receiver not started: running on polling alone", "addr", le.Addr, "in_use", le.InUse(),
			"held_by", h.holder, "error", le.Err.Error())
		return h, nil
	case err != nil:
		return nil, err
	}
	h.srv = srv
	h.addr = srv.Addr()
	log.Info("webhook receiver listening", "addr", h.addr)
	return h, nil
}

// startReceiver serves the profile's PAYMENT_STATE_TRANSITION callback and
// feeds accepted notifications to the store.
func startReceiver(w *config.Webhooks, o webhook.ReceiverOptions, apply func([]webhook.Event)) (*webhook.Server, error) {
	cert, err := tls.LoadX509KeyPair(w.TLSCertFile, w.TLSKeyFile)
	if err != nil {
		return nil, err
	}
	o.PublicKey, o.HeaderPrefix, o.Tolerance = w.PublicKey, w.HeaderPrefix, w.Tolerance
	rcv, err := webhook.NewReceiver(o)
	if err != nil {
		return nil, err
	}
	srv, err := webhook.Serve(w.Listen, w.Path, cert, rcv)
	if err != nil {
		return nil, err
	}
	srv.ForwardBatch(apply)
	return srv, nil
}

// shareEvents is what this bastion does with the notifications it
// received: apply them, and give them to the site for the others. One
// the site cannot take is said in the log: the others see its payment's
// change at their next poll.
func (r *Runtime) shareEvents(log *slog.Logger) func([]webhook.Event) {
	return func(evs []webhook.Event) {
		r.Platform.Store.ApplyPaymentEvents(evs)
		if err := r.Site.ShareEvents(evs); err != nil {
			log.Warn("webhook: notifications not shared with the site's other bastions (they poll for them)", "count", len(evs), "err", err.Error())
		}
	}
}
