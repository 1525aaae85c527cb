package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"treasury/kit/fence"
	"treasury/wire/apierr"
	"treasury/wire/transport"
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

// TestTheLeaseStaysWithAHolderThatBeats: the lease's key runs out while
// its holder lives (as when the bucket's leader was on a follower's node
// that died, and the site took seconds to elect another): the process
// that follows does not take it, and the holder takes it again, polling
// since when it first did.
func TestTheLeaseStaysWithAHolderThatBeats(t *testing.T) {
	sites := startSite(t, 2)
	a, b := pollerAndNext(t, sites)
	defer a.Stop()
	waitUntil(t, "b to name a", func() bool { return b.Poller().Node == sites[0].Node() })
	since := a.Poller().Since
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	kv, err := sites[0].pollerBucket(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// a's puts not taken (its bucket has no leader) while it beats on:
	// its key runs out.
	a.stall.Lock()
	if err := kv.Delete(ctx, pollerKey); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * leaseBeat)
	for time.Now().Before(deadline) {
		a.sayAlive(false)
		if b.Poller().Here {
			a.stall.Unlock()
			t.Fatal("b took the lease of a holder that beats on")
		}
		time.Sleep(200 * time.Millisecond)
	}
	a.stall.Unlock()
	waitUntil(t, "a to hold the key again", func() bool {
		e, err := kv.Get(ctx, pollerKey)
		return err == nil && strings.Contains(string(e.Value()), a.proc)
	})
	if pl := a.Poller(); !pl.Here || !pl.Since.Equal(since) {
		t.Fatalf("a after its key ran out: %+v; want it polling since %v", pl, since)
	}
	if b.Poller().Here || b.Poller().Node != sites[0].Node() {
		t.Fatalf("b after a's key ran out: %+v; want it naming a", b.Poller())
	}
}

// TestAHolderWhosePutsFailStopsBeating: a holder says it is alive while
// the site took one of its puts within beatFor (a bucket's election and
// the key's TTL); one whose puts have failed longer says no more, or the
// others would never take the lease while nobody polls (its fence shut).
func TestAHolderWhosePutsFailStopsBeating(t *testing.T) {
	now := time.Now()
	for _, c := range []struct {
		name    string
		held    uint64
		renewed time.Time
		beats   bool
	}{
		{"kept a beat ago", 7, now.Add(-leaseBeat), true},
		{"its key ran out, the bucket electing", 7, now.Add(-leaseTTL - time.Second), true},
		{"puts failing past an election", 7, now.Add(-beatFor), false},
		{"a take whose answer was lost, no put taken yet", 7, time.Time{}, false},
		{"not held", 0, now, false},
	} {
		p := &Polling{held: c.held, renewed: c.renewed}
		if got := p.beatsLocked(now); got != c.beats {
			t.Errorf("%s: beats %v, want %v", c.name, got, c.beats)
		}
	}
}
