package platform_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/desk/site"
	"treasury/desk/site/sitetest"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// counting counts the requests a platform sends.
type counting struct{ n *atomic.Int64 }

func (c counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// openCounted opens a platform on srv whose requests n counts.
func openCounted(t testing.TB, srv *sandbox.Server, n *atomic.Int64) *platform.Platform {
	t.Helper()
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, BackfillBudget: time.Minute,
		HTTP: &http.Client{Transport: counting{n}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// topicData is each topic's data as JSON, for comparing two stores.
func topicData(t testing.TB, s *live.Store) map[live.Topic]string {
	t.Helper()
	out := map[live.Topic]string{}
	put := func(topic live.Topic, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out[topic] = string(b)
	}
	ps := live.Get(s, live.PaymentsKey).Data
	all := make([]payments.Payment, 0, ps.Len())
	for i := range ps.Len() {
		all = append(all, *ps.At(i))
	}
	put(live.Payments, all)
	put(live.Quotes, live.Get(s, live.QuotesKey).Data)
	put(live.Trades, live.Get(s, live.TradesKey).Data)
	put(live.LiquidityBalances, live.Get(s, live.LiquidityBalancesKey).Data)
	put(live.PaymentBalances, live.Get(s, live.PaymentBalancesKey).Data)
	put(live.Ledger, live.Get(s, live.LedgerKey).Data)
	put(live.Wallets, live.Get(s, live.WalletsKey).Data)
	put(live.Transactions, live.Get(s, live.TransactionsKey).Data)
	put(live.Endpoints, live.Get(s, live.EndpointsKey).Data)
	put(live.Reports, live.Get(s, live.ReportsKey).Data)
	return out
}

// siteOfTwo is two processes of a one-node site on one sandbox: a polls
// for the site, b follows; reqA and reqB count their requests.
type siteOfTwo struct {
	srv          *sandbox.Server
	pa, pb       *platform.Platform
	pollA, pollB *site.Polling
	reqA, reqB   *atomic.Int64
}

func startSiteOfTwo(t testing.TB) siteOfTwo { return startSiteOfTwoWith(t, false) }

// startSiteOfTwoWith is startSiteOfTwo, b competing for the lease when
// competeB says so.
func startSiteOfTwoWith(t testing.TB, competeB bool) siteOfTwo {
	t.Helper()
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	addr := sitetest.FreeAddrs(t, 1)[0]
	nodeA := sitetest.NodeAt(t, "a", addr)
	nodeB, err := site.Start(site.Options{Name: "a", Node: "b", Listen: addr, Connect: true,
		User: config.DefaultClusterUser, Password: sitetest.Password, Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nodeB.Close)
	st := siteOfTwo{srv: srv, reqA: new(atomic.Int64), reqB: new(atomic.Int64)}
	st.pa, st.pb = openCounted(t, srv, st.reqA), openCounted(t, srv, st.reqB)
	if st.pollA, err = nodeA.SharePolls(st.pa.Store, true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.pollA.Stop)
	if st.pollB, err = nodeB.SharePolls(st.pb.Store, competeB); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.pollB.Stop)
	waitFor(t, "a to take the lease and b to know it", func() bool {
		return st.pa.Store.Poller().Here && st.pb.Store.Poller().Node == "a" && !st.pb.Store.Poller().Here
	})
	return st
}

var siteTopics = []live.Topic{live.Payments, live.Quotes, live.Trades, live.LiquidityBalances, live.PaymentBalances, live.Ledger,
	live.Wallets, live.Transactions, live.Endpoints, live.Reports}

// Two processes of a site on one platform: the one that holds the lease
// polls, the other asks it for what it holds, then holds what the poller
// publishes, the very same data, without one request of its own; every
// feed's answer survives the trip between them.
func TestASiteHoldsOneDataFromOnePoller(t *testing.T) {
	s := startSiteOfTwo(t)
	srv, pa, pb, pollA, reqB := s.srv, s.pa, s.pb, s.pollA, s.reqB
	topics := siteTopics
	ctx := context.Background()
	// a's first polls: the windows take two reads (the first, then the
	// rest). b, started and watching every topic, asks a for what it
	// holds, and reads nothing itself.
	for range 2 {
		for _, topic := range topics {
			pa.Store.FetchNow(ctx, topic)
		}
	}
	sub := pb.Store.Subscribe()
	defer sub.Close()
	sub.Watch(topics...)
	pb.Start(ctx)
	before := reqB.Load()
	var want map[live.Topic]string
	for range 3 {
		srv.Clock().Advance(time.Minute) // the platform moves on between polls
		for _, topic := range topics {
			pa.Store.FetchNow(ctx, topic)
		}
	}
	want = topicData(t, pa.Store)
	var differ []live.Topic
	waitFor(t, "b to hold a's data", func() bool {
		got := topicData(t, pb.Store)
		differ = differ[:0]
		for _, topic := range topics {
			if got[topic] != want[topic] {
				differ = append(differ, topic)
			}
		}
		return len(differ) == 0
	})
	if len(differ) > 0 {
		got := topicData(t, pb.Store)
		for _, topic := range differ {
			var g, w []map[string]any
			_ = json.Unmarshal([]byte(got[topic]), &g)
			_ = json.Unmarshal([]byte(want[topic]), &w)
			t.Errorf("%s: b holds %d, a %d", topic, len(g), len(w))
			for i := range min(len(g), len(w)) {
				gb, _ := json.Marshal(g[i])
				wb, _ := json.Marshal(w[i])
				if string(gb) != string(wb) {
					t.Errorf("first difference at %d:\nb %s\na %s", i, gb, wb)
					break
				}
			}
		}
	}
	if t.Failed() {
		return
	}
	if n := reqB.Load() - before; n != 0 || before != 0 {
		t.Fatalf("b sent %d requests, %d while a polled for the site, want none", before+n, n)
	}
	if st := pollA.Stats(); st.Messages == 0 || st.Dropped != 0 {
		t.Fatalf("a published %d messages, dropped %d", st.Messages, st.Dropped)
	}
	for _, topic := range topics {
		if snap := pb.Store.Snapshot(topic); snap.Err != nil || !snap.Loaded() {
			t.Fatalf("b's %s: loaded %v, err %v", topic, snap.Loaded(), snap.Err)
		}
	}

	// a leaves: b, which does not compete, finds nobody polls and, after
	// the grace, polls on its own, saying so.
	pollA.Stop()
	waitFor(t, "b to see nobody polls", func() bool { return pb.Store.Poller().Node == "" })
}

// A hand-over goes on from where the poller left each topic: b, which
// followed in step, takes the lease when a leaves, and its first two
// polls of every topic (a first poll of a window, then its backfill, when
// read afresh) cost what two polls of a's cost, within 10 requests, not
// the windows again.
func TestAHandOverGoesOnFromThePollersReads(t *testing.T) {
	s := startSiteOfTwoWith(t, true)
	srv, pa, pb, reqA, reqB := s.srv, s.pa, s.pb, s.reqA, s.reqB
	ctx := context.Background()
	round := func(p *platform.Platform) {
		srv.Clock().Advance(time.Minute) // the platform moves on between polls
		for _, topic := range siteTopics {
			p.Store.FetchNow(ctx, topic)
		}
	}
	for range 3 {
		round(pa) // the first reads, the windows whole
	}
	// b asks a for each topic whole, then follows a's polls in step.
	for _, topic := range siteTopics {
		s.pollB.AskWhole(topic)
	}
	waitFor(t, "b to hold a's data", func() bool {
		a, b := topicData(t, pa.Store), topicData(t, pb.Store)
		for _, topic := range siteTopics {
			if a[topic] != b[topic] {
				return false
			}
		}
		return true
	})
	before := reqA.Load()
	round(pa)
	round(pa)
	steady := reqA.Load() - before
	waitFor(t, "b to hold a's data", func() bool {
		return topicData(t, pb.Store)[live.Quotes] == topicData(t, pa.Store)[live.Quotes]
	})
	if reqB.Load() != 0 {
		t.Fatalf("b sent %d requests while it followed", reqB.Load())
	}

	s.pollA.Stop()
	waitFor(t, "b to take the lease", func() bool { return pb.Store.Poller().Here && pb.Store.Poller().Alone == "" })
	round(pb)
	round(pb)
	handOver := reqB.Load()
	t.Logf("two polls of every topic: %d requests by a, %d by b after it took the lease", steady, handOver)
	// b's own tokens (a new poller asks for them) and the reads by id of
	// the payments failed meanwhile are the difference: read afresh, the
	// windows cost some 240 more.
	if handOver > steady+10 {
		t.Fatalf("b's first two polls after the hand-over sent %d requests, two of a's %d: want them to go on, not read afresh", handOver, steady)
	}
	if snap := pb.Store.Snapshot(live.Quotes); snap.Err != nil || snap.Partial != nil {
		t.Fatalf("b's quotes after the hand-over: err %v, partial %v", snap.Err, snap.Partial)
	}
}

// BenchmarkSitePollBytes measures what one poll of every topic costs
// between the site's processes: the bytes and messages the poller
// publishes when the platform moved on by a minute.
func BenchmarkSitePollBytes(b *testing.B) {
	s := startSiteOfTwo(b)
	ctx := context.Background()
	for range 2 { // the first reads, whole windows
		for _, topic := range siteTopics {
			s.pa.Store.FetchNow(ctx, topic)
		}
	}
	before := s.pollA.Stats()
	b.ResetTimer()
	for range b.N {
		s.srv.Clock().Advance(time.Minute)
		for _, topic := range siteTopics {
			s.pa.Store.FetchNow(ctx, topic)
		}
	}
	after := s.pollA.Stats()
	b.ReportMetric(float64(after.Bytes-before.Bytes)/float64(b.N), "bytes/poll")
	b.ReportMetric(float64(after.Messages-before.Messages)/float64(b.N), "msgs/poll")
	b.ReportMetric(float64(before.Bytes), "bytes-first")
}

// waitFor waits, up to 30 s, for ok; the site's beats are seconds apart.
func waitFor(t testing.TB, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Errorf("waited 30 s for %s", what)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
