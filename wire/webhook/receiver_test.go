package webhook_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"treasury/wire/money"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

var now = time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)

func event(id, payment string, state payments.State, at time.Time) webhook.Event {
	return webhook.Event{ID: id, EventType: webhook.EventPaymentStateTransition, EventVersion: webhook.EventVersion,
		CreateDate: at, EventData: webhook.EventData{PaymentID: payment, PaymentState: state, CreatedAt: at.Add(-time.Hour),
			ExpiresAt: at.Add(time.Hour), SourceCurrency: "USD", SourceAmount: money.N(money.MustParse("100.00")),
			DestinationCurrency: "MXN", PayoutAmount: money.N(money.MustParse("1700.50")), BeneficiaryToken: "b1"}}
}

func body(t testing.TB, ev webhook.Event) []byte {
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// harness is a receiver served over HTTPS on loopback with a fixed clock.
type harness struct {
	t   *testing.T
	key crypto.Signer
	rcv *webhook.Receiver
	srv *httptest.Server
}

func newHarness(t *testing.T, key crypto.Signer, o webhook.ReceiverOptions) *harness {
	t.Helper()
	o.PublicKey = key.Public()
	o.Now = func() time.Time { return now }
	rcv, err := webhook.NewReceiver(o)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(rcv)
	t.Cleanup(srv.Close)
	return &harness{t: t, key: key, rcv: rcv, srv: srv}
}

// post sends raw signed by signer at ts with prefix X-Payments, and returns the status.
func (h *harness) post(raw []byte, signer crypto.Signer, at time.Time, tamper func(*http.Request)) int {
	h.t.Helper()
	return postSigned(h.t, h.srv.Client(), h.srv.URL+"/webhooks/payments", raw, signer, at, tamper)
}

// drain returns what the receiver delivered so far.
func (h *harness) drain() []webhook.Delivery {
	var out []webhook.Delivery
	for {
		select {
		case d := <-h.rcv.Events():
			out = append(out, d)
		default:
			return out
		}
	}
}

func ed(t testing.TB) ed25519.PrivateKey {
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestReceiverRejects(t *testing.T) {
	key := ed(t)
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	good := body(t, event("n1", "p1", payments.Validating, now))
	for _, tc := range []struct {
		name   string
		raw    []byte
		signer crypto.Signer
		at     time.Time
		tamper func(*http.Request)
		status int
		reason string
	}{
		{"forged body", good, key, now, func(r *http.Request) {
			forged := bytes.Replace(good, []byte("VALIDATING"), []byte("COMPLETED"), 1)
			r.Body, r.ContentLength = nopCloser(forged), int64(len(forged))
		}, http.StatusUnauthorized, webhook.RejectBadSignature},
		{"another key of the same type", good, ed(t), now, nil, http.StatusUnauthorized, webhook.RejectBadSignature},
		{"algorithm from the request ignored (ECDSA signature, Ed25519 key)", good, ec, now, nil, http.StatusUnauthorized, webhook.RejectWrongKey},
		{"signature not base64", good, key, now, func(r *http.Request) { r.Header.Set("X-Payments-Signature", "%%%") },
			http.StatusUnauthorized, webhook.RejectMalformedSignature},
		{"replay too old", good, key, now.Add(-5*time.Minute - time.Second), nil, http.StatusUnauthorized, webhook.RejectStale},
		{"timestamp too far ahead", good, key, now.Add(5*time.Minute + time.Second), nil, http.StatusUnauthorized, webhook.RejectFuture},
		{"timestamp changed after signing", good, key, now, func(r *http.Request) {
			r.Header.Set("X-Payments-Signature-Timestamp", webhook.Timestamp(now.Add(time.Second)))
		}, http.StatusUnauthorized, webhook.RejectBadSignature},
		{"no signature", good, key, now, func(r *http.Request) { r.Header.Del("X-Payments-Signature") }, http.StatusUnauthorized, webhook.RejectMissingSignature},
		{"other header prefix", good, key, now, func(r *http.Request) {
			r.Header.Set("X-Other-Signature", r.Header.Get("X-Payments-Signature"))
			r.Header.Del("X-Payments-Signature")
		}, http.StatusUnauthorized, webhook.RejectMissingSignature},
		{"oversize", []byte(`{"id":"` + strings.Repeat("x", 2000) + `"}`), key, now, nil, http.StatusRequestEntityTooLarge, webhook.RejectTooLarge},
		{"not json", []byte("hello"), key, now, nil, http.StatusBadRequest, webhook.RejectBadBody},
		{"no payment id", body(t, event("n2", "", payments.Validating, now)), key, now, nil, http.StatusBadRequest, webhook.RejectIncomplete},
		{"GET", good, key, now, func(r *http.Request) { r.Method = http.MethodGet }, http.StatusMethodNotAllowed, webhook.RejectMethod},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := &logCapture{}
			h := newHarness(t, key, webhook.ReceiverOptions{MaxBody: 1024, Log: slog.New(logs)})
			if got := h.post(tc.raw, tc.signer, tc.at, tc.tamper); got != tc.status {
				t.Errorf("HTTP %d, want %d", got, tc.status)
			}
			if d := h.drain(); len(d) != 0 {
				t.Errorf("delivered %d events", len(d))
			}
			if st := h.rcv.Stats(); st.Rejected != 1 || st.Accepted != 0 {
				t.Errorf("stats %+v", st)
			}
			if got := h.rcv.Rejections(); len(got) != 1 || got[tc.reason] != 1 {
				t.Errorf("Rejections() = %v, want %s: 1", got, tc.reason)
			}
			recs := logs.records()
			if len(recs) != 1 || recs[0]["msg"] != "webhook rejected" || recs[0]["level"] != "WARN" || recs[0]["reason"] != tc.reason ||
				recs[0]["status"] != fmt.Sprint(tc.status) || !strings.HasPrefix(recs[0]["remote"], "127.0.0.1:") {
				t.Errorf("logged %v", recs)
			}
			sig, _ := webhook.Sign(tc.signer, webhook.Timestamp(tc.at), tc.raw)
			for _, r := range recs {
				for k, v := range r {
					if strings.Contains(v, sig) || strings.Contains(v, "VALIDATING") {
						t.Errorf("the log's %s holds a signature or the body: %q", k, v)
					}
				}
			}
			// The same notification, signed properly, is then accepted:
			// a rejection does not poison deduplication.
			if got := h.post(good, key, now, nil); got != http.StatusNoContent || len(h.drain()) != 1 {
				t.Errorf("valid notification after a rejected one: HTTP %d", got)
			}
		})
	}
}

// TestReceiverToleranceFollowsTheSendersRate: the tolerance is of real
// time: from a sender whose clock runs 240 times faster (a sandbox at
// --speed 240) a notification signed 10 of its minutes away (2.5 s of
// real time) is taken, one signed 240 times five minutes and more away
// is refused; at the host's rate, 10 minutes is refused.
func TestReceiverToleranceFollowsTheSendersRate(t *testing.T) {
	key := ed(t)
	for _, tc := range []struct {
		name   string
		rate   func() float64
		at     time.Time
		status int
	}{
		{"240x, 10 minutes ahead", func() float64 { return 240 }, now.Add(10 * time.Minute), http.StatusNoContent},
		{"240x, 10 minutes behind", func() float64 { return 240 }, now.Add(-10 * time.Minute), http.StatusNoContent},
		{"240x, 20 hours ahead", func() float64 { return 240 }, now.Add(20*time.Hour + time.Second), http.StatusUnauthorized},
		{"host's rate, 10 minutes ahead", func() float64 { return 1 }, now.Add(10 * time.Minute), http.StatusUnauthorized},
		{"no rate, 10 minutes behind", nil, now.Add(-10 * time.Minute), http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, key, webhook.ReceiverOptions{Rate: tc.rate})
			if got := h.post(body(t, event("n1", "p1", payments.Validating, now)), key, tc.at, nil); got != tc.status {
				t.Errorf("HTTP %d, want %d (rejections %v)", got, tc.status, h.rcv.Rejections())
			}
		})
	}
}

// TestReceiverRejectionLogIsBounded: a flood of bad signatures is counted
// in full but logged once per reason per 10 s, the next line saying how
// many were not logged.
func TestReceiverRejectionLogIsBounded(t *testing.T) {
	key := ed(t)
	logs := &logCapture{}
	clock := now
	rcv, err := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: key.Public(), Now: func() time.Time { return clock }, Log: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	send := func(sig string) {
		req := httptest.NewRequest(http.MethodPost, "/webhooks/payments", strings.NewReader(`{}`))
		req.Header.Set("X-Payments-Signature", sig)
		req.Header.Set("X-Payments-Signature-Timestamp", webhook.Timestamp(clock))
		rcv.ServeHTTP(httptest.NewRecorder(), req)
	}
	for range 500 {
		send("%%%")
	}
	send("AAAA") // another reason: logged at once
	clock = clock.Add(11 * time.Second)
	send("%%%")
	if got := rcv.Rejections(); got[webhook.RejectMalformedSignature] != 501 || got[webhook.RejectWrongKey] != 1 {
		t.Errorf("Rejections() = %v", got)
	}
	recs := logs.records()
	if len(recs) != 3 || recs[1]["reason"] != webhook.RejectWrongKey || recs[2]["not_logged_since_last"] != "499" {
		t.Errorf("logged %d lines: %v", len(recs), recs)
	}
}

func TestReceiverAcceptsEachKeyType(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rs, _ := rsa.GenerateKey(rand.Reader, 2048)
	for name, key := range map[string]crypto.Signer{"ed25519": ed(t), "ecdsa-p256": ec, "rsa-pss": rs} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, key, webhook.ReceiverOptions{})
			ev := event("n1", "p1", payments.Transferring, now)
			// Within tolerance on both sides.
			if got := h.post(body(t, ev), key, now.Add(-4*time.Minute), nil); got != http.StatusNoContent {
				t.Fatalf("HTTP %d", got)
			}
			ds := h.drain()
			if len(ds) != 1 || ds[0].Stale || ds[0].Event.ID != "n1" || ds[0].Event.EventData.PayoutAmount.String() != "1700.5" || !ds[0].ReceivedAt.Equal(now) {
				t.Errorf("delivered %+v", ds)
			}
		})
	}
}

func TestReceiverDuplicatesAndOrder(t *testing.T) {
	key := ed(t)
	h := newHarness(t, key, webhook.ReceiverOptions{})
	send := func(ev webhook.Event) {
		t.Helper()
		if got := h.post(body(t, ev), key, now, nil); got != http.StatusNoContent {
			t.Fatalf("%s: HTTP %d", ev.ID, got)
		}
	}
	t0 := now.Add(-10 * time.Minute)
	send(event("a", "p1", payments.Transferring, t0.Add(2*time.Minute)))
	send(event("a", "p1", payments.Transferring, t0.Add(2*time.Minute))) // duplicate
	send(event("b", "p1", payments.Validating, t0.Add(time.Minute)))     // late, older
	send(event("c", "p1", payments.Completed, t0.Add(3*time.Minute)))
	send(event("d", "p2", payments.Initiated, t0)) // another payment is independent
	send(event("e", "p1", payments.Transferring, t0.Add(3*time.Minute)))
	ds := h.drain()
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s:%v", d.Event.ID, d.Stale))
	}
	want := "a:false b:true c:false d:false e:true"
	if strings.Join(got, " ") != want {
		t.Errorf("delivered %v, want %s", got, want)
	}
	if st := h.rcv.Stats(); st.Duplicates != 1 || st.Stale != 2 || st.Accepted != 5 {
		t.Errorf("stats %+v", st)
	}
}

func TestReceiverMemoryIsBounded(t *testing.T) {
	key := ed(t)
	h := newHarness(t, key, webhook.ReceiverOptions{SeenIDs: 2, TrackedPayments: 2})
	for _, id := range []string{"a", "b", "c", "a"} {
		if got := h.post(body(t, event(id, "p-"+id, payments.Initiated, now)), key, now, nil); got != http.StatusNoContent {
			t.Fatalf("HTTP %d", got)
		}
	}
	// "a" was forgotten after "b" and "c": it is delivered again.
	if n := len(h.drain()); n != 4 {
		t.Errorf("delivered %d, want 4 (the oldest id forgotten)", n)
	}
}

func TestReceiverFullQueueAsksForRetry(t *testing.T) {
	key := ed(t)
	h := newHarness(t, key, webhook.ReceiverOptions{Queue: 1})
	first, second := body(t, event("a", "p1", payments.Initiated, now)), body(t, event("b", "p2", payments.Initiated, now))
	if got := h.post(first, key, now, nil); got != http.StatusNoContent {
		t.Fatalf("HTTP %d", got)
	}
	if got := h.post(second, key, now, nil); got != http.StatusServiceUnavailable {
		t.Fatalf("full queue: HTTP %d, want 503", got)
	}
	if got := h.rcv.Rejections(); got[webhook.RejectOverloaded] != 1 {
		t.Errorf("Rejections() = %v, want overloaded: 1", got)
	}
	h.drain()
	if got := h.post(second, key, now, nil); got != http.StatusNoContent || len(h.drain()) != 1 {
		t.Fatalf("retry after 503 not delivered: HTTP %d", got)
	}
}

func TestReceiverIgnoresOtherEventTypes(t *testing.T) {
	key := ed(t)
	h := newHarness(t, key, webhook.ReceiverOptions{})
	ev := event("a", "p1", payments.Initiated, now)
	ev.EventType = "SOMETHING_NEW"
	if got := h.post(body(t, ev), key, now, nil); got != http.StatusNoContent || len(h.drain()) != 0 || h.rcv.Stats().Ignored != 1 {
		t.Errorf("HTTP %d, stats %+v", got, h.rcv.Stats())
	}
}

func TestNewReceiverNeedsKey(t *testing.T) {
	if _, err := webhook.NewReceiver(webhook.ReceiverOptions{}); err == nil {
		t.Error("no key accepted")
	}
	if _, err := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: "not a key"}); err == nil {
		t.Error("unsupported key accepted")
	}
}

func BenchmarkReceiver(b *testing.B) {
	key := ed(b)
	rcv, _ := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: key.Public(), Now: func() time.Time { return now }, Queue: 1})
	ts := webhook.Timestamp(now)
	reqs := make([][]byte, 1000)
	sigs := make([]string, len(reqs))
	for i := range reqs {
		reqs[i] = body(b, event(fmt.Sprintf("n%d", i), fmt.Sprintf("p%d", i%100), payments.Transferring, now.Add(time.Duration(i)*time.Second)))
		sigs[i], _ = webhook.Sign(key, ts, reqs[i])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := i % len(reqs)
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(reqs[j]))
		req.Header.Set("X-Payments-Signature", sigs[j])
		req.Header.Set("X-Payments-Signature-Timestamp", ts)
		w := httptest.NewRecorder()
		rcv.ServeHTTP(w, req)
		select {
		case <-rcv.Events():
		default:
		}
	}
}
