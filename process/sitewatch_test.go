package process

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/desk/site"
	"treasury/desk/site/sitetest"
	"treasury/kit/fulldisk"
)

// looks is a site whose weaknesses the test sets.
type looks struct {
	mu   sync.Mutex
	weak []site.Weakness
}

func (l *looks) Weak(context.Context) []site.Weakness {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]site.Weakness(nil), l.weak...)
}
func (l *looks) Changed() <-chan struct{} { return make(chan struct{}) }
func (l *looks) Node() string             { return "b1" }
func (l *looks) set(w ...site.Weakness) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.weak = w
}

// TestTheSiteWatchRaisesWhatMakesTheSiteWeak: each weakness the site
// names is an alert with the header's banner (SITE FORMING while the
// site forms, SITE WEAK after), raised once while it holds, changed when
// its words change, high when the record cannot take a line or this
// node is the one refused, and withdrawn when it clears.
func TestTheSiteWatchRaisesWhatMakesTheSiteWeak(t *testing.T) {
	st := live.New(live.Options{})
	l := &looks{}
	w := &siteWatch{site: l, alerts: st, log: slog.New(slog.NewTextHandler(io.Discard, nil)), raised: map[string]string{}}
	ctx := context.Background()
	alerts := func() map[string]live.Alert {
		out := map[string]live.Alert{}
		for _, a := range st.Alerts() {
			out[a.Key] = a
		}
		return out
	}

	l.set(site.Weakness{Key: "site:forming", Forming: true, Title: "The site is forming: 1 of 3 nodes heard (b1); actions wait for its record"})
	w.look(ctx)
	if a := alerts()["site:forming"]; a.Banner != "SITE FORMING" || a.Severity != live.Medium || !strings.Contains(a.Title, "forming") {
		t.Fatalf("forming: %+v", alerts())
	}

	behind := site.Weakness{Key: "site:node:b3", Title: "b3 16 lines behind: the site cannot lose another node", Guidance: "bring it back"}
	refused := site.Weakness{Key: "site:refused:b1", Title: "b1 is refused by the site for its credentials (authorization)"}
	l.set(behind, refused)
	w.look(ctx)
	as := alerts()
	if _, ok := as["site:forming"]; ok || len(as) != 2 {
		t.Fatalf("formed, b3 behind, b1 refused: %+v", as)
	}
	if a := as["site:node:b3"]; a.Banner != "SITE WEAK" || a.Title != behind.Title || a.Guidance != "bring it back" || a.Severity != live.Medium {
		t.Errorf("b3 behind: %+v", a)
	}
	if a := as["site:refused:b1"]; a.Banner != "SITE WEAK" || a.Severity != live.High {
		t.Errorf("this node refused: %+v", a)
	}

	l.set(site.Weakness{Key: "site:node:b3", Title: "b3 offline: the site's record cannot take a line", Grave: true})
	w.look(ctx)
	as = alerts()
	if a := as["site:node:b3"]; len(as) != 1 || a.Severity != live.High || !strings.Contains(a.Title, "cannot take a line") {
		t.Errorf("b3 offline: %+v", as)
	}

	l.set()
	w.look(ctx)
	if as := alerts(); len(as) != 0 {
		t.Errorf("whole again: %+v", as)
	}
}

// TestAFullDiskIsAnAlertOnEveryNode: three nodes, the third's store on
// a disk that fills while the record grows: within 15 s every node's
// site watch raises SITE WEAK naming it; once space returns and it has
// caught up, every node's alert is withdrawn.
func TestAFullDiskIsAnAlertOnEveryNode(t *testing.T) {
	disk, err := fulldisk.Mount(t.TempDir(), 8<<20)
	if err != nil {
		t.Skipf("no tmpfs to fill: %v", err)
	}
	t.Cleanup(func() { disk.Unmount() })
	nodes := sitetest.Nodes(t, 3, func(i int, o *site.Options) {
		if i == 2 {
			o.StoreDir = filepath.Join(disk.Dir, "nats")
		}
	})
	stores := make([]*live.Store, 3)
	for i, n := range nodes {
		stores[i] = live.New(live.Options{})
		w := &siteWatch{site: n, alerts: stores[i], log: slog.New(slog.NewTextHandler(io.Discard, nil)), raised: map[string]string{}}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); w.run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
	}
	l, err := audit.Open(t.TempDir(), audit.Options{Host: "node-0", Replica: nodes[0].Record()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	appendSoon(t, l, sweep("w0"))
	named := func(s *live.Store) bool {
		for _, a := range s.Alerts() {
			if a.Banner == "SITE WEAK" && strings.Contains(a.Title, "node-2 JetStream off: out of disk space") {
				return true
			}
		}
		return false
	}
	if err := disk.Fill(); err != nil {
		t.Fatal(err)
	}
	full := time.Now()
	for i := range 16 { // the full node may have led the record: the others elect another
		appendSoon(t, l, sweep(fmt.Sprint("w", i+1)))
	}
	for i, s := range stores {
		for !named(s) {
			if time.Since(full) > 15*time.Second {
				t.Fatalf("node-%d's alerts 15 s after node-2's disk filled: %+v", i, s.Alerts())
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	t.Logf("every node's alerts name node-2 %s after its disk filled", time.Since(full).Round(100*time.Millisecond))
	if err := disk.Free(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(40 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		clear := true
		for _, s := range stores {
			clear = clear && len(s.Alerts()) == 0
		}
		if clear {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the alerts after space returned: %+v", stores[0].Alerts())
		}
	}
	h, err := nodes[0].Health(context.Background())
	if err != nil || h.Lag() != 0 || !h.Healthy() {
		t.Fatalf("the record when the alerts cleared: %+v %v", h, err)
	}
}

func sweep(id string) audit.Record {
	return audit.Record{Who: audit.Who{Via: audit.ViaLocal, User: "ana"}, Action: "sweep", Target: audit.Target{Kind: "wallet", ID: id},
		Outcome: audit.OutcomeAttempt, MutationID: "key-" + id}
}

// appendSoon appends r, trying again while the site cannot take it (it
// forms, or elects another leader of its record).
func appendSoon(t *testing.T, l *audit.Log, r audit.Record) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		_, err := l.Append(r)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the site never took the line: %v", err)
		}
	}
}
