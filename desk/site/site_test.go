package site

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"treasury/desk/audit"
	"treasury/wire/webhook"
)

// freePorts returns n loopback addresses nothing listens on.
func freePorts(t testing.TB, n int) []string {
	t.Helper()
	var out []string
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().String())
	}
	for _, l := range ls {
		l.Close()
	}
	return out
}

// startSite starts n embedded nodes routed to one another, each with its
// own store, and returns them connected.
func startSite(t *testing.T, n int) []*Site {
	t.Helper()
	return startSiteWith(t, n, func(int, *Options) {})
}

// startSiteWith is startSite with each node's options changed by set.
func startSiteWith(t *testing.T, n int, set func(i int, o *Options)) []*Site {
	t.Helper()
	ports := freePorts(t, 2*n)
	clients, routes := ports[:n], ports[n:]
	sites := make([]*Site, n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			var others []string
			for j, r := range routes {
				if j != i {
					others = append(others, r)
				}
			}
			o := Options{Name: "test-site", Node: fmt.Sprint("bastion-", i), Listen: clients[i],
				ClusterListen: routes[i], Routes: others, User: "treasury", Password: "site-secret",
				Replicas: min(n, 3), StoreDir: filepath.Join(t.TempDir(), "nats")}
			set(i, &o)
			s, err := Start(o)
			sites[i] = s
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, s := range sites {
			if s != nil {
				s.Close()
			}
		}
	})
	return sites
}

func attempt(id string) audit.Record {
	return audit.Record{Who: audit.Who{Via: audit.ViaLocal, User: "ana"}, Profile: "site", Environment: "test",
		Action: "sweep", Target: audit.Target{Kind: "wallet", ID: id}, Outcome: audit.OutcomeAttempt, MutationID: "key-" + id}
}

// appendWhenReady appends r, trying again while the site forms (its
// stream cannot be made before enough nodes are up and a leader is
// elected): the refusals say why, and nothing is written locally.
func appendWhenReady(t *testing.T, l *audit.Log, r audit.Record) audit.Record {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := l.Append(r)
		if err == nil {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the site never took the append: %v", err)
		}
		if s := l.State(); s.LastSeq != 0 && got.Seq == 0 && !strings.Contains(err.Error(), "cannot be reached") {
			t.Fatalf("append refused for another reason: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestThreeBastionsKeepOneRecord: three embedded nodes form a site; an
// attempt appended through one is read by the others before they decide,
// their local copies are one chain, and with one node gone the other two
// go on appending.
func TestThreeBastionsKeepOneRecord(t *testing.T) {
	sites := startSite(t, 3)
	logs := make([]*audit.Log, 3)
	for i, s := range sites {
		l, err := audit.Open(t.TempDir(), audit.Options{Host: s.Node(), Replica: s.Record()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		logs[i] = l
	}
	first := appendWhenReady(t, logs[0], attempt("w1"))
	var seen, seenAtDecision []string
	if err := logs[1].Follow(func(x audit.Record) { seen = append(seen, x.Host+":"+x.MutationID) }); err != nil {
		t.Fatal(err)
	}
	r, err := logs[1].AppendDecided(func() (audit.Record, error) {
		seenAtDecision = append([]string(nil), seen...)
		return attempt("w2"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if first.Seq != 1 || r.Seq != 2 || strings.Join(seenAtDecision, ",") != "bastion-0:key-w1" {
		t.Fatalf("bastion-1 appended seq %d having seen %v", r.Seq, seenAtDecision)
	}
	// A replica may be a line behind for a moment: healthy once current.
	var h Health
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		h, err = sites[1].Health(context.Background())
		if err == nil && h.Healthy() || time.Now().After(deadline) {
			break
		}
	}
	if err != nil || h.Lines != 2 || h.Leader == "" || len(h.Replicas) != 2 || !h.Healthy() {
		t.Fatalf("health with three nodes: %+v %v", h, err)
	}
	sites[0].Close()
	sites[0] = nil
	third := appendWhenReady(t, logs[2], attempt("w3"))
	if third.Seq != 3 {
		t.Fatalf("bastion-2 appended seq %d with bastion-0 gone", third.Seq)
	}
	if err := logs[1].Refresh(); err != nil {
		t.Fatal(err)
	}
	b1, _ := os.ReadFile(logs[1].Path())
	b2, _ := os.ReadFile(logs[2].Path())
	if string(b1) != string(b2) || strings.Count(string(b1), "\n") != 3 {
		t.Fatalf("the copies of the surviving bastions differ or miss lines:\n%s\n---\n%s", b1, b2)
	}
	if _, err := audit.VerifyFile(logs[2].Path()); err != nil {
		t.Fatalf("the site's chain: %v", err)
	}
}

// TestANewBastionCopiesTheWholeRecord: a host joining a site whose
// record holds thousands of lines copies them all, in order, in batches.
func TestANewBastionCopiesTheWholeRecord(t *testing.T) {
	s := oneNode(t)
	w, err := audit.Open(t.TempDir(), audit.Options{Host: "writer", Replica: s.Record()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	const n = 2500
	for i := range n {
		if _, err := w.Append(attempt(fmt.Sprint("w", i))); err != nil {
			t.Fatal(err)
		}
	}
	l, err := audit.Open(t.TempDir(), audit.Options{Host: "new", Replica: s.Record()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Pull(); err != nil || l.State().LastSeq != n {
		t.Fatalf("the new host copied to seq %d: %v", l.State().LastSeq, err)
	}
	a, _ := os.ReadFile(w.Path())
	b, _ := os.ReadFile(l.Path())
	if string(a) != string(b) {
		t.Fatal("the new host's copy differs from the writer's")
	}
}

// oneNode starts a one-node site, closed when the test ends.
func oneNode(tb testing.TB) *Site {
	tb.Helper()
	s, err := Start(Options{Name: "one", Node: "one", Listen: freePorts(tb, 1)[0], User: "treasury", Password: "pw", Replicas: 1,
		StoreDir: filepath.Join(tb.TempDir(), "nats")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// TestAProcessIsAliveWhileItSaysSo: a process that registers on one node
// is alive to another node's record; once it stops, ended; a process never
// heard of is unknown.
func TestAProcessIsAliveWhileItSaysSo(t *testing.T) {
	sites := startSite(t, 2)
	stop := sites[0].Record().Register("proc-a")
	other := sites[1].Record()
	waitUntil := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal(what)
			}
		}
	}
	waitUntil("the running process never became alive to the other node", func() bool { a, _ := other.Alive("proc-a"); return a })
	stop()
	waitUntil("the stopped process never ended to the other node", func() bool { a, k := other.Alive("proc-a"); return !a && k })
	if a, k := other.Alive("never"); a || k {
		t.Fatalf("a process never heard of: alive %v, known %v", a, k)
	}
}

// TestANotificationReachesEveryBastionOnce: a notification one bastion
// received reaches the others once, even when the platform posts it
// twice, and not the bastion that received it.
func TestANotificationReachesEveryBastionOnce(t *testing.T) {
	sites := startSite(t, 2)
	var mu sync.Mutex
	got := map[int][]string{}
	for i, s := range sites {
		stop := s.FollowEvents(func(evs []webhook.Event) {
			mu.Lock()
			defer mu.Unlock()
			for _, ev := range evs {
				got[i] = append(got[i], ev.ID)
			}
		})
		t.Cleanup(stop)
	}
	ev := webhook.Event{ID: "evt-1", EventType: "PAYMENT_STATE_TRANSITION", EventData: webhook.EventData{PaymentID: "p1"}}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		err := sites[0].ShareEvents([]webhook.Event{ev})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
	}
	if err := sites[0].ShareEvents([]webhook.Event{ev}); err != nil { // the platform posted it again
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		mu.Lock()
		n := len(got[1])
		mu.Unlock()
		if n > 0 || time.Now().After(deadline) {
			break
		}
	}
	time.Sleep(500 * time.Millisecond) // room for a second delivery, if there were one
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got[1], ",") != "evt-1" || len(got[0]) != 0 {
		t.Fatalf("the other bastion got %v, the receiving one %v; want evt-1 once on the other only", got[1], got[0])
	}
}

// TestTheNodeSaysWhatItRefuses: a client with a wrong password is
// refused, and the node's log says so.
func TestTheNodeSaysWhatItRefuses(t *testing.T) {
	var buf syncBuffer
	addr := freePorts(t, 1)[0]
	s, err := Start(Options{Name: "one", Node: "one", Listen: addr, User: "treasury", Password: "right", Replicas: 1,
		StoreDir: filepath.Join(t.TempDir(), "nats"), Log: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := nats.Connect("nats://"+addr, nats.UserInfo("treasury", "wrong")); err == nil {
		t.Fatal("a wrong password connected")
	}
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(buf.String(), "site: node:"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the node's log: %q", buf.String())
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestATakenPortIsSaidAtOnce: a node whose address is taken says so, and
// by whom, before it starts.
func TestATakenPortIsSaidAtOnce(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, err = Start(Options{Name: "one", Node: "one", Listen: l.Addr().String(), User: "treasury", Password: "pw", Replicas: 1,
		StoreDir: filepath.Join(t.TempDir(), "nats")})
	if err == nil || !strings.Contains(err.Error(), "is taken by") { // not "did not listen within", after the start timeout
		t.Fatalf("a taken port: %v", err)
	}
}

// TestTheNodeLogSaysARepeatOnce: a message the node repeats (a route to
// a bastion that is down, tried every second) is written once a minute,
// not every time.
func TestTheNodeLogSaysARepeatOnce(t *testing.T) {
	var buf syncBuffer
	l := newNodeLog(slog.New(slog.NewTextHandler(&buf, nil)), "a", nil)
	for i := range 50 {
		l.Errorf("Error trying to connect to route (attempt %d): %v", i, "connection refused")
	}
	l.Warnf("another message")
	if n := strings.Count(buf.String(), "connect to route"); n != 1 || !strings.Contains(buf.String(), "another message") {
		t.Fatalf("the node's log:\n%s", buf.String())
	}
}
