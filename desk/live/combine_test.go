package live

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"treasury/wire/apierr"
)

// sum is a combination's value in the tests: what it saw of each input.
type sum struct {
	A, B     int
	Loaded   int
	Failed   int
	Builds   int
	PrevSeen int
}

func combineStore(t *testing.T, a, b func() (int, error)) (*Store, Key[int], Key[int]) {
	t.Helper()
	ka, kb := KeyOf[int]("a"), KeyOf[int]("b")
	s := New(Options{Inline: true, Feeds: []Feed{
		ValueFeed(ka, func(context.Context) (int, error) { return a() }, FeedOptions[int, int]{Interface: apierr.Liquidity, Interval: time.Hour}),
		ValueFeed(kb, func(context.Context) (int, error) { return b() }, FeedOptions[int, int]{Interface: apierr.Payments, Interval: time.Hour}),
	}})
	return s, ka, kb
}

func sumOf(ka, kb Key[int]) func(prev sum, in Inputs) sum {
	return func(prev sum, in Inputs) sum {
		out := sum{Builds: prev.Builds + 1, PrevSeen: prev.A + prev.B}
		for _, k := range []Key[int]{ka, kb} {
			sn := Input(in, k)
			switch {
			case sn.Loaded():
				out.Loaded++
			case sn.Err != nil:
				out.Failed++
			}
		}
		out.A, out.B = Input(in, ka).Data, Input(in, kb).Data
		return out
	}
}

// TestCombineBuildsFromEveryInputOnEachChange: a combination is built at
// once (its inputs loading), and again when either input changes, seeing
// each input's state; an unchanged input does not rebuild it.
func TestCombineBuildsFromEveryInputOnEachChange(t *testing.T) {
	var av, bv atomic.Int32
	av.Store(1)
	bv.Store(10)
	var bErr atomic.Bool
	s, ka, kb := combineStore(t, func() (int, error) { return int(av.Load()), nil }, func() (int, error) {
		if bErr.Load() {
			return 0, errors.New("down")
		}
		return int(bv.Load()), nil
	})
	k := Combine(s, "sum", sumOf(ka, kb), CombineOptions[sum]{}, ka.Topic(), kb.Topic())
	if again := Combine(s, "sum", func(sum, Inputs) sum { return sum{A: -1} }, CombineOptions[sum]{}, ka.Topic(), kb.Topic()); again != k {
		t.Fatal("a second registration made another key")
	}
	got := Get(s, k)
	if got.Loaded() || got.Data.Builds != 1 || got.Data.Loaded != 0 {
		t.Fatalf("before any answer: %+v loaded=%v", got.Data, got.Loaded())
	}
	bErr.Store(true)
	s.FetchNow(context.Background(), kb.Topic())
	if got = Get(s, k); got.Data.Failed != 1 || got.Loaded() {
		t.Fatalf("after b failed: %+v loaded=%v", got.Data, got.Loaded())
	}
	s.FetchNow(context.Background(), ka.Topic())
	got = Get(s, k)
	if !got.Loaded() || got.Data.A != 1 || got.Data.Loaded != 1 || got.Data.Failed != 1 {
		t.Fatalf("after a answered: %+v loaded=%v", got.Data, got.Loaded())
	}
	if want := s.Snapshot(ka.Topic()).FetchedAt; !got.FetchedAt.Equal(want) {
		t.Fatalf("fetched %v, want the newest input's %v", got.FetchedAt, want)
	}
	bErr.Store(false)
	s.FetchNow(context.Background(), kb.Topic())
	got = Get(s, k)
	if got.Data.A+got.Data.B != 11 || got.Data.Loaded != 2 || got.Data.PrevSeen != 1 {
		t.Fatalf("after both answered: %+v", got.Data)
	}
	builds := got.Data.Builds
	s.FetchNow(context.Background(), ka.Topic()) // the same value: no change
	if Get(s, k).Data.Builds != builds {
		t.Fatal("an unchanged input rebuilt the combination")
	}
	av.Store(2)
	s.FetchNow(context.Background(), ka.Topic())
	if got = Get(s, k); got.Data.A != 2 || got.Data.Builds != builds+1 {
		t.Fatalf("after a changed: %+v", got.Data)
	}
}

// TestCombineOfADerivation: a combination may read a derivation, and is
// built again when the derivation is.
func TestCombineOfADerivation(t *testing.T) {
	var av atomic.Int32
	av.Store(3)
	s, ka, kb := combineStore(t, func() (int, error) { return int(av.Load()), nil }, func() (int, error) { return 5, nil })
	double := Derive(s, ka, "double", func(_ int, in Snap[int]) int { return 2 * in.Data })
	k := Combine(s, "sum", sumOf(double, kb), CombineOptions[sum]{}, double.Topic(), kb.Topic())
	s.FetchNow(context.Background(), ka.Topic())
	s.FetchNow(context.Background(), kb.Topic())
	if got := Get(s, k).Data; got.A != 6 || got.B != 5 {
		t.Fatalf("got %+v", got)
	}
	av.Store(4)
	s.FetchNow(context.Background(), ka.Topic())
	if got := Get(s, k).Data; got.A != 8 {
		t.Fatalf("after the source of the derivation changed: %+v", got)
	}
}

// TestWatchingACombinationPollsItsSources: a subscriber watching a
// combination makes the store poll each of its sources (through a
// derivation too), and stops when it closes.
func TestWatchingACombinationPollsItsSources(t *testing.T) {
	var a, b atomic.Int32
	s, ka, kb := combineStore(t, func() (int, error) { return int(a.Add(1)), nil }, func() (int, error) { return int(b.Add(1)), nil })
	double := Derive(s, ka, "double", func(_ int, in Snap[int]) int { return 2 * in.Data })
	k := Combine(s, "sum", sumOf(double, kb), CombineOptions[sum]{}, double.Topic(), kb.Topic())
	s.Start(context.Background())
	defer s.Close()
	sub := s.Subscribe()
	sub.Watch(k.Topic())
	deadline := time.Now().Add(5 * time.Second)
	for a.Load() == 0 || b.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("sources polled a=%d b=%d", a.Load(), b.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.mu.Lock()
	wa, wb := s.watch[ka.Topic()], s.watch[kb.Topic()]
	s.mu.Unlock()
	if wa != 1 || wb != 1 {
		t.Fatalf("watch counts a=%d b=%d, want 1 each", wa, wb)
	}
	sub.Close()
	s.mu.Lock()
	wa, wb = s.watch[ka.Topic()], s.watch[kb.Topic()]
	s.mu.Unlock()
	if wa != 0 || wb != 0 {
		t.Fatalf("after close: watch counts a=%d b=%d", wa, wb)
	}
}

// TestCombineAlerts: a combination's alerts are raised and cleared with
// its value, keeping the Since of an alert still open.
func TestCombineAlerts(t *testing.T) {
	var av atomic.Int32
	av.Store(1)
	s, ka, kb := combineStore(t, func() (int, error) { return int(av.Load()), nil }, func() (int, error) { return 0, nil })
	Combine(s, "sum", sumOf(ka, kb), CombineOptions[sum]{Alerts: func(v sum, at time.Time) []Alert {
		if v.A < 5 {
			return nil
		}
		return []Alert{{Key: "big", Severity: Medium, Code: "BIG", Title: "a is big"}}
	}}, ka.Topic(), kb.Topic())
	s.FetchNow(context.Background(), ka.Topic())
	if n := len(s.Alerts()); n != 0 {
		t.Fatalf("%d alerts, want none", n)
	}
	av.Store(7)
	s.FetchNow(context.Background(), ka.Topic())
	al := s.Alerts()
	if len(al) != 1 || al[0].Code != "BIG" {
		t.Fatalf("alerts %+v", al)
	}
	since := al[0].Since
	av.Store(8)
	s.FetchNow(context.Background(), ka.Topic())
	if al = s.Alerts(); len(al) != 1 || !al[0].Since.Equal(since) {
		t.Fatalf("still open: %+v, since %v", al, since)
	}
	av.Store(2)
	s.FetchNow(context.Background(), ka.Topic())
	if n := len(s.Alerts()); n != 0 {
		t.Fatalf("%d alerts after the condition ended", n)
	}
}

// TestTimedCombineIsRebuiltAtEveryFetch: a timed combination is built
// again when an input is read again unchanged, at the new read's time.
func TestTimedCombineIsRebuiltAtEveryFetch(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ka, kb := KeyOf[int]("a"), KeyOf[int]("b")
	s := New(Options{Inline: true, Now: func() time.Time { return now }, Feeds: []Feed{
		ValueFeed(ka, func(context.Context) (int, error) { return 1, nil }, FeedOptions[int, int]{Interval: time.Hour}),
		ValueFeed(kb, func(context.Context) (int, error) { return 2, nil }, FeedOptions[int, int]{Interval: time.Hour}),
	}})
	var at time.Time
	k := Combine(s, "timed", func(prev int, in Inputs) int { at = in.At; return prev + 1 }, CombineOptions[int]{Timed: true}, ka.Topic(), kb.Topic())
	s.FetchNow(context.Background(), ka.Topic())
	s.FetchNow(context.Background(), kb.Topic())
	builds := Get(s, k).Data
	now = now.Add(time.Minute)
	s.FetchNow(context.Background(), ka.Topic()) // unchanged
	if got := Get(s, k).Data; got != builds+1 || !at.Equal(now) {
		t.Fatalf("builds %d (was %d), at %v, want %v", got, builds, at, now)
	}
}
