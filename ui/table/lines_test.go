package table

import (
	"testing"
	"time"

	"charm.land/lipgloss/v2"

	"treasury/kit/keep"
)

// colourStyles are styles that show in the output: a table styled with
// them differs from one styled plainly.
func colourStyles() Styles {
	return Styles{
		Header: lipgloss.NewStyle().Bold(true), Cell: lipgloss.NewStyle().Foreground(lipgloss.Color("#00ff00")),
		Selected: lipgloss.NewStyle().Reverse(true), Highlight: lipgloss.NewStyle().Foreground(lipgloss.Color("#ffff00")),
		Dim: lipgloss.NewStyle().Faint(true),
	}
}

// Tables sharing lines show what each shows alone; the rows one formatted
// are not formatted again by another of the same layout and styles (a
// new row is, once); a table of other styles, widths or alignments keeps
// its own.
func TestTablesShareTheirRowsLines(t *testing.T) {
	b := NewBuilder(byTimeDesc)
	d := b.Apply(timedRows(40), nil, t0)
	lines := keep.New(4096)
	table := func(styles Styles, name string, w int, cols []Column, shared bool) *Model {
		m := New(cols, styles)
		m.SetSize(w, 12)
		if shared {
			m.ShareLines(lines, name)
		}
		m.SetData(d)
		return m
	}
	right := paymentCols()
	right[1].Align = Right
	cases := []struct {
		name   string
		styles Styles
		w      int
		cols   []Column
		new    bool // formats lines no other did
	}{
		{"first", colourStyles(), 80, paymentCols(), true},
		{"same", colourStyles(), 80, paymentCols(), false},
		{"other styles", plainStyles(), 80, paymentCols(), true},
		{"narrower", colourStyles(), 60, paymentCols(), true},
		{"other alignments", colourStyles(), 80, right, true},
		{"same again", colourStyles(), 80, paymentCols(), false},
	}
	var shared, twins []*Model
	for _, c := range cases {
		name := "colour"
		if c.name == "other styles" {
			name = "plain"
		}
		before := lines.Len()
		m := table(c.styles, name, c.w, c.cols, true)
		alone := table(c.styles, name, c.w, c.cols, false)
		if got, want := m.View(), alone.View(); got != want {
			t.Fatalf("%s: shared table shows\n%s\nalone\n%s", c.name, got, want)
		}
		if grew := lines.Len() > before; grew != c.new {
			t.Errorf("%s: lines kept went from %d to %d", c.name, before, lines.Len())
		}
		shared, twins = append(shared, m), append(twins, alone)
	}
	// A new row: the first table formats it, the second finds it.
	d = b.Apply([]Row{timedRow(99, t0.Add(time.Hour), "newest")}, nil, t0.Add(time.Hour))
	a, a2 := shared[0], shared[1]
	a.SetData(d)
	a.MoveCursor(1)
	before := lines.Len()
	viewA := a.View()
	if lines.Len() <= before {
		t.Fatal("the new row's line was not kept")
	}
	a2.SetData(d)
	before = lines.Len()
	view2 := a2.View()
	if lines.Len() != before {
		t.Errorf("the second table formatted lines again: %d → %d", before, lines.Len())
	}
	twins[1].SetData(d)
	if want := twins[1].View(); view2 != want {
		t.Fatalf("after the new row the shared table shows\n%s\nalone\n%s", view2, want)
	}
	if viewA == view2 {
		t.Fatal("the cursor moved in one table shows in the other")
	}
	// A table of its own rows (SetRows) keeps none of their lines: no
	// other table shows its *Row. Its header and footer are kept.
	own := New(paymentCols(), colourStyles())
	own.SetSize(80, 12)
	own.ShareLines(lines, "colour")
	own.SetRows(timedRows(40), t0)
	before = lines.Len()
	got := own.View()
	if grew := lines.Len() - before; grew > 2 {
		t.Errorf("a table of its own rows kept %d lines", grew)
	}
	alone := New(paymentCols(), colourStyles())
	alone.SetSize(80, 12)
	alone.SetRows(timedRows(40), t0)
	if want := alone.View(); got != want {
		t.Fatalf("a table of its own rows shows\n%s\nalone\n%s", got, want)
	}
}

// TestSharedLinesKeepTheColumnsOrder: two tables sharing lines over the
// same rows, one showing its columns in another order (the column
// picker, a saved view) at the same widths, each draws its own order:
// a row's line formatted for one is not the other's.
func TestSharedLinesKeepTheColumnsOrder(t *testing.T) {
	b := NewBuilder(byTimeDesc)
	d := b.Apply(timedRows(10), nil, t0)
	lines := keep.New(4096)
	table := func(order []string) *Model {
		m := New(paymentCols(), plainStyles())
		m.SetSize(80, 8)
		m.ShareLines(lines, "plain")
		m.ShowOnly(order)
		m.SetData(d)
		return m
	}
	names := table(nil).ColumnNames()
	swapped := []string{names[1], names[0], names[2], names[3]}
	given, picked := table(names), table(swapped)
	g, p := given.View(), picked.View()
	if g == p {
		t.Fatalf("the same lines in both orders:\n%s", g)
	}
	alone := New(paymentCols(), plainStyles())
	alone.SetSize(80, 8)
	alone.ShowOnly(swapped)
	alone.SetData(d)
	if p != alone.View() {
		t.Fatalf("shared lines in the order picked:\n%s\nalone:\n%s", p, alone.View())
	}
}
