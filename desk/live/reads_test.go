package live

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"treasury/wire/apierr"
)

// clockAt is a store clock a test moves.
type clockAt struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clockAt) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clockAt) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// TestReadOnceSharedByEverySession: two pages asking the same read get
// one fetch; the typed key gives its answer; another argument is another
// read; data held after `after` is kept, older data is read again.
func TestReadOnceSharedByEverySession(t *testing.T) {
	clk := &clockAt{t: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	s := New(Options{Now: clk.now})
	var calls atomic.Int32
	limits := Read[string, []string]{Name: "limits", Interface: apierr.Wallet,
		Fetch: func(_ context.Context, id string) ([]string, error) {
			calls.Add(1)
			return []string{"limit of " + id}, nil
		}}
	k := Ask(s, limits, "w1")
	if got := Get(s, k); got.Loaded() || got.Err != nil {
		t.Fatalf("before any read: %+v", got)
	}
	if !s.Has(k.Topic()) {
		t.Fatal("a read is a topic of the store")
	}
	opened := clk.now().Add(-30 * time.Second)
	s.ReadNow(context.Background(), k.Topic(), opened)
	if again := Ask(s, limits, "w1"); again != k {
		t.Fatalf("the same argument is another key: %v, %v", again, k)
	}
	s.ReadNow(context.Background(), k.Topic(), opened) // a second session opening the page
	if got := Get(s, k); calls.Load() != 1 || !got.Loaded() || got.Data[0] != "limit of w1" {
		t.Fatalf("%d calls, data %+v", calls.Load(), got)
	}
	other := Ask(s, limits, "w2")
	s.ReadNow(context.Background(), other.Topic(), time.Time{})
	if calls.Load() != 2 || Get(s, other).Data[0] != "limit of w2" {
		t.Fatalf("another argument: %d calls, %+v", calls.Load(), Get(s, other))
	}
	clk.add(time.Minute)
	s.ReadNow(context.Background(), k.Topic(), time.Time{}) // zero: keep what is held
	if calls.Load() != 2 {
		t.Fatalf("a zero after read again: %d calls", calls.Load())
	}
	s.ReadNow(context.Background(), k.Topic(), clk.now()) // r: read it again
	if calls.Load() != 3 {
		t.Fatalf("r did not read again: %d calls", calls.Load())
	}
}

// TestReadInFlightIsNotMadeTwice: a read asked while the same read is in
// flight waits for its answer rather than sending another request.
func TestReadInFlightIsNotMadeTwice(t *testing.T) {
	s := New(Options{})
	release := make(chan struct{})
	var calls atomic.Int32
	slow := Read[int, int]{Name: "slow", Fetch: func(_ context.Context, n int) (int, error) {
		calls.Add(1)
		<-release
		return n * 2, nil
	}}
	k := Ask(s, slow, 21)
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() { s.ReadNow(context.Background(), k.Topic(), time.Time{}) })
	}
	for calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if calls.Load() != 1 || Get(s, k).Data != 42 {
		t.Fatalf("%d calls, data %d", calls.Load(), Get(s, k).Data)
	}
}

// TestReadFailureKeepsDataAndTellsWatchers: a failed read keeps the last
// answer, says the error, and signals the sessions watching it; a read
// cut short by its session leaves the snapshot as it was.
func TestReadFailureKeepsDataAndTellsWatchers(t *testing.T) {
	s := New(Options{})
	fail := atomic.Bool{}
	r := Read[string, string]{Name: "tx", Fetch: func(ctx context.Context, id string) (string, error) {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if fail.Load() {
			return "", errors.New("unavailable")
		}
		return "tx " + id, nil
	}}
	k := Ask(s, r, "a")
	sub := s.Subscribe()
	defer sub.Close()
	sub.Watch(k.Topic())
	s.ReadNow(context.Background(), k.Topic(), time.Time{})
	waitSignal(t, sub)
	fail.Store(true)
	s.ReadNow(context.Background(), k.Topic(), s.Now().Add(time.Hour))
	waitSignal(t, sub)
	got := Get(s, k)
	if got.Data != "tx a" || got.Err == nil || got.Failures != 1 {
		t.Fatalf("after a failure: %+v", got)
	}
	fail.Store(false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.ReadNow(ctx, k.Topic(), s.Now().Add(time.Hour))
	if after := Get(s, k); after.Seq != got.Seq {
		t.Fatalf("a read cut short changed the snapshot: %+v", after)
	}
}

// TestReadsAreBounded: beyond maxReads the least recently asked read that
// nobody watches is dropped; a watched one is kept.
func TestReadsAreBounded(t *testing.T) {
	clk := &clockAt{t: time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)}
	s := New(Options{Now: clk.now})
	r := Read[int, int]{Name: "n", Fetch: func(_ context.Context, n int) (int, error) { return n, nil }}
	first := Ask(s, r, 0)
	sub := s.Subscribe()
	defer sub.Close()
	sub.Watch(first.Topic())
	for i := 1; i <= maxReads+10; i++ {
		clk.add(time.Second)
		Ask(s, r, i)
	}
	s.mu.Lock()
	n := len(s.reads)
	_, kept := s.reads[first.Topic()]
	_, second := s.reads[Topic(fmt.Sprint("n:", 1))]
	s.mu.Unlock()
	if n > maxReads || !kept || second {
		t.Fatalf("%d reads held (at most %d), watched kept %v, oldest unwatched kept %v", n, maxReads, kept, second)
	}
	if err := s.ReadNow(context.Background(), "n:1", time.Time{}).Err; !errors.Is(err, ErrNoRead) {
		t.Fatalf("a dropped read: %v", err)
	}
}
