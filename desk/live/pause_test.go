package live

import (
	"context"
	"testing"
	"time"
)

// pauseWorld is a store with one list topic, a value derived from it and
// a value derived from that, inline.
func pauseWorld(t *testing.T) (st *Store, val *[]string, count, twice Key[int], builds *int) {
	t.Helper()
	v := []string{"a"}
	k := KeyOf[[]string]("list")
	st = New(Options{Inline: true, Idle: time.Minute, Feeds: []Feed{
		ListFeed(k, func(s string) string { return s }, func(context.Context) ([]string, error) { return v, nil },
			FeedOptions[[]string, []string]{Interval: time.Minute})}})
	n := 0
	count = Derive(st, k, "count", func(_ int, in Snap[[]string]) int { n++; return len(in.Data) })
	twice = Derive(st, count, "twice", func(_ int, in Snap[int]) int { return 2 * in.Data })
	st.FetchNow(context.Background(), "list")
	return st, &v, count, twice, &n
}

// TestUnusedDerivationIsPausedAndResumed: a derivation nobody watches or
// reads for Idle is paused (its value dropped, no build at a change of its
// source); watching it, or what is built from it, builds it again from the
// latest data, under a version never seen before.
func TestUnusedDerivationIsPausedAndResumed(t *testing.T) {
	st, val, count, twice, builds := pauseWorld(t)
	if d := Get(st, twice); d.Data != 2 {
		t.Fatalf("twice = %d before any pause; want 2", d.Data)
	}
	before := Get(st, count).Version

	if n := st.PauseUnused(time.Now()); n != 0 {
		t.Fatalf("%d derivations paused right after they were read; want none", n)
	}
	if n := st.PauseUnused(time.Now().Add(2 * time.Minute)); n != 2 {
		t.Fatalf("%d derivations paused after two idle minutes; want both", n)
	}
	*val = []string{"a", "b", "c"}
	n := *builds
	st.FetchNow(context.Background(), "list")
	if *builds != n {
		t.Fatalf("a paused derivation was built at a change of its source")
	}

	sub := st.Subscribe()
	defer sub.Close()
	sub.Watch(twice.Topic())
	if d := Get(st, twice); !d.Loaded() || d.Data != 6 {
		t.Fatalf("twice = %d (loaded %v) once watched again; want 6 from the latest data", d.Data, d.Loaded())
	}
	if v := Get(st, count).Version; v <= before {
		t.Fatalf("count's version after resuming is %d, not past %d: a reader would take it for one it saw", v, before)
	}
	if n := st.PauseUnused(time.Now().Add(time.Hour)); n != 0 {
		t.Fatalf("%d derivations paused while watched (twice, and count it is built from); want none", n)
	}
}

// TestReadResumesAndTellsEveryone: a paused value read without being
// watched (a view reading a total beside its table) is built again, and
// every subscriber is told, since the reader may watch nothing of it.
func TestReadResumesAndTellsEveryone(t *testing.T) {
	st, _, count, _, _ := pauseWorld(t)
	st.PauseUnused(time.Now().Add(time.Hour))
	sub := st.Subscribe()
	defer sub.Close()
	if d := Get(st, count); !d.Loaded() || d.Data != 1 {
		t.Fatalf("count = %d (loaded %v) read after a pause, built inline; want 1", d.Data, d.Loaded())
	}
	select {
	case <-sub.C():
	default:
		t.Fatal("no subscriber was told of the value built again for a reader")
	}
}

// TestPinnedAndAlertingDerivationsAreNeverPaused: a value read by
// something other than a session (Pin) and a combination raising alerts
// are built whoever looks.
func TestPinnedAndAlertingDerivationsAreNeverPaused(t *testing.T) {
	st, _, count, twice, _ := pauseWorld(t)
	st.Pin(twice.Topic())
	alerting := Combine(st, "alerting", func(_ int, in Inputs) int { return Input(in, count).Data },
		CombineOptions[int]{Alerts: func(int, time.Time) []Alert { return nil }}, count.Topic())
	if n := st.PauseUnused(time.Now().Add(time.Hour)); n != 0 {
		t.Fatalf("%d derivations paused; want none (one pinned, one alerting, and count both are built from)", n)
	}
	if d := Get(st, alerting); d.Data != 1 {
		t.Fatalf("alerting = %d; want 1", d.Data)
	}
}

// TestPausedOnTheStoresGoroutines: without Inline, a paused derivation
// watched again is built on the store's goroutine and its watcher told.
func TestPausedOnTheStoresGoroutines(t *testing.T) {
	v := []string{"a", "b"}
	k := KeyOf[[]string]("list")
	st := New(Options{Idle: time.Minute, Feeds: []Feed{
		ListFeed(k, func(s string) string { return s }, func(context.Context) ([]string, error) { return v, nil },
			FeedOptions[[]string, []string]{Interval: time.Hour})}})
	defer st.Close()
	count := Derive(st, k, "count", func(_ int, in Snap[[]string]) int { return len(in.Data) })
	st.FetchNow(context.Background(), "list")
	st.Sync()
	if st.Running() != 1 {
		t.Fatalf("%d derivations run; want 1", st.Running())
	}
	if n := st.PauseUnused(time.Now().Add(time.Hour)); n != 1 {
		t.Fatalf("%d derivations paused; want 1", n)
	}
	st.Sync()
	if n := st.Running(); n != 0 {
		t.Fatalf("%d goroutines of paused derivations still run; want none", n)
	}
	sub := st.Subscribe()
	defer sub.Close()
	sub.Watch(count.Topic())
	select {
	case <-sub.C():
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher of a resumed derivation was never told it was built")
	}
	st.Sync()
	if d := Get(st, count); !d.Loaded() || d.Data != 2 {
		t.Fatalf("count = %d (loaded %v) after resuming; want 2", d.Data, d.Loaded())
	}
	if n := st.Running(); n != 1 {
		t.Fatalf("%d derivations run once resumed; want 1", n)
	}
}

// TestSecondRegistrationOfAnotherShapePanics: the same name registered
// again with the same shape is the same key; with a value of another type
// it is a program error, never a silent first-wins.
func TestSecondRegistrationOfAnotherShapePanics(t *testing.T) {
	st, _, count, _, _ := pauseWorld(t)
	k := KeyOf[[]string]("list")
	if again := Derive(st, k, "count", func(_ int, in Snap[[]string]) int { return 0 }); again != count {
		t.Fatalf("the same registration gave another key")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a second registration of count with a string value did not panic")
		}
	}()
	Derive(st, k, "count", func(_ string, in Snap[[]string]) string { return "" })
}

// TestNameText: a typed name reads as its type and fields, durations as
// durations; a string as it is.
func TestNameText(t *testing.T) {
	type rows struct {
		scope string
		win   time.Duration
		all   bool
	}
	if got, want := nameText(rows{"failed", 7 * 24 * time.Hour, true}), "live.rows{scope:failed win:168h0m0s all:true}"; got != want {
		t.Errorf("nameText = %q, want %q", got, want)
	}
	if got := nameText("count"); got != "count" {
		t.Errorf("nameText(string) = %q", got)
	}
}
