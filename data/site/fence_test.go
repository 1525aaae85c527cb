package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"treasury/data/apierr"
	"treasury/data/transport"
	"treasury/kit/fence"
)

// TestAStalledPollerSendsNothing: the process that polls has its beats
// frozen (as SIGSTOP freezes it) while its polls run on; its lease runs
// out and another process takes it. From the moment the lease it was
// started under can no longer be trusted, the frozen process's reads
// do not leave (counted at the server), though it still believes it
// polls; once its beats resume it finds the lease taken and follows,
// and a fence of its old take stays shut even when it takes the lease
// again.
func TestAStalledPollerSendsNothing(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	c, err := transport.New(transport.Config{Interface: apierr.Liquidity, BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	read := func(check func() error) error {
		_, err := c.Do(fence.With(context.Background(), check), transport.Request{Path: "/v1/quotes"}, nil)
		return err
	}

	sites := startSite(t, 2)
	a, b := pollerAndNext(t, sites)
	defer a.Stop()
	waitUntil(t, "a to keep its lease once", func() bool { return a.Fence() != nil && a.Fence()() == nil })
	first := a.Fence()
	if first == nil {
		t.Fatal("the poller's polls carry no fence")
	}
	if err := read(first); err != nil || hits.Load() != 1 {
		t.Fatalf("a read under a lease held: %v, %d requests; want it sent", err, hits.Load())
	}
	if b.Fence() != nil {
		t.Fatal("a process that follows carries a fence: want none")
	}

	a.stall.Lock() // frozen
	frozen := time.Now()
	waitUntil(t, "b to take the lease", func() bool { return b.Poller().Here && b.Poller().Alone == "" })
	t.Logf("b polls %v after a's beats froze", time.Since(frozen).Round(100*time.Millisecond))
	if !a.Poller().Here {
		t.Fatal("a knew of its lease's loss while frozen: the test proves nothing")
	}
	sent := hits.Load()
	for _, check := range []func() error{first, a.Fence()} {
		if err := read(check); !fence.Fenced(err) {
			t.Fatalf("a read of the stalled poller: %v; want it held back", err)
		}
	}
	a.stall.Unlock() // resumed
	waitUntil(t, "a to follow b", func() bool { return !a.Poller().Here && a.Poller().Node == sites[1].Node() })
	if err := read(first); !fence.Fenced(err) {
		t.Fatalf("a read under a's lost lease after it resumed: %v; want it held back", err)
	}
	if n := hits.Load() - sent; n != 0 {
		t.Fatalf("the stalled poller sent %d requests while another held the lease; want 0", n)
	}

	b.Stop() // a takes the lease again: its old take's fence stays shut
	waitUntil(t, "a to poll again", func() bool {
		return a.Poller().Here && a.Poller().Alone == "" && a.Fence() != nil && a.Fence()() == nil
	})
	if err := read(first); !fence.Fenced(err) {
		t.Fatalf("a read under a's first take, a holding a second: %v; want it held back", err)
	}
	if err := read(a.Fence()); err != nil {
		t.Fatalf("a read under a's second take: %v; want it sent", err)
	}
}
