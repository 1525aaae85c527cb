package webhook_test

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

// TestServerForwardsToLiveStore serves a receiver over HTTPS with an
// in-memory self-signed certificate and forwards it to the live store:
// duplicates are dropped, and a late, older notification is recorded but
// never moves the payment back.
func TestServerForwardsToLiveStore(t *testing.T) {
	key := ed(t)
	rcv, err := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: key.Public(), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	cert, pool, err := webhook.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := webhook.Serve("127.0.0.1:0", "", cert, rcv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	store := live.New(live.Options{Now: func() time.Time { return now }})
	applied := make(chan string, 16)
	srv.Forward(func(ev webhook.Event) {
		store.ApplyPaymentEvent(ev)
		applied <- ev.ID
	})
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: tlsTrusting(pool)}}
	post := func(ev webhook.Event) {
		t.Helper()
		if st := postSigned(t, client, srv.URL, body(t, ev), key, now, nil); st != http.StatusNoContent {
			t.Fatalf("%s: HTTP %d", ev.ID, st)
		}
	}
	t0 := now.Add(-10 * time.Minute)
	post(event("n1", "p1", payments.Validating, t0))
	post(event("n3", "p1", payments.Completed, t0.Add(2*time.Minute)))
	post(event("n3", "p1", payments.Completed, t0.Add(2*time.Minute)))  // duplicate
	post(event("n2", "p1", payments.Transferring, t0.Add(time.Minute))) // late
	var ids []string
	for len(ids) < 3 {
		select {
		case id := <-applied:
			ids = append(ids, id)
		case <-time.After(10 * time.Second): // a hang guard, not a wait
			t.Fatalf("forwarded %v, want 3 notifications; receiver %+v", ids, rcv.Stats())
		}
	}
	if got := []string{"n1", "n3", "n2"}; ids[0] != got[0] || ids[1] != got[1] || ids[2] != got[2] {
		t.Errorf("forwarded %v, want %v (duplicate dropped, accepted order kept)", ids, got)
	}
	ps, _ := live.Get(store, live.PaymentsKey).Data, true
	p, ok := ps.Get("p1")
	if !ok || p.PaymentState != payments.Completed || !p.LastStateUpdatedAt.Equal(t0.Add(2*time.Minute)) {
		t.Fatalf("store holds %+v, want p1 COMPLETED", p)
	}
	arr := store.Arrivals("p1")
	if len(arr) != 3 || !arr[0].Applied || !arr[1].Applied || arr[2].Applied || arr[2].EventID != "n2" {
		t.Errorf("arrivals %+v, want the late TRANSFERRING recorded but not applied", arr)
	}
	if st := rcv.Stats(); st.Accepted != 3 || st.Duplicates != 1 || st.Stale != 1 || st.Rejected != 0 {
		t.Errorf("stats %+v", st)
	}
	// Close drains what was accepted, and stops serving.
	if err := srv.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if _, err := client.Post(srv.URL, "application/json", nil); err == nil {
		t.Error("server still answers after Close")
	}
}

// TestSelfSignedIsUntrustedElsewhere checks the certificate is only trusted
// through the pool it comes with: a sender with the system roots refuses it.
func TestSelfSignedIsUntrustedElsewhere(t *testing.T) {
	key := ed(t)
	rcv, _ := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: key.Public()})
	cert, _, err := webhook.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := webhook.Serve("127.0.0.1:0", "", cert, rcv)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := http.Post(srv.URL, "application/json", nil); err == nil {
		t.Error("a client without the pool trusted the self-signed certificate")
	}
}

// TestServerCountsTLSHandshakeFailures: a client that does not trust the
// receiver's certificate fails its handshake; the receiver counts it and
// logs it with the remote address.
func TestServerCountsTLSHandshakeFailures(t *testing.T) {
	key := ed(t)
	logs := &logCapture{}
	rcv, err := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: key.Public(), Log: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	cert, _, err := webhook.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := webhook.Serve("127.0.0.1:0", "", cert, rcv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if _, err := http.Post(srv.URL, "application/json", strings.NewReader("{}")); err == nil {
		t.Fatal("an untrusted certificate was accepted")
	}
	// A hang guard: the server counts, then logs, after the client gave
	// up; a loaded machine may run the test between the two.
	deadline := time.Now().Add(10 * time.Second)
	for rcv.Rejections()[webhook.RejectTLSHandshake] == 0 || len(logs.records()) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("Rejections() = %v, logged %v, want a tls_handshake", rcv.Rejections(), logs.records())
		}
		time.Sleep(10 * time.Millisecond)
	}
	recs := logs.records()
	if len(recs) == 0 || recs[0]["reason"] != webhook.RejectTLSHandshake || !strings.HasPrefix(recs[0]["remote"], "127.0.0.1:") {
		t.Errorf("logged %v", recs)
	}
}
