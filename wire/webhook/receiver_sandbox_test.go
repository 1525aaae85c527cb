package webhook_test

import (
	"crypto/x509"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/kit/pubkey"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

// TestReceiverWithSandbox lets the sandbox deliver signed notifications,
// with duplicates and reordering switched on, to a receiver built from the
// profile `treasury sandbox --write-profile` writes, over HTTPS with its
// self-signed certificate.
func TestReceiverWithSandbox(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	if status := sandboxtest.Get(t, srv.Endpoints().Payments+"/v3/payments/x", "", nil); status == http.StatusNotImplemented {
		t.Skip("the payments simulator is not built yet: it emits no notifications")
	}
	ep := srv.Endpoints()
	c := srv.Credentials()
	pubPEM, err := pubkey.MarshalPEM(srv.WebhookPublicKey())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sandbox.yaml")
	written, err := config.WriteSandboxProfile(path,
		config.SandboxEndpoints{Liquidity: ep.Liquidity, Auth: ep.Auth, Payments: ep.Payments, Reporting: ep.Reporting, Wallet: ep.Wallet, Custody: ep.Custody},
		config.SandboxCredentials{PaymentsClientID: c.PaymentsClientID, PaymentsClientSecret: c.PaymentsClientSecret, PaymentsAudience: c.PaymentsAudience,
			WalletClientID: "monitoring", WalletClientSecret: "monitoring-secret", LiquidityToken: c.LiquidityToken,
			CustodyToken: c.CustodyToken, CustodyDomainID: c.CustodyDomainID},
		config.SandboxProfileOptions{WebhookPublicKeyPEM: pubPEM, WebhookListen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(config.Options{ConfigFile: path, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	wh := cfg.Webhooks
	// The frozen sandbox's clock is days from this host's: the receiver
	// judges the signed timestamps on the platform's clock, as the
	// dashboard does (its store's estimate of it).
	rcv, err := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: wh.PublicKey, HeaderPrefix: wh.HeaderPrefix, Tolerance: wh.Tolerance,
		Now: srv.Clock().Now})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := webhook.Listen(wh.Listen, wh.Path, wh.TLSCertFile, wh.TLSKeyFile, rcv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(written.CertPEM)
	if err := srv.SetWebhooks(sandbox.WebhookOptions{URL: ws.URL, RootCAs: pool, DuplicateRate: 0.3, ReorderRate: 0.3}); err != nil {
		t.Fatal(err)
	}

	// Move the frozen world on so that payments change state: at once,
	// as the notifications are signed at the sandbox's time when sent and
	// a later advance beyond the tolerance would make those in flight
	// stale, as a delivery that long on its way is.
	if status := sandboxtest.PostJSON(t, ep.Control+"/clock/advance", "", map[string]string{"by": "1h"}, nil); status != http.StatusOK {
		t.Fatalf("advance clock: HTTP %d", status)
	}
	// The advances brought the world forward and queued the notifications:
	// they are on their way; the timeout only guards against a hang.
	const want = 20
	var got []webhook.Delivery
	timeout := time.After(10 * time.Second)
	for len(got) < want {
		select {
		case d := <-rcv.Events():
			got = append(got, d)
		case <-timeout:
			t.Fatalf("received %d notifications, want %d; receiver %+v", len(got), want, rcv.Stats())
		}
	}
	seen := map[string]bool{}
	latest := map[string]time.Time{}
	for _, d := range got {
		ev := d.Event
		if seen[ev.ID] {
			t.Errorf("notification %s delivered twice", ev.ID)
		}
		seen[ev.ID] = true
		if ev.EventType != webhook.EventPaymentStateTransition || ev.EventVersion != webhook.EventVersion || ev.EventData.PaymentID == "" {
			t.Errorf("unexpected event %+v", ev)
		}
		switch ev.EventData.PaymentState {
		case payments.Quoted, payments.AwaitingFunding, payments.Initiated, payments.Validating, payments.Transferring,
			payments.Completed, payments.Failed, payments.Declined, payments.Returned:
		default:
			t.Errorf("unknown state %q", ev.EventData.PaymentState)
		}
		if d.Stale {
			continue
		}
		if prev, ok := latest[ev.EventData.PaymentID]; ok && ev.CreateDate.Before(prev) {
			t.Errorf("payment %s moved back to %s (%s before %s)", ev.EventData.PaymentID, ev.EventData.PaymentState, ev.CreateDate, prev)
		}
		latest[ev.EventData.PaymentID] = ev.CreateDate
	}
	if st := rcv.Stats(); st.Rejected != 0 {
		t.Errorf("receiver rejected genuine notifications: %+v", st)
	}
}

// TestStartLocalReceiver starts the in-memory receiver for a sandbox, feeds
// the live store from it, and checks that every notified payment ends in
// the latest state notified for it, whatever the order of arrival.
func TestStartLocalReceiver(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	if err := srv.SetWebhooks(sandbox.WebhookOptions{DuplicateRate: 0.3, ReorderRate: 0.3}); err != nil {
		t.Fatal(err)
	}
	store := live.New(live.Options{})
	arrived := make(chan webhook.Event, 4096)
	ws, err := sandbox.StartLocalReceiver(srv.Sandbox, webhook.ReceiverOptions{}, func(ev webhook.Event) {
		store.ApplyPaymentEvent(ev)
		arrived <- ev
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	if o := srv.Webhooks(); o.URL != ws.URL || o.RootCAs == nil || o.DuplicateRate != 0.3 || o.HeaderPrefix != webhook.DefaultHeaderPrefix {
		t.Fatalf("sandbox webhooks = %+v, want pointed at %s with the rates kept", o, ws.URL)
	}
	srv.AdvanceClock(time.Hour)
	const want = 30
	latest := map[string]webhook.Event{}
	timeout := time.After(10 * time.Second) // a hang guard, not a wait
	for n := 0; n < want; n++ {
		select {
		case ev := <-arrived:
			if cur, ok := latest[ev.EventData.PaymentID]; !ok || ev.CreateDate.After(cur.CreateDate) {
				latest[ev.EventData.PaymentID] = ev
			}
		case <-timeout:
			t.Fatalf("forwarded %d notifications, want %d; receiver %+v", n, want, ws.Receiver().Stats())
		}
	}
	ps, _ := live.Get(store, live.PaymentsKey).Data, true
	for id, ev := range latest {
		p, ok := ps.Get(id)
		if !ok {
			t.Errorf("payment %s notified but not in the store", id)
			continue
		}
		if p.LastStateUpdatedAt.Before(ev.CreateDate) {
			t.Errorf("payment %s is %s as of %s, but %s was notified as of %s", id, p.PaymentState, p.LastStateUpdatedAt, ev.EventData.PaymentState, ev.CreateDate)
		}
	}
	if st := ws.Receiver().Stats(); st.Rejected != 0 || st.Accepted < want {
		t.Errorf("receiver %+v", st)
	}
}
