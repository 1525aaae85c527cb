package parallel

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// bound counts the calls in flight and remembers the most at once.
type bound struct {
	mu       sync.Mutex
	now, max int
}

func (b *bound) in() {
	b.mu.Lock()
	b.now++
	b.max = max(b.max, b.now)
	b.mu.Unlock()
}

func (b *bound) out() {
	b.mu.Lock()
	b.now--
	b.mu.Unlock()
}

func TestEachCallsEveryIndexWithinTheLimit(t *testing.T) {
	var b bound
	got := make([]int, 50)
	Each(len(got), 3, func(i int) {
		b.in()
		defer b.out()
		time.Sleep(time.Millisecond)
		got[i] = i + 1
	})
	for i, v := range got {
		if v != i+1 {
			t.Fatalf("index %d: %d", i, v)
		}
	}
	if b.max > 3 || b.max < 2 {
		t.Errorf("at most %d at once, want 2 or 3 (limit 3)", b.max)
	}
}

func TestInOrderHandsResultsInOrderAndHoldsPlacesUntilUsed(t *testing.T) {
	var b bound // a call is in from its start until its result is used
	var used []int
	all, err := InOrder(context.Background(), 4, 10, 40, func(_ context.Context, i int) int {
		b.in()
		time.Sleep(time.Duration(40-i) * 50 * time.Microsecond) // later ones finish first
		return i
	}, func(i int) bool {
		used = append(used, i)
		b.out()
		return true
	})
	if !all || err != nil {
		t.Fatalf("all %v, err %v", all, err)
	}
	for k, i := range used {
		if i != 10+k {
			t.Fatalf("used %v: not in order", used)
		}
	}
	if len(used) != 30 || b.max > 4 {
		t.Errorf("%d used, at most %d held at once (limit 4)", len(used), b.max)
	}
}

func TestInOrderStopsWhenUseSaysSoAndCancelsTheRest(t *testing.T) {
	var started, cancelled atomic.Int32
	all, err := InOrder(context.Background(), 3, 0, 1000, func(ctx context.Context, i int) int {
		started.Add(1)
		if i > 0 {
			<-ctx.Done()
			cancelled.Add(1)
		}
		return i
	}, func(i int) bool { return false })
	if all || err != nil {
		t.Fatalf("all %v err %v, want false, nil", all, err)
	}
	if s, c := started.Load(), cancelled.Load(); s > 3 || c != s-1 {
		t.Errorf("%d started, %d cancelled: want at most 3 started, every one after the first cancelled", s, c)
	}
}

func TestInOrderEndsWithTheCallersContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var used []int
	all, err := InOrder(ctx, 2, 0, 1000, func(ctx context.Context, i int) int {
		if i == 1 {
			cancel()
		}
		if i > 0 {
			<-ctx.Done()
		}
		return i
	}, func(i int) bool { used = append(used, i); return true })
	if all || !errors.Is(err, context.Canceled) {
		t.Fatalf("all %v err %v, want false, context.Canceled", all, err)
	}
	// A result done as the context ended may still be used (the two are
	// ready at once), never one out of order, never the thousand.
	for k, i := range used {
		if i != k {
			t.Fatalf("used %v: not in order", used)
		}
	}
	if len(used) > 4 {
		t.Errorf("%d results used after the context ended", len(used))
	}
}

func TestInOrderWithoutALimitRunsEveryCallAtOnce(t *testing.T) {
	const n = 8
	var ready sync.WaitGroup
	ready.Add(n)
	all, err := InOrder(context.Background(), 0, 0, n, func(_ context.Context, i int) int {
		ready.Done()
		ready.Wait() // returns only once all n run together
		return i
	}, func(int) bool { return true })
	if !all || err != nil {
		t.Fatalf("all %v err %v", all, err)
	}
}
