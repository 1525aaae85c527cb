package platform_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// rangeProxy stands between the platform and the sandbox's payments
// interface: it counts the filter requests by range type and the payments
// they answered, and plays a server that takes PAYMENT_STATUS_LAST_UPDATED
// (pass), one that ignores filterRangeType and bounds the creation time,
// as before the document named the range types (ignore), or one that
// refuses it with a 400 (refuse).
type rangeProxy struct {
	mode string

	mu       sync.Mutex
	requests map[string]int // filter requests by filterRangeType ("" none)
	answered map[string]int // payments answered, by filterRangeType
}

func (x *rangeProxy) reset() {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.requests, x.answered = map[string]int{}, map[string]int{}
}

func (x *rangeProxy) counts() (requests, answered map[string]int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.requests, x.answered
}

// openThrough opens a platform on a sandbox of opts whose payments
// interface is reached through a rangeProxy in mode.
func openThrough(t *testing.T, opts sandbox.Options, mode string) (*sandbox.Server, *platform.Platform, *rangeProxy) {
	t.Helper()
	srv := sandboxtest.Listen(t, opts)
	cfg := sandboxprofile.Of(srv, config.Builtin())
	target, err := url.Parse(cfg.Payments.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	x := &rangeProxy{mode: mode}
	x.reset()
	// The platform's paths keep the sandbox's prefix (target.Path): the
	// proxy forwards them to its host as they are.
	rp := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: target.Scheme, Host: target.Host})
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, payments.PathFilterV3) {
			rp.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("the filter's body is not JSON: %v", err)
		}
		f, _ := req["filter"].(map[string]any)
		kind, _ := f["filterRangeType"].(string)
		if kind == payments.RangeLastUpdated {
			switch x.mode {
			case "ignore":
				delete(f, "filterRangeType")
			case "refuse":
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprintf(w, `{"code":"USR_001","type":"USER_VALIDATION_ERROR","status":400,"title":"Bad Request",`+
					`"description":"Invalid filter.filterRangeType","timestamp":%q}`, srv.Clock().Now().Format(time.RFC3339))
				x.count(kind, 0)
				return
			}
			body, _ = json.Marshal(req)
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		rec := httptest.NewRecorder()
		rp.ServeHTTP(rec, r)
		var page struct{ Data []json.RawMessage }
		_ = json.Unmarshal(rec.Body.Bytes(), &page)
		x.count(kind, len(page.Data))
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(proxy.Close)
	cfg.Payments.BaseURL = proxy.URL + target.Path
	p, err := platform.Open(cfg, platform.Options{Now: srv.Clock().Now, BackfillBudget: time.Minute,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return srv, p, x
}

func (x *rangeProxy) count(kind string, n int) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.requests[kind]++
	x.answered[kind] += n
}

// sameAsFresh fails t unless p holds, for every payment a platform opened
// now on srv reads (every unfinished one and those of the last day), the
// same state.
func sameAsFresh(t *testing.T, srv *sandbox.Server, p *platform.Platform) (checked int) {
	t.Helper()
	fresh, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, BackfillBudget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	want := fetched(fresh, live.PaymentsKey)
	got := live.Get(p.Store, live.PaymentsKey).Data
	for i := range want.Len() {
		w := want.At(i)
		g, ok := got.Get(w.PaymentID)
		switch {
		case !ok:
			t.Errorf("payment %s (%s, initiated %s) is not held", w.PaymentID, w.PaymentState, w.When().Format(time.RFC3339))
		case g.PaymentState != w.PaymentState:
			t.Errorf("payment %s held as %s, the platform says %s", w.PaymentID, g.PaymentState, w.PaymentState)
		}
	}
	for i := range got.Len() {
		if g := got.At(i); g.PaymentState.Unfinished() {
			if _, ok := want.Get(g.PaymentID); !ok {
				t.Errorf("payment %s held as %s, which the platform does not list as unfinished", g.PaymentID, g.PaymentState)
			}
		}
	}
	return want.Len()
}

// TestPollsReadWhatChanged: after its first poll, the feed asks a server
// of the document only for the payments whose state changed since the
// last one (PAYMENT_STATUS_LAST_UPDATED), reading every unfinished payment
// again only once every FullEvery polls, and it holds what a platform
// reading everything holds. A server that takes only the spec's filter
// (the variant face) is never asked for it: every poll reads everything.
func TestPollsReadWhatChanged(t *testing.T) {
	t.Run("document", func(t *testing.T) {
		srv, p, x := openThrough(t, sandboxtest.Options(), "pass")
		srv.AdvanceClock(10 * time.Minute) // live traffic starts payments
		fetched(p, live.PaymentsKey)
		if req, _ := x.counts(); req[payments.RangeLastUpdated] != 0 || req[""] == 0 {
			t.Fatalf("the first poll reads everything: requests %v", req)
		}
		for i := 1; i < platform.FullEvery; i++ {
			x.reset()
			srv.AdvanceClock(5 * time.Second)
			ps := fetched(p, live.PaymentsKey)
			req, ans := x.counts()
			if len(req) != 1 || req[payments.RangeLastUpdated] == 0 {
				t.Fatalf("poll %d: requests %v, want only what changed", i+1, req)
			}
			unfinished := 0
			for j := range ps.Len() {
				if ps.At(j).PaymentState.Unfinished() {
					unfinished++
				}
			}
			if ans[payments.RangeLastUpdated] >= unfinished {
				t.Errorf("poll %d read %d payments that changed, as many as the %d unfinished", i+1, ans[payments.RangeLastUpdated], unfinished)
			}
		}
		if n := sameAsFresh(t, srv, p); n == 0 {
			t.Fatal("the platform holds no payment: the test proves nothing")
		}
		x.reset()
		srv.AdvanceClock(5 * time.Second)
		fetched(p, live.PaymentsKey)
		if req, _ := x.counts(); req[""] == 0 || req[payments.RangeLastUpdated] != 0 {
			t.Fatalf("poll %d: requests %v, want everything unfinished read again", platform.FullEvery+1, req)
		}
		if d := p.Payments.Dialect(); d.NoUpdateRange {
			t.Fatal("a server that honours the range type was taken for one that does not")
		}
		sameAsFresh(t, srv, p)
	})
	t.Run("variant", func(t *testing.T) {
		srv, p, x := openThrough(t, sandboxtest.VariantOptions(), "pass")
		fetched(p, live.PaymentsKey)
		for range 3 {
			srv.AdvanceClock(time.Minute)
			fetched(p, live.PaymentsKey)
			sameAsFresh(t, srv, p)
		}
		if req, _ := x.counts(); req[payments.RangeLastUpdated] != 0 || req[""] == 0 {
			t.Fatalf("requests %v: a server of the spec's filter asked for what changed", req)
		}
	})
}

// TestServerIgnoringTheUpdateRange: a server that takes the range's
// bounds as creation times answers a changed read with the new payments
// only. The next full read finds the transitions it left out, the feed
// reads everything from then on, and the set is true again.
func TestServerIgnoringTheUpdateRange(t *testing.T) {
	srv, p, x := openThrough(t, sandboxtest.Options(), "ignore")
	srv.AdvanceClock(10 * time.Minute) // live traffic starts payments
	fetched(p, live.PaymentsKey)
	for range platform.FullEvery {
		srv.AdvanceClock(time.Minute)
		fetched(p, live.PaymentsKey)
	}
	if !p.Payments.Dialect().NoUpdateRange {
		t.Fatal("the full read did not find what the changed reads left out")
	}
	x.reset()
	srv.AdvanceClock(time.Minute)
	fetched(p, live.PaymentsKey)
	if req, _ := x.counts(); req[payments.RangeLastUpdated] != 0 || req[""] == 0 {
		t.Fatalf("requests %v: want everything read, nothing by state update", req)
	}
	sameAsFresh(t, srv, p)
}

// TestServerRefusingTheUpdateRange: a server that refuses the range type
// is answered the same poll by reading everything; the refusal is learnt,
// not shown as a failure.
func TestServerRefusingTheUpdateRange(t *testing.T) {
	srv, p, x := openThrough(t, sandboxtest.Options(), "refuse")
	fetched(p, live.PaymentsKey)
	srv.AdvanceClock(30 * time.Minute)
	fetched(p, live.PaymentsKey)
	if snap := p.Store.Snapshot(live.Payments); snap.Err != nil || snap.Failures != 0 {
		t.Fatalf("the refusal shown as a failure: %v (%d)", snap.Err, snap.Failures)
	}
	for _, h := range p.Store.Health() {
		if h.LastError != nil {
			t.Fatalf("%s: %v", h.Interface, h.LastError)
		}
	}
	if !p.Payments.Dialect().NoUpdateRange {
		t.Fatal("the refusal was not learnt")
	}
	sameAsFresh(t, srv, p)
	x.reset()
	srv.AdvanceClock(time.Minute)
	fetched(p, live.PaymentsKey)
	if req, _ := x.counts(); req[payments.RangeLastUpdated] != 0 {
		t.Fatalf("requests %v: the refused range type was asked again", req)
	}
}

// TestPaymentsEvictedOnThePlatformsClock: against a platform whose clock
// runs ahead of the host's (a sandbox at 240x; here the host's stands
// still), the payments that finished before the window, counted on the
// platform's clock, leave the set: it stops growing once the window is
// full.
func TestPaymentsEvictedOnThePlatformsClock(t *testing.T) {
	o := sandboxtest.Options()
	o.LivePaymentsPerMinute = 1
	srv := sandboxtest.Listen(t, o)
	host := srv.Clock().Now()
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: func() time.Time { return host }, BackfillBudget: time.Minute,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	fetched(p, live.PaymentsKey)
	for range 12 {
		srv.AdvanceClock(6 * time.Hour)
		fetched(p, live.PaymentsKey)
	}
	// A poll reads what changed since the one before (six hours, here):
	// one more a minute later has read only the last minute's changes.
	srv.AdvanceClock(time.Minute)
	fetched(p, live.PaymentsKey)
	cut := srv.Clock().Now().Add(-platform.PaymentWindow - time.Minute)
	set := live.Get(p.Store, live.PaymentsKey).Data
	old := 0
	for i := range set.Len() {
		if q := set.At(i); !q.PaymentState.Unfinished() && q.When().Before(cut) && q.LastStateUpdatedAt.Before(cut) {
			old++
		}
	}
	if old > 0 {
		t.Errorf("%d of %d payments held finished before the window (platform time %v)", old, set.Len(), srv.Clock().Now())
	}
}

// TestAPaymentsReadFoldsTheSameElsewhere: a poll of the payments carries
// all its fold needs: folded here, or on another bastion after it
// travelled as JSON, it gives the same set, payment for payment.
func TestAPaymentsReadFoldsTheSameElsewhere(t *testing.T) {
	srv, p := open(t)
	here, there, err := platform.FoldHereAndThere(context.Background(), p.Payments, srv.Clock().Now)
	if err != nil {
		t.Fatal(err)
	}
	if here.Len() == 0 || here.Len() != there.Len() {
		t.Fatalf("%d payments here, %d there", here.Len(), there.Len())
	}
	for i := range here.Len() {
		a, b := here.At(i), there.At(i)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("payment %d differs:\nhere  %s\nthere %s", i, ja, jb)
		}
	}
}
