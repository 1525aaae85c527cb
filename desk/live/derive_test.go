package live

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDerivedTakesTheSourceState: what is derived from a topic fails when
// the topic's read fails (not "loading" forever), keeps its value, marked
// with the error, when a later read fails, and is built again only when
// the data changed, not when only the state did.
func TestDerivedTakesTheSourceState(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var fail error = errors.New("connection refused")
	val := []string{"a"}
	k := KeyOf[[]string]("list")
	st := New(Options{Now: func() time.Time { return now }, Inline: true, Feeds: []Feed{
		ListFeed(k, func(s string) string { return s }, func(context.Context) ([]string, error) {
			if fail != nil {
				return nil, fail
			}
			return val, nil
		}, FeedOptions[[]string, []string]{Interval: time.Minute})}})
	builds := 0
	dk := Derive(st, k, "count", func(_ int, in Snap[[]string]) int { builds++; return len(in.Data) })

	st.FetchNow(context.Background(), "list")
	if d := Get(st, dk); d.Loaded() || d.Err == nil {
		t.Fatalf("after a failed first read the derived is loaded %v with error %v; want the error", d.Loaded(), d.Err)
	}
	fail = nil
	st.FetchNow(context.Background(), "list")
	if d := Get(st, dk); !d.Loaded() || d.Err != nil || d.Data != 1 || builds != 1 {
		t.Fatalf("after a good read: loaded %v, err %v, value %d, %d builds", d.Loaded(), d.Err, d.Data, builds)
	}
	fail = errors.New("503")
	st.FetchNow(context.Background(), "list")
	if d := Get(st, dk); !d.Loaded() || d.Err == nil || d.Data != 1 || builds != 1 {
		t.Fatalf("after a failed later read: loaded %v, err %v, value %d, %d builds; want stale with the error and no build",
			d.Loaded(), d.Err, d.Data, builds)
	}
	fail = nil
	st.FetchNow(context.Background(), "list")
	if d := Get(st, dk); d.Err != nil || builds != 1 {
		t.Fatalf("a good read of the same data: err %v, %d builds; want the error gone and no build", d.Err, builds)
	}
	val = []string{"a", "b"}
	st.FetchNow(context.Background(), "list")
	if d := Get(st, dk); d.Data != 2 || builds != 2 {
		t.Fatalf("new data: value %d after %d builds", d.Data, builds)
	}
}

// TestDeriveAlsoRebuildsOnTheOtherTopic: a value that also reads another
// topic (rows naming their wallets) is rebuilt whole when that topic's data
// changes, keeps the source's state when that topic's read fails, and
// subscribing to it polls both.
func TestDeriveAlsoRebuildsOnTheOtherTopic(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var namesFail error
	names := []string{"x"}
	recs, nk := KeyOf[[]string]("recs"), KeyOf[[]string]("names")
	feed := func(k Key[[]string], get func() ([]string, error)) Feed {
		return ListFeed(k, func(s string) string { return s }, func(context.Context) ([]string, error) { return get() },
			FeedOptions[[]string, []string]{Interval: time.Minute})
	}
	st := New(Options{Now: func() time.Time { return now }, Inline: true, Feeds: []Feed{
		feed(recs, func() ([]string, error) { return []string{"a", "b"}, nil }),
		feed(nk, func() ([]string, error) { return names, namesFail })}})
	var resets []bool
	dk := DeriveAlso(st, recs, []Topic{"names"}, "named", func(_ string, in Snap[[]string]) string {
		resets = append(resets, in.Changes.Reset)
		return strings.Join(in.Data, ",") + "/" + strings.Join(Get(st, nk).Data, ",")
	})
	if got := st.sourcesOf(dk.Topic()); !slices.Equal(got, []Topic{"recs", "names"}) {
		t.Fatalf("polled through %v", got)
	}
	st.FetchNow(context.Background(), "recs")
	if d := Get(st, dk); d.Data != "a,b/" {
		t.Fatalf("before the names: %q", d.Data)
	}
	st.FetchNow(context.Background(), "names")
	if d := Get(st, dk); d.Data != "a,b/x" || !resets[len(resets)-1] {
		t.Fatalf("after the names: %q, builds %v", d.Data, resets)
	}
	builds := len(resets)
	namesFail = errors.New("503")
	st.FetchNow(context.Background(), "names")
	if d := Get(st, dk); len(resets) != builds || d.Err != nil {
		t.Fatalf("a failed read of the names: %d builds (had %d), err %v; want neither", len(resets), builds, d.Err)
	}
	namesFail, names = nil, []string{"y"}
	st.FetchNow(context.Background(), "names")
	if d := Get(st, dk); d.Data != "a,b/y" {
		t.Fatalf("after a name changed: %q", d.Data)
	}
}

// TestQuietRefetchAgesWhatIsDerived: a fetch that changed nothing builds
// nothing again, but what is derived from the topic (the shared rows of a
// table) takes its new fetch time: a list that rarely changes is not shown
// as STALE while its reads succeed.
func TestQuietRefetchAgesWhatIsDerived(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	k := KeyOf[[]string]("list")
	st := New(Options{Now: func() time.Time { return now }, Inline: true, Feeds: []Feed{
		ListFeed(k, func(s string) string { return s }, func(context.Context) ([]string, error) { return []string{"a"}, nil },
			FeedOptions[[]string, []string]{Interval: time.Minute})}})
	builds := 0
	dk := Derive(st, k, "count", func(_ int, in Snap[[]string]) int { builds++; return len(in.Data) })
	twice := Derive(st, dk, "twice", func(_ int, in Snap[int]) int { return 2 * in.Data })
	st.FetchNow(context.Background(), "list")
	now = now.Add(5 * time.Minute)
	st.FetchNow(context.Background(), "list")
	for _, sn := range []Snapshot{Get(st, dk).Snapshot, Get(st, twice).Snapshot} {
		if !sn.FetchedAt.Equal(now) || sn.Stale(now) {
			t.Errorf("%s after a quiet refetch: fetched at %s (now %s), stale %v", sn.Topic, sn.FetchedAt, now, sn.Stale(now))
		}
	}
	if d := Get(st, dk); builds != 1 || d.Data != 1 || Get(st, twice).Data != 2 {
		t.Fatalf("%d builds, value %d", builds, d.Data)
	}
}

// TestDeriveTimedIsBuiltAtEveryFetch: a value that depends on when its
// source was read (rows leaving a moving window, a quote that expires) is
// built again at a fetch that changed nothing; left as it was, it takes
// the fetch's time without a new version, so nobody redraws.
func TestDeriveTimedIsBuiltAtEveryFetch(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	k := KeyOf[[]string]("list")
	st := New(Options{Now: func() time.Time { return now }, Inline: true, Feeds: []Feed{
		ListFeed(k, func(s string) string { return s }, func(context.Context) ([]string, error) { return []string{"a"}, nil },
			FeedOptions[[]string, []string]{Interval: time.Minute})}})
	var quiet []bool
	expires := now.Add(90 * time.Second)
	dk := DeriveTimed(st, k, nil, "expired", func(prev string, in Snap[[]string]) (string, bool) {
		quiet = append(quiet, in.Changes.Empty())
		v := "open"
		if !in.FetchedAt.Before(expires) {
			v = "expired"
		}
		return v, v != prev
	})
	st.FetchNow(context.Background(), "list")
	first := Get(st, dk)
	if first.Data != "open" {
		t.Fatalf("value %q", first.Data)
	}
	now = now.Add(time.Minute)
	st.FetchNow(context.Background(), "list")
	if d := Get(st, dk); len(quiet) != 2 || !quiet[1] || d.Version != first.Version || !d.FetchedAt.Equal(now) {
		t.Fatalf("a fetch that changed nothing: builds %v, version %d (was %d), fetched %v", quiet, d.Version, first.Version, d.FetchedAt)
	}
	now = now.Add(time.Minute)
	st.FetchNow(context.Background(), "list")
	if d := Get(st, dk); d.Data != "expired" || d.Version == first.Version {
		t.Fatalf("past its time, with no change of the list: %q, version %d", d.Data, d.Version)
	}
}
