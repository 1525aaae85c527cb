package site

import (
	"bytes"
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"treasury/desk/live"
)

// TestALargeMessageArrivesWhole: a message larger than NATS carries in
// one is compressed and sent in pieces; the receiver joins them into the
// very bytes sent, and a small one goes as it is.
func TestALargeMessageArrivesWhole(t *testing.T) {
	s := oneNode(t)
	big := make([]byte, 3*int(s.nc.MaxPayload())) // incompressible: pieces
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	small := []byte(`{"seq":1}`)
	var mu sync.Mutex
	var got [][]byte
	var u unpacker
	pieces := 0
	sub, err := s.nc.Subscribe("treasury.test", func(m *nats.Msg) {
		mu.Lock()
		defer mu.Unlock()
		pieces++
		if b, ok := u.add(m); ok {
			got = append(got, b)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	for _, b := range [][]byte{big, small} {
		if _, err := s.sendPacked("treasury.test", b); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || !bytes.Equal(got[0], big) || !bytes.Equal(got[1], small) {
		t.Fatalf("got %d messages, want the two sent, whole", len(got))
	}
	if pieces < 4 {
		t.Fatalf("%d pieces, want the large one in at least 3", pieces)
	}
}

// TestTheLeasePassesWhenItsHolderLeaves: of two processes that compete
// for the lease, one polls and the other knows it; when the one that
// polls leaves, the other takes the lease and polls, and a follower
// (which never competes) names the new poller.
func TestTheLeasePassesWhenItsHolderLeaves(t *testing.T) {
	sites := startSite(t, 2)
	a, b := pollerAndNext(t, sites)
	f, err := sites[1].SharePolls(live.New(live.Options{}), false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Stop()
	first := sites[0].Node()
	waitUntil(t, "b and the follower to name a", func() bool {
		return !b.Poller().Here && b.Poller().Node == first && f.Poller().Node == first
	})
	a.Stop()
	waitUntil(t, "b to poll", func() bool { return b.Poller().Here && b.Poller().Alone == "" })
	waitUntil(t, "the follower to name b", func() bool {
		return f.Poller().Node == sites[1].Node() && !f.Poller().Here && f.Poller().Since.Equal(b.Poller().Since)
	})
}

// pollerAndNext joins a process of the first site's bastion that polls
// and one of the second's that competes for the lease too.
func pollerAndNext(t *testing.T, sites []*Site) (a, b *Polling) {
	t.Helper()
	a, err := sites[0].SharePolls(live.New(live.Options{}), true)
	if err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "a to poll", func() bool { return a.Poller().Here })
	if b, err = sites[1].SharePolls(live.New(live.Options{}), true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Stop)
	return a, b
}

// waitUntil waits, up to 20 s (the lease beats every 2 s), for ok.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 20 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestADeadPollersLeaseRunsOut: the bastion of the process that polls
// dies without a word (its node and connection gone, its lease left):
// the lease runs out and a process on another bastion takes it and
// polls, within the lease's TTL and a beat or two; the process cut off
// polls no more (until it polls alone).
func TestADeadPollersLeaseRunsOut(t *testing.T) {
	sites := startSite(t, 3)
	a, b := pollerAndNext(t, sites)
	waitUntil(t, "b to name a", func() bool { return b.Poller().Node == sites[0].Node() })
	died := time.Now()
	sites[0].Close() // no Stop: the lease stays until it runs out
	waitUntil(t, "b to poll", func() bool { return b.Poller().Here && b.Poller().Alone == "" })
	t.Logf("b polls %v after a's bastion died", time.Since(died).Round(100*time.Millisecond))
	// a, cut off while it held the lease, stops polling and, until it
	// polls alone, names itself as the site last did: named nobody, its
	// store would read the topics it is not in step with itself.
	waitUntil(t, "a to stop polling, naming itself", func() bool {
		pl := a.Poller()
		return !pl.Here && pl.Alone == "" && pl.Node == sites[0].Node()
	})
	a.Stop()
}

// The lease's bucket is on file: a site an earlier version made it in
// memory for takes it on file at once (a lease is only a lease).
func TestTheLeaseBucketMovesToFile(t *testing.T) {
	s := startSiteWith(t, 1, func(_ int, o *Options) { o.ClusterListen, o.Routes = "", nil })[0]
	ctx := context.Background()
	if _, err := s.js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: PollerBucket, History: 1, TTL: leaseTTL,
		Storage: jetstream.MemoryStorage, Replicas: 1}); err != nil {
		t.Fatal(err)
	}
	kv, err := s.pollerBucket(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info := st.(*jetstream.KeyValueBucketStatus).StreamInfo(); info.Config.Storage != jetstream.FileStorage {
		t.Fatalf("the lease's bucket is on %v", info.Config.Storage)
	}
}
