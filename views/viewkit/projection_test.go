package viewkit

import (
	"context"
	"maps"
	"slices"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/ui/table"
)

// TestPausedProjectionIsBuiltAfresh: a projection the store paused (no
// session watched it) drops its rows and its builder, which held the last
// rows too; read again, it is built whole from the latest data, with rows
// in the given order and a version past any a session saw.
func TestPausedProjectionIsBuiltAfresh(t *testing.T) {
	recs := []string{"b", "a"}
	k := live.KeyOf[[]string]("recs")
	st := live.New(live.Options{Inline: true, Feeds: []live.Feed{live.ValueFeed(k,
		func(context.Context) ([]string, error) { return recs, nil }, live.FeedOptions[[]string, []string]{Interval: time.Minute})}})
	st.FetchNow(context.Background(), "recs")
	byID := func(a, b *table.Row) int { return b.Key(0).Compare(a.Key(0)) }
	row := func(s string) table.Row {
		return table.Row{ID: s, Cells: []string{s}, Keys: []table.Key{table.String(s)}}
	}
	pk := ListProjection(st, k, "rows", func(s string) string { return s }, row, byID)

	first := live.Get(st, pk)
	if got := first.Data.Rows.IDs(); !slices.Equal(got, []string{"b", "a"}) {
		t.Fatalf("rows %q, want [b a]", got)
	}
	if n := st.PauseUnused(time.Now().Add(time.Hour)); n != 1 {
		t.Fatalf("%d derivations paused, want the projection", n)
	}
	recs = []string{"c", "b", "a"}
	st.FetchNow(context.Background(), "recs")
	again := live.Get(st, pk) // resumes it, built inline
	if got := again.Data.Rows.IDs(); !slices.Equal(got, []string{"c", "b", "a"}) {
		t.Fatalf("rows after resuming %q, want [c b a]", got)
	}
	if again.Data.b == first.Data.b {
		t.Error("the resumed projection builds on the builder it had before the pause: its old rows stay held")
	}
	if again.Version <= first.Version {
		t.Errorf("version %d after resuming, not past %d", again.Version, first.Version)
	}
}

// TestProjectionFindsRecordsInItsData: with Lookup, a projection keeps no
// map of its records: each row's record is found in the data it was
// built from, the one of that version, and a record whose row left (out
// of the scope, removed) is not found, as without it.
func TestProjectionFindsRecordsInItsData(t *testing.T) {
	type rec struct{ id, state string }
	data := map[string]rec{"a": {"a", "on"}, "b": {"b", "on"}, "c": {"c", "off"}}
	k := live.KeyOf[map[string]rec]("data")
	st := live.New(live.Options{Inline: true, Feeds: []live.Feed{live.FoldFeed(k,
		func(context.Context) (map[string]rec, error) { return data, nil },
		func(prev, got map[string]rec, _ time.Time) (map[string]rec, live.Changes) {
			return got, live.DiffList(slices.Collect(maps.Values(prev)), slices.Collect(maps.Values(got)), func(r rec) string { return r.id })
		}, live.FeedOptions[map[string]rec, map[string]rec]{Interval: time.Minute})}})
	all := func(m map[string]rec) []rec { return slices.Collect(maps.Values(m)) }
	for _, lookup := range []bool{false, true} {
		p := Projection[map[string]rec, rec]{Name: lookup, From: k, All: all,
			Keep: func(r rec) bool { return r.state == "on" }, ID: func(r rec) string { return r.id },
			Row: func(r rec) table.Row {
				return table.Row{ID: r.id, Cells: []string{r.id}, Keys: []table.Key{table.String(r.id)}}
			},
			Given: func(a, b *table.Row) int { return a.Key(0).Compare(b.Key(0)) }}
		if lookup {
			p.Lookup = func(m map[string]rec, id string) (rec, bool) { r, ok := m[id]; return r, ok }
		}
		pk := Project(st, p)
		data = map[string]rec{"a": {"a", "on"}, "b": {"b", "on"}, "c": {"c", "off"}}
		st.FetchNow(context.Background(), "data")
		got := live.Get(st, pk).Data
		if r, ok := got.Record("a"); !ok || r.state != "on" {
			t.Fatalf("lookup %v: a is %+v %v", lookup, r, ok)
		}
		if _, ok := got.Record("c"); ok {
			t.Fatalf("lookup %v: c, out of the scope, found", lookup)
		}
		if lookup && got.recs.Len() != 0 {
			t.Fatalf("with Lookup the projection keeps %d records of its own", got.recs.Len())
		}
		data = map[string]rec{"b": {"b", "off"}, "c": {"c", "on"}} // a gone, b out, c in
		st.FetchNow(context.Background(), "data")
		got = live.Get(st, pk).Data
		if ids := got.Rows.IDs(); !slices.Equal(ids, []string{"c"}) {
			t.Fatalf("lookup %v: rows %q, want [c]", lookup, ids)
		}
		for id, want := range map[string]bool{"a": false, "b": false, "c": true} {
			if _, ok := got.Record(id); ok != want {
				t.Fatalf("lookup %v: %s found %v", lookup, id, ok)
			}
		}
	}
}
