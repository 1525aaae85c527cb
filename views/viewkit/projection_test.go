package viewkit

import (
	"context"
	"slices"
	"testing"
	"time"

	"treasury/data/live"
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
