package viewkit

import (
	"slices"
	"testing"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/table"
)

// TestTableKinds: a shared table names its projection's topic among the
// page's, and SetSource moves it to another; a table of its own records
// reads them with its own Read and Row, and has no projection for
// SetSource to change.
func TestTableKinds(t *testing.T) {
	st, ctx := store(t)
	k := live.KeyOf[[]string]("ok")
	row := func(s string) table.Row { return table.Row{ID: s, Cells: []string{s}} }
	id := func(s string) string { return s }
	spec := TableSpec[string]{Crumb: "x", Columns: []table.Column{{Title: "X", Width: 4}}, Topics: []live.Topic{"ok"}}

	src := ListProjection(st, k, "rows", id, row, nil)
	shared := NewSharedTable(ctx, spec, Shared[string]{Source: src})
	if tp := shared.Topics(); !slices.Contains(tp, src.Topic()) || !slices.Contains(tp, "ok") {
		t.Errorf("shared topics %q lack the spec's or the source's %q", tp, src.Topic())
	}
	other := ListProjection(st, live.KeyOf[[]string]("slow"), "rows", id, row, nil)
	shared.SetSource(other)
	if tp := shared.Topics(); !slices.Contains(tp, other.Topic()) || slices.Contains(tp, src.Topic()) {
		t.Errorf("after SetSource, shared topics = %q, want %q in place of %q", tp, other.Topic(), src.Topic())
	}

	reads := 0
	own := NewOwnTable(ctx, spec, Own[string]{
		Read: func() ([]string, live.Snapshot) { reads++; return []string{"a", "b"}, live.Snapshot{Seq: 1} },
		Row:  row,
	})
	own.Update(ui.StoreChanged{})
	if got := own.Records(); !slices.Equal(got, []string{"a", "b"}) || reads == 0 {
		t.Errorf("own records = %q after %d reads, want [a b]", got, reads)
	}
	if tp := own.Topics(); !slices.Equal(tp, spec.Topics) {
		t.Errorf("own topics = %q, want the spec's %q", tp, spec.Topics)
	}
	if cmd := own.SetSource(src); cmd != nil {
		t.Error("SetSource on a table of its own records returned a command")
	}
	if got := own.Records(); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("after SetSource, own records = %q, want [a b] still", got)
	}
}
