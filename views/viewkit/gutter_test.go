package viewkit

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/table"
)

// TestGutterClickMarks: on a page that marks (it has an action on several
// records), a click on a row's gutter (left of its cells) marks it and a
// second click unmarks it, the cursor on it; a click on its cells only
// selects it; a page that does not mark only selects.
func TestGutterClickMarks(t *testing.T) {
	_, ctx := store(t)
	row := func(s string) table.Row { return table.Row{ID: s, Cells: []string{s}} }
	recs := []string{"a", "b", "c"}
	page := func(actions []Action[string]) *TablePage[string] {
		p := NewOwnTable(ctx, TableSpec[string]{Columns: []table.Column{{Title: "X", Width: 4}}, Topics: []live.Topic{"ok"}, Actions: actions},
			Own[string]{Read: func() ([]string, live.Snapshot) { return recs, live.Snapshot{Seq: 1, FetchedAt: time.Now()} }, Row: row})
		p.Update(ui.StoreChanged{})
		p.Render(40, 10)
		return p
	}
	// The first row is the line under the table's header.
	click := func(p *TablePage[string], x, rowIndex int) {
		p.Update(tea.MouseClickMsg{X: x, Y: p.tableTop + 1 + rowIndex, Button: tea.MouseLeft})
		p.Render(40, 10)
	}
	p := page([]Action[string]{{Batch: func([]string, []string) tea.Cmd { return nil }}})
	click(p, 0, 1)
	if got := p.Table().Marked(); !slices.Equal(got, []string{"b"}) || p.Table().SelectedID() != "b" {
		t.Fatalf("gutter click on b: marked %v, cursor on %s", got, p.Table().SelectedID())
	}
	if !strings.Contains(p.Render(40, 10), "✓") {
		t.Errorf("the mark is not drawn:\n%s", p.Render(40, 10))
	}
	click(p, p.Table().GutterWidth()+1, 2) // on c's cells: selected, not marked
	if got := p.Table().Marked(); !slices.Equal(got, []string{"b"}) || p.Table().SelectedID() != "c" {
		t.Fatalf("cell click on c: marked %v, cursor on %s", got, p.Table().SelectedID())
	}
	click(p, 1, 1) // b's gutter again: unmarked
	if n := p.Table().MarkCount(); n != 0 || p.Table().SelectedID() != "b" {
		t.Fatalf("second gutter click: %d marked, cursor on %s", n, p.Table().SelectedID())
	}
	plain := page(nil)
	click(plain, 0, 2)
	if plain.Table().MarkCount() != 0 || plain.Table().SelectedID() != "c" {
		t.Fatalf("a page that does not mark: %d marked, cursor on %s", plain.Table().MarkCount(), plain.Table().SelectedID())
	}
}
