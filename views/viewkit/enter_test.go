package viewkit

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/table"
)

// TestAKeyActsOnTheRowDrawn: a table following the newest row draws "c"
// under its cursor; new rows are published ("d" is now the newest) and
// enter comes before the page heard of them (the store's notice is on its
// way): enter opens "c", the row the user saw and chose, not "d", which
// the next frame would have put under the cursor.
func TestAKeyActsOnTheRowDrawn(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rows := []string{"c", "b", "a"}
	k := live.KeyOf[[]string]("rows")
	st := live.New(live.Options{Now: func() time.Time { return now }, Feeds: []live.Feed{
		live.ValueFeed(k, func(context.Context) ([]string, error) { return rows, nil }, live.FeedOptions[[]string, []string]{Interval: time.Minute}),
	}})
	st.FetchNow(context.Background(), "rows")
	r := colorprofile.NoTTY
	ctx := &ui.Context{Shared: &ui.Shared{Store: st, Now: func() time.Time { return now }}, Session: ui.Session{Colors: r, Dark: true, Theme: ui.NewTheme(r, true, nil)}}
	id := func(s string) string { return s }
	row := func(s string) table.Row { return table.Row{ID: s, Cells: []string{s}} }
	var opened []string
	p := NewSharedTable(ctx, TableSpec[string]{Crumb: "x", Columns: []table.Column{{Title: "X", Width: 4}}, Topics: []live.Topic{"rows"},
		Live: true, Enter: func(s string) tea.Cmd { opened = append(opened, s); return nil }},
		Shared[string]{Source: ListProjection(st, k, "rows", id, row, nil)})
	st.Sync()
	p.Update(ui.StoreChanged{})
	p.Render(40, 10)
	if sel, ok := p.selected(); !ok || sel != "c" {
		t.Fatalf("the cursor is on %q, want the newest, c", sel)
	}
	rows = []string{"d", "c", "b", "a"}
	st.FetchNow(context.Background(), "rows")
	st.Sync()
	p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if len(opened) != 1 || opened[0] != "c" {
		t.Fatalf("enter opened %q, want the row drawn under the cursor, c", opened)
	}
	p.Update(ui.StoreChanged{})
	p.Render(40, 10)
	p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if opened[len(opened)-1] != "d" {
		t.Fatalf("once drawn, enter on the newest opened %q, want d", opened)
	}
}
