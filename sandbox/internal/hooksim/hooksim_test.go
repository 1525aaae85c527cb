package hooksim

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/webhook"
)

var start = time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)

// receiver is a TLS callback that records what arrives and answers with
// the statuses it is given, in turn (200 when they run out).
type receiver struct {
	srv      *httptest.Server
	mu       sync.Mutex
	statuses []int
	got      []received
	arrived  chan struct{}
}

type received struct {
	id        string
	body      []byte
	signature string
	timestamp string
}

func newReceiver(t *testing.T, statuses ...int) *receiver {
	rc := &receiver{statuses: statuses, arrived: make(chan struct{}, 100)}
	rc.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev webhook.Event
		json.Unmarshal(body, &ev)
		rc.mu.Lock()
		rc.got = append(rc.got, received{id: ev.ID, body: body,
			signature: r.Header.Get("X-Test-Signature"), timestamp: r.Header.Get("X-Test-Signature-Timestamp")})
		status := http.StatusOK
		if len(rc.statuses) > 0 {
			status, rc.statuses = rc.statuses[0], rc.statuses[1:]
		}
		rc.mu.Unlock()
		w.WriteHeader(status)
		rc.arrived <- struct{}{}
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(rc.srv.Certificate())
	return p
}

// wait blocks until n more requests arrived; it fails the test after a
// generous limit (a hang, not a speed assertion).
func (rc *receiver) wait(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		select {
		case <-rc.arrived:
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d deliveries arrived", i, n)
		}
	}
}

// settle waits until the deliverer's stats satisfy ok (the worker records an
// attempt just after the receiver answers it).
func settle(t *testing.T, d *Deliverer, ok func(Stats) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok(d.Stats()) {
		if time.Now().After(deadline) {
			t.Fatalf("stats never settled: %+v", d.Stats())
		}
		time.Sleep(time.Millisecond)
	}
}

func (rc *receiver) quiet(t *testing.T) {
	t.Helper()
	select {
	case <-rc.arrived:
		t.Fatal("a delivery arrived although none was due")
	case <-time.After(150 * time.Millisecond):
	}
}

func (rc *receiver) ids() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var ids []string
	for _, g := range rc.got {
		ids = append(ids, g.id)
	}
	return ids
}

func newDeliverer(t *testing.T, rc *receiver, s Settings) (*Deliverer, *simkit.Clock, ed25519.PrivateKey) {
	t.Helper()
	pub, key, _ := ed25519.GenerateKey(nil)
	_ = pub
	clock := simkit.NewFrozenClock(start)
	env := &simkit.Env{Seed: 1, Clock: clock, Faults: simkit.NewFaults(simkit.FaultSettings{})}
	s.URL, s.RootCAs, s.HeaderPrefix = rc.srv.URL+"/hook", rc.pool(), "X-Test"
	d := New(env, key, s)
	t.Cleanup(func() { d.Close() })
	return d, clock, key
}

func event(id string) webhook.Event {
	return webhook.Event{ID: id, EventType: webhook.EventPaymentStateTransition, EventVersion: 1, CreateDate: start}
}

func TestSpec6_1_SignedDelivery(t *testing.T) {
	rc := newReceiver(t)
	d, _, key := newDeliverer(t, rc, Settings{})
	d.Enqueue(event("n-1"))
	rc.wait(t, 1)
	rc.mu.Lock()
	g := rc.got[0]
	rc.mu.Unlock()
	if err := webhook.Verify(key.Public(), g.timestamp, g.body, g.signature); err != nil {
		t.Fatalf("signature does not verify with the sandbox key: %v", err)
	}
	other, _, _ := ed25519.GenerateKey(nil)
	if webhook.Verify(other, g.timestamp, g.body, g.signature) == nil {
		t.Fatal("signature verifies with an unrelated key")
	}
	if webhook.Verify(key.Public(), g.timestamp, append([]byte(" "), g.body...), g.signature) == nil {
		t.Fatal("signature verifies over a changed body")
	}
	// The worker counts the delivery just after the receiver answered it.
	settle(t, d, func(s Stats) bool { return s.Delivered+s.Failed > 0 })
	if st := d.Stats(); st.Delivered != 1 || st.Failed != 0 || st.Pending != 0 {
		t.Fatalf("stats = %+v, want one delivered and none pending", st)
	}
}

// TestSpec6_1_SignedOnThePlatformClock: the signature timestamp is the
// platform's time at sending, as a real platform's is, not the host's: a
// sandbox whose clock ran ahead (--speed, or advanced) signs ahead of the
// host, and its timestamp agrees with the events' own times.
func TestSpec6_1_SignedOnThePlatformClock(t *testing.T) {
	rc := newReceiver(t)
	d, clock, _ := newDeliverer(t, rc, Settings{})
	clock.Advance(3 * time.Hour) // what 45 s at 240 times real time do
	d.Enqueue(event("n-1"))
	rc.wait(t, 1)
	rc.mu.Lock()
	g := rc.got[0]
	rc.mu.Unlock()
	if want := webhook.Timestamp(clock.Now()); g.timestamp != want {
		t.Fatalf("signature timestamp %s, want the platform's time %s (%s); the host's is %s",
			g.timestamp, want, clock.Now(), webhook.Timestamp(time.Now()))
	}
}

func TestSpec6_1_RetrySchedule(t *testing.T) {
	// Fail four times, then succeed: attempts at 0, +30s, +60s, +120s, +240s.
	rc := newReceiver(t, 500, 503, 404, 500)
	d, clock, _ := newDeliverer(t, rc, Settings{})
	d.Enqueue(event("n-1"))
	rc.wait(t, 1)
	for i, wait := range []time.Duration{30 * time.Second, 60 * time.Second, 120 * time.Second, 240 * time.Second} {
		settle(t, d, func(s Stats) bool { return s.Failed == i+1 })
		clock.Advance(wait - time.Second)
		rc.quiet(t)
		clock.Advance(time.Second)
		rc.wait(t, 1)
	}
	settle(t, d, func(s Stats) bool { return s.Delivered == 1 })
	clock.Advance(24 * time.Hour)
	rc.quiet(t)
	if st := d.Stats(); st.Delivered != 1 || st.Failed != 4 || st.Pending != 0 {
		t.Fatalf("stats = %+v, want 1 delivered after 4 failures", st)
	}
}

func TestRetryDelay(t *testing.T) {
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour}
	for i, w := range want {
		if got := RetryDelay(i + 1); got != w {
			t.Errorf("RetryDelay(%d) = %v, want %v", i+1, got, w)
		}
	}
}

func TestSpec6_1_GivesUpAfter72Hours(t *testing.T) {
	statuses := make([]int, 200)
	for i := range statuses {
		statuses[i] = 500
	}
	rc := newReceiver(t, statuses...)
	d, clock, _ := newDeliverer(t, rc, Settings{})
	d.Enqueue(event("n-1"))
	rc.wait(t, 1)
	attempts := 1
	for attempts < MaxAttempts+5 {
		settle(t, d, func(s Stats) bool { return s.Failed == attempts })
		if d.Stats().Abandoned > 0 {
			break
		}
		clock.Advance(time.Hour)
		rc.wait(t, 1)
		attempts++
	}
	// 30s+1m+...+32m is about an hour; then hourly up to 72 hours.
	if attempts < 70 || attempts > MaxAttempts {
		t.Fatalf("gave up after %d attempts, want about 72 hours' worth and at most %d", attempts, MaxAttempts)
	}
}

func TestDuplicatesAndReordering(t *testing.T) {
	t.Run("duplicates", func(t *testing.T) {
		rc := newReceiver(t)
		d, _, _ := newDeliverer(t, rc, Settings{DuplicateRate: 1})
		d.Enqueue(event("a"))
		rc.wait(t, 2)
		if ids := rc.ids(); len(ids) != 2 || ids[0] != "a" || ids[1] != "a" {
			t.Fatalf("deliveries = %v, want a twice", ids)
		}
	})
	t.Run("reordered", func(t *testing.T) {
		rc := newReceiver(t)
		d, _, _ := newDeliverer(t, rc, Settings{ReorderRate: 1})
		d.Enqueue(event("a"))
		rc.quiet(t) // held back until the next one
		d.Enqueue(event("b"))
		rc.wait(t, 2)
		if ids := rc.ids(); len(ids) != 2 || ids[0] != "b" || ids[1] != "a" {
			t.Fatalf("deliveries = %v, want b before a", ids)
		}
	})
	t.Run("held one is not lost", func(t *testing.T) {
		rc := newReceiver(t)
		d, clock, _ := newDeliverer(t, rc, Settings{ReorderRate: 1})
		d.Enqueue(event("lonely"))
		rc.quiet(t)
		clock.Advance(holdLimit)
		rc.wait(t, 1)
	})
}

func TestNoCallbackKeepsNothing(t *testing.T) {
	clock := simkit.NewFrozenClock(start)
	env := &simkit.Env{Clock: clock, Faults: simkit.NewFaults(simkit.FaultSettings{})}
	_, key, _ := ed25519.GenerateKey(nil)
	d := New(env, key, Settings{})
	defer d.Close()
	d.Enqueue(event("x"))
	if st := d.Stats(); st.Pending != 0 || st.Enqueued != 0 {
		t.Fatalf("stats = %+v, want nothing queued without a callback", st)
	}
}
