package ui

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestDrawingsDrawOncePerVersion: sessions asking at once for one chart at
// one version, size and profile get one drawing; a new version, another
// size or profile is drawn again; the set stays bounded.
func TestDrawingsDrawOncePerVersion(t *testing.T) {
	d := NewDrawings()
	var draws atomic.Int32
	draw := func(s string) func() string {
		return func() string { draws.Add(1); return s }
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := d.Get("q", 1, 80, 10, "dark3", draw("v1")); got != "v1" {
				t.Errorf("got %q", got)
			}
		}()
	}
	wg.Wait()
	if n := draws.Load(); n != 1 {
		t.Fatalf("20 sessions drew %d times", n)
	}
	if got := d.Get("q", 2, 80, 10, "dark3", draw("v2")); got != "v2" || draws.Load() != 2 {
		t.Errorf("a new version: %q after %d draws", got, draws.Load())
	}
	d.Get("q", 2, 120, 10, "dark3", draw("wide"))
	d.Get("q", 2, 80, 10, "dark0", draw("plain"))
	if draws.Load() != 4 || d.Len() != 3 {
		t.Errorf("%d draws, %d kept; want 4 and 3 (the old version replaced)", draws.Load(), d.Len())
	}
	for i := range 5 * maxDrawings {
		d.Get(fmt.Sprint("c", i), 1, 80, 10, "dark3", draw("x"))
	}
	if n := d.Len(); n > maxDrawings {
		t.Errorf("%d drawings kept, at most %d", n, maxDrawings)
	}
}

// sweptSet is a shared set that sweeps itself.
type sweptSet struct{ swept int }

func (s *sweptSet) Sweep(time.Time, time.Duration) { s.swept++ }

// TestSweepDropsWhatNobodyAskedFor: a drawing asked for within idle stays;
// one not asked for since is dropped, and the shared sets are swept too.
func TestSweepDropsWhatNobodyAskedFor(t *testing.T) {
	d := NewDrawings()
	d.Get("kept", 1, 80, 10, "dark3", func() string { return "k" })
	ctx := &Context{Shared: &Shared{Drawings: d}}
	set := SharedOf(ctx, func() *sweptSet { return &sweptSet{} })
	if n := d.Sweep(time.Now(), time.Minute); n != 0 || d.Len() != 1 {
		t.Fatalf("swept %d, %d kept, right after it was asked for", n, d.Len())
	}
	if n := d.Sweep(time.Now().Add(2*time.Minute), time.Minute); n != 1 || d.Len() != 0 {
		t.Fatalf("swept %d, %d kept, two idle minutes later", n, d.Len())
	}
	if set.swept != 2 {
		t.Fatalf("the shared set was swept %d times, want 2", set.swept)
	}
}
