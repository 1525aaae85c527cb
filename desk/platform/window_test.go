package platform

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/wire"
	"treasury/wire/liquidity"
)

// rec is a record of a test window: its time is its id.
type rec struct{ t time.Time }

// fakeWindow serves one record a second of [from, to) newest first, in
// pages of 10, failing every page that starts at or before failFrom until
// healed.
type fakeWindow struct {
	// now is the server's clock: it has no record after it (a read may
	// ask past it).
	now      func() time.Time
	reads    []liquidity.Window
	failFrom time.Time
	hold     chan struct{} // when set, each page after the first waits for it
}

func (f *fakeWindow) read(ctx context.Context, w liquidity.Window) iter.Seq2[rec, error] {
	f.reads = append(f.reads, w)
	return func(yield func(rec, error) bool) {
		n := 0
		end := w.End
		if f.now != nil && f.now().Before(end) {
			end = f.now()
		}
		for t := end.Truncate(time.Second); !t.Before(w.Start); t = t.Add(-time.Second) {
			if n%10 == 0 && n > 0 && f.hold != nil {
				select { // the next page is slow to come
				case <-f.hold:
				case <-ctx.Done():
					yield(rec{}, ctx.Err())
					return
				}
			}
			if n%10 == 0 && !f.failFrom.IsZero() && !t.After(f.failFrom) {
				yield(rec{}, errors.New("HTTP 500 SYS_001"))
				return
			}
			if !yield(rec{t}, nil) {
				return
			}
			n++
		}
	}
}

// TestWindowReadsKeepEachPage: a read whose later page fails keeps what
// its earlier pages got (the newest records shown at once), names the
// range left as partial, and the next poll reads that range and no more;
// the window then holds every record once.
func TestWindowReadsKeepEachPage(t *testing.T) {
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	src := &fakeWindow{now: func() time.Time { return now }}
	f := &windowFeed[rec]{read: src.read, now: func() time.Time { return now }, what: "records",
		window: 10 * time.Minute, first: time.Minute, max: 10_000, interval: time.Second, backfill: time.Minute,
		at: func(r rec) time.Time { return r.t }, id: func(r rec) string { return r.t.Format(time.RFC3339Nano) }}
	ctx := context.Background()
	got, err := f.fetch(ctx) // the first poll: the last minute
	held, _ := f.fold(nil, got, now)
	if err != nil || len(held) != 61 {
		t.Fatalf("first poll: %d records, %v", len(held), err)
	}
	// The next poll backfills the rest of the window, but the platform
	// fails every page from 09:24:00 back.
	now = now.Add(2 * time.Second)
	src.failFrom = time.Date(2026, 11, 16, 9, 24, 0, 0, time.UTC)
	got, err = f.fetch(ctx)
	var part *wire.Partial
	if !errors.As(err, &part) || len(part.Failed) != 1 || !strings.Contains(part.Failed[0].Name, "09:20:02–09:24:0") {
		t.Fatalf("second poll: %v, want a partial read naming the range left", err)
	}
	held, _ = f.fold(held, got, now)
	newest := held[0].t
	if !newest.Equal(now) || len(held) < 300 {
		t.Fatalf("second poll holds %d records up to %v: what the pages read is kept", len(held), newest)
	}
	// Healed: the next poll reads the fresh seconds and the gap.
	src.failFrom, src.reads = time.Time{}, nil
	now = now.Add(2 * time.Second)
	got, err = f.fetch(ctx)
	held, _ = f.fold(held, got, now)
	if err != nil || len(held) != 601 {
		t.Fatalf("third poll: %d records, %v; want the 601 seconds of the window", len(held), err)
	}
	if len(src.reads) != 2 || !src.reads[1].Start.Equal(now.Add(-10*time.Minute)) {
		t.Fatalf("third poll read %v: the fresh part and the one gap left", fmt.Sprint(src.reads))
	}
}

// TestWindowShowsTheNewestPageFirst: in the store, the newest page of a
// poll is shown while the pages behind it are still on their way: a slow
// or retried page does not hold the fresh quotes back.
func TestWindowShowsTheNewestPageFirst(t *testing.T) {
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	src := &fakeWindow{now: func() time.Time { return now }, hold: make(chan struct{})}
	f := &windowFeed[rec]{read: src.read, now: func() time.Time { return now }, what: "records",
		window: 10 * time.Minute, first: time.Minute, max: 10_000, interval: time.Second,
		at: func(r rec) time.Time { return r.t }, id: func(r rec) string { return r.t.Format(time.RFC3339Nano) }}
	key := live.KeyOf[[]rec]("records")
	s := live.New(live.Options{Feeds: []live.Feed{live.FoldFeed(key, f.fetch, f.fold, live.FeedOptions[[]rec, []rec]{Interval: time.Hour})},
		Now: func() time.Time { return now }})
	defer s.Close()
	done := make(chan live.Snapshot)
	go func() { done <- s.FetchNow(context.Background(), key.Topic()) }()
	deadline := time.After(10 * time.Second)
	for {
		held := live.Get(s, key).Data
		if len(held) > 0 {
			if len(held) != 10 || !held[0].t.Equal(now) {
				t.Fatalf("shown before the rest: %d records from %v; want the newest page of 10", len(held), held[0].t)
			}
			break
		}
		select {
		case <-deadline:
			t.Fatal("the newest page was not shown while the next was on its way")
		case <-time.After(5 * time.Millisecond):
		}
	}
	close(src.hold)
	<-done
	if held := live.Get(s, key).Data; len(held) != 61 {
		t.Fatalf("after the poll: %d records, want the 61 seconds of the first minute", len(held))
	}
}

// TestWindowFoldSaysWhatExpired: a fold names as changed the records whose
// expiry passed (on the platform's clock) since the last fold, once, so
// the rows that show their status are built again.
func TestWindowFoldSaysWhatExpired(t *testing.T) {
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	f := &windowFeed[rec]{now: func() time.Time { return now }, window: 10 * time.Minute, max: 100,
		at: func(r rec) time.Time { return r.t }, id: func(r rec) string { return r.t.Format(time.TimeOnly) },
		expires: func(r rec) time.Time { return r.t.Add(30 * time.Second) }}
	var held []rec
	for i := range 10 {
		held = append(held, rec{now.Add(-time.Duration(i) * 10 * time.Second)})
	}
	held, _ = f.fold(nil, held, now) // expired: those of 30 s ago and older
	now = now.Add(15 * time.Second)
	_, ch := f.fold(held, nil, now)
	if want := []string{"09:29:40"}; fmt.Sprint(ch.Changed) != fmt.Sprint(want) {
		t.Fatalf("changed %v, want the one whose expiry passed: %v", ch.Changed, want)
	}
	_, ch = f.fold(held, nil, now)
	if len(ch.Changed) != 0 {
		t.Fatalf("changed again: %v", ch.Changed)
	}
	now = now.Add(10 * time.Second)
	if _, ch = f.fold(held, nil, now); fmt.Sprint(ch.Changed) != "[09:29:50]" {
		t.Fatalf("changed %v, want 09:29:50", ch.Changed)
	}
}

// TestWindowFoldTakesANewStatus: a record read again in another status (a
// trade settled since it was read) replaces the one held, in its place,
// and is named as changed; read again as held, it is no change.
func TestWindowFoldTakesANewStatus(t *testing.T) {
	type trade struct {
		t      time.Time
		status string
	}
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	f := &windowFeed[trade]{now: func() time.Time { return now }, window: 10 * time.Minute, max: 100,
		at: func(r trade) time.Time { return r.t }, id: func(r trade) string { return r.t.Format(time.TimeOnly) },
		status: func(r trade) string { return r.status }}
	older, newer := now.Add(-time.Minute), now.Add(-time.Second)
	held, _ := f.fold(nil, []trade{{newer, "EXECUTED"}, {older, "EXECUTED"}}, now)
	held, ch := f.fold(held, []trade{{older, "SETTLED"}}, now)
	if fmt.Sprint(ch.Changed) != "[09:29:00]" || len(ch.Added) != 0 {
		t.Fatalf("changes %+v, want 09:29:00 changed", ch)
	}
	if len(held) != 2 || held[0].status != "EXECUTED" || held[1].status != "SETTLED" {
		t.Fatalf("held %v, want the older one settled in its place", held)
	}
	if _, ch = f.fold(held, []trade{{older, "SETTLED"}}, now); !ch.Empty() {
		t.Fatalf("read again as held: %+v, want no change", ch)
	}
}

// TestWindowBackfillCutIsNoFailure: a backfill that its share of the poll
// does not let finish leaves the rest for the next poll and names no
// failure: nothing failed.
func TestWindowBackfillCutIsNoFailure(t *testing.T) {
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	src := &fakeWindow{now: func() time.Time { return now }}
	f := &windowFeed[rec]{read: src.read, now: func() time.Time { return now }, what: "records",
		window: 10 * time.Minute, first: time.Minute, max: 10_000, interval: 100 * time.Millisecond,
		at: func(r rec) time.Time { return r.t }, id: func(r rec) string { return r.t.Format(time.RFC3339Nano) }}
	if _, err := f.fetch(context.Background()); err != nil {
		t.Fatal(err)
	}
	src.hold = make(chan struct{}) // every page after a read's first is slow to come
	defer close(src.hold)
	now = now.Add(2 * time.Second)
	got, err := f.fetch(context.Background())
	if err != nil || len(got) == 0 {
		t.Fatalf("%d records, %v: want the fresh seconds and the backfill's first page, no failure", len(got), err)
	}
	if len(f.gaps) != 1 {
		t.Fatalf("gaps %v: want the rest of the window left for the next poll", f.gaps)
	}
}
