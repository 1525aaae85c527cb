package platform_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/history"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/desk/site"
	"treasury/desk/site/sitetest"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
)

// openIn opens and starts a platform on srv keeping its history in dir.
func openIn(t *testing.T, srv *sandbox.Server, dir string) *platform.Platform {
	t.Helper()
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, BackfillBudget: time.Minute,
		HistoryDir: dir, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background())
	return p
}

// TestHistorySurvivesRestart: what a dashboard polled is in the charts of
// the next one on the same state directory, from before the next one's
// first poll; a second dashboard beside it reads the same history.
func TestHistorySurvivesRestart(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	dir := t.TempDir()
	ctx := context.Background()
	p := openIn(t, srv, dir)
	for _, topic := range []live.Topic{live.Quotes, live.LiquidityBalances, live.PaymentBalances, live.Payments, live.Ledger} {
		if s := p.Store.FetchNow(ctx, topic); s.Err != nil {
			t.Fatalf("%s: %v", topic, s.Err)
		}
	}
	for range 10 { // the first polls read the quote window back
		if qs := live.Get(p.Store, live.QuotesKey).Data; qs[len(qs)-1].CreatedAt.Before(srv.Clock().Now().Add(-25 * time.Minute)) {
			break
		}
		p.Store.FetchNow(ctx, live.Quotes)
	}
	pair := strings.TrimPrefix(p.Store.Series(live.SeriesRate)[0], live.SeriesRate)
	p.Close() // the recorder writes what it holds

	file, err := history.Open(filepath.Join(dir, history.FileName(config.SandboxProfile)), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	last, err := file.Newest(ctx)
	file.Close()
	if err != nil || last.Rates.IsZero() || last.Balances.IsZero() || last.Payments.IsZero() {
		t.Fatalf("after a run the file holds %+v (%v): rates, balances and payments expected", last, err)
	}

	now := srv.Clock().Now()
	q := openIn(t, srv, dir)
	defer q.Close()
	old := q.Store.HistorySince(live.SeriesRate+pair, now.Add(-24*time.Hour))
	if len(old) < 20 || !old[0].At.Before(now.Add(-20*time.Minute)) {
		t.Fatalf("after a restart the 24 h chart of %s holds %d points from %v: the last run's quote window expected", pair, len(old), old)
	}
	// The week is read from the file, a point per 5 minutes (7 d over
	// live.ArchivePoints).
	// A bucket is shown at its last minute: the first is within a
	// bucket of the day's first point.
	bucket := 7 * 24 * time.Hour / live.ArchivePoints
	if week := q.Store.HistorySince(live.SeriesRate+pair, now.Add(-7*24*time.Hour)); len(week) < 4 || week[0].At.After(old[0].At.Add(bucket)) {
		t.Fatalf("the 7 d chart holds %d points from %v, the day's %d from %v", len(week), week, len(old), old[0].At)
	}
	if len(q.Store.Series(live.SeriesPaymentsBalance)) == 0 || len(q.Store.Series(live.SeriesLiquidityBalance)) == 0 {
		t.Fatal("the balances' history did not survive the restart")
	}

	r := openIn(t, srv, dir) // a second dashboard on the same directory
	defer r.Close()
	// What the first read, or more: the writer's backfill of the quotes'
	// day may have added older minutes since.
	same := r.Store.HistorySince(live.SeriesRate+pair, now.Add(-24*time.Hour))
	if len(same) == 0 || same[0].At.After(old[0].At) {
		t.Fatalf("a second process reads %d points from %v, the first %v", len(same), same, old[0].At)
	}
	for _, a := range r.Store.Alerts() {
		if a.Code == "HISTORY" {
			t.Fatalf("a reader raised %q", a.Title)
		}
	}
}

// TestDamagedHistoryIsReported: garbage in the history file is moved
// aside, an alert says so, and history is recorded again.
func TestDamagedHistoryIsReported(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	dir := t.TempDir()
	path := filepath.Join(dir, history.FileName(config.SandboxProfile))
	if err := os.WriteFile(path, []byte(strings.Repeat("garbage ", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	p := openIn(t, srv, dir)
	var found string
	for _, a := range p.Store.Alerts() {
		if a.Code == "HISTORY" {
			found = a.Title
		}
	}
	if !strings.Contains(found, "moved aside to "+path+".damaged-") {
		t.Fatalf("alerts say %q", found)
	}
	if s := p.Store.FetchNow(context.Background(), live.Quotes); s.Err != nil {
		t.Fatal(s.Err)
	}
	p.Close()
	file, err := history.Open(path, history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if file.Notice != "" {
		t.Fatalf("the fresh file is damaged too: %s", file.Notice)
	}
	if last, _ := file.Newest(context.Background()); last.Rates.IsZero() {
		t.Fatal("no rates recorded in the fresh file")
	}
}

// TestHistoryWriterRolePasses: two processes on one state directory (a
// dashboard beside treasury serve); the first writes the history, the
// second reads it. When the first ends, the second takes the role over
// within its check and records: what it polled is in the file after it
// ends too.
func TestHistoryWriterRolePasses(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	dir := t.TempDir()
	ctx := context.Background()
	first := openIn(t, srv, dir)
	var logged syncBuffer
	second, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, BackfillBudget: time.Minute,
		HistoryDir: dir, History: history.Options{WriterCheck: 20 * time.Millisecond}, Log: slog.New(slog.NewTextHandler(&logged, nil)),
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	second.Start(ctx)
	for _, topic := range []live.Topic{live.Quotes, live.LiquidityBalances} {
		second.Store.FetchNow(ctx, topic)
	}
	if !strings.Contains(logged.String(), "another process writes the file") {
		t.Fatalf("the second process does not say it reads:\n%s", logged.String())
	}
	first.Close()
	deadline := time.Now().Add(10 * time.Second) // a hang guard, not a speed
	for !strings.Contains(logged.String(), "this one writes it now") {
		if time.Now().After(deadline) {
			t.Fatalf("the role did not pass:\n%s", logged.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Ten minutes later, on the platform's clock, the second polls again:
	// only it can have written those minutes.
	srv.AdvanceClock(10 * time.Minute)
	second.Store.FetchNow(ctx, live.LiquidityBalances)
	second.Close() // the recorder writes what it holds
	file, err := history.Open(filepath.Join(dir, history.FileName(config.SandboxProfile)), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if last, err := file.Newest(ctx); err != nil || last.Balances.Before(srv.Clock().Now().Add(-time.Minute)) {
		t.Fatalf("after the second process ended the file holds %+v (%v), want the balances of %v", last, err, srv.Clock().Now())
	}
}

// syncBuffer is a buffer a logger writes from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestFollowersChartWhatThePollerCharts: two processes of a site, each
// with its own history file (two bastions): the poller reads the
// platform's past back on its first start; the follower, which reads
// nothing of it from the platform, charts it too (its memory and its
// file hold the rates of minutes before either polled).
func TestFollowersChartWhatThePollerCharts(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	addr := sitetest.FreeAddrs(t, 1)[0]
	nodeA := sitetest.NodeAt(t, "a", addr)
	nodeB, err := site.Start(site.Options{Name: "a", Node: "b", Listen: addr, Connect: true,
		User: config.DefaultClusterUser, Password: sitetest.Password, Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nodeB.Close)
	dirA, dirB := t.TempDir(), t.TempDir()
	open := func(dir string, node *site.Site, compete bool) *platform.Platform {
		p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, BackfillBudget: time.Minute, HistoryDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		pl, err := node.SharePolls(p.Store, compete)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pl.Stop)
		p.SharePastWith(node)
		return p
	}
	pa, pb := open(dirA, nodeA, true), open(dirB, nodeB, false)
	waitFor(t, "a to take the lease", func() bool { return pa.Store.Poller().Here && pb.Store.Poller().Node == "a" })
	ctx := context.Background()
	pb.Start(ctx)
	defer pb.Close()
	pa.Start(ctx)
	defer pa.Close()
	pa.Store.FetchNow(ctx, live.Quotes) // the quote window: the backfill reads what is before it

	// An hour ago is before the quote window (30 minutes) either process
	// polls: only the backfill has it.
	now := srv.Clock().Now()
	old := func(p *platform.Platform) bool {
		for _, s := range p.Store.Series(live.SeriesRate) {
			if pts := p.Store.HistorySince(s, now.Add(-24*time.Hour)); len(pts) > 0 && pts[0].At.Before(now.Add(-time.Hour)) {
				return true
			}
		}
		return false
	}
	waitFor(t, "the poller to read an hour back", func() bool { return old(pa) })
	waitFor(t, "the follower to chart the poller's past", func() bool { return old(pb) })
	if t.Failed() {
		return
	}
	pb.Close()
	file, err := history.Open(filepath.Join(dirB, history.FileName(config.SandboxProfile)), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	pair := strings.TrimPrefix(pb.Store.Series(live.SeriesRate)[0], live.SeriesRate)
	pts, err := file.Points(ctx, live.SeriesRate+pair, now.Add(-24*time.Hour), now.Add(-time.Hour), 100)
	if err != nil || len(pts) == 0 {
		t.Fatalf("the follower's file holds %d rates of %s from before an hour ago (%v)", len(pts), pair, err)
	}
}

// TestAPollerLaterReadsThePast: a bastion that did not poll when it
// started (another held the lease, and shared nothing of the past) reads
// the platform's past once the lease comes to it.
func TestAPollerLaterReadsThePast(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	addr := sitetest.FreeAddrs(t, 1)[0]
	nodeA := sitetest.NodeAt(t, "a", addr)
	nodeB, err := site.Start(site.Options{Name: "a", Node: "b", Listen: addr, Connect: true,
		User: config.DefaultClusterUser, Password: sitetest.Password, Replicas: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nodeB.Close)
	open := func(node *site.Site) (*platform.Platform, *site.Polling) {
		p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, BackfillBudget: time.Minute, HistoryDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		pl, err := node.SharePolls(p.Store, true)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(pl.Stop)
		return p, pl
	}
	pa, pollA := open(nodeA)
	pb, _ := open(nodeB)
	pb.SharePastWith(nodeB)
	waitFor(t, "a to take the lease", func() bool { return pa.Store.Poller().Here && pb.Store.Poller().Node == "a" })
	ctx := context.Background()
	pb.Start(ctx)
	defer pb.Close()
	now := srv.Clock().Now()
	pollA.Stop() // a hands the lease on
	pa.Close()
	waitFor(t, "b to poll", func() bool { return pb.Store.Poller().Here })
	waitFor(t, "b to read an hour back", func() bool {
		for _, s := range pb.Store.Series(live.SeriesRate) {
			if pts := pb.Store.HistorySince(s, now.Add(-24*time.Hour)); len(pts) > 0 && pts[0].At.Before(now.Add(-time.Hour)) {
				return true
			}
		}
		return false
	})
}
