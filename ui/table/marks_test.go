package table

import (
	"slices"
	"strings"
	"testing"

	"treasury/ui/uitest"
)

// Marks: space marks the row under the cursor and moves down, ctrl+space
// marks from the row marked last to the cursor, * inverts the marks of
// the rows shown (a filter's marks stay), u clears them. A marked row is
// drawn after a "✓" in a gutter that comes with the first mark, the
// footer counts them, and a table that does not mark takes none of it.
func TestMarks(t *testing.T) {
	m := New(paymentCols(), plainStyles())
	m.SetSize(60, 9)
	m.SetRows([]Row{payment("p-1", "Ann", "10.00", "FAILED"), payment("p-2", "Bob", "30.00", "SETTLED"),
		payment("p-3", "Cy", "20.00", "FAILED"), payment("p-4", "Dee", "40.00", "FAILED"), payment("p-5", "Eve", "50.00", "SETTLED")}, t0)
	press := func(keys ...string) {
		for _, k := range keys {
			m.Update(uitest.Key(k))
		}
	}
	press("space")
	if m.MarkCount() != 0 || strings.Contains(m.View(), "✓") {
		t.Fatal("a table that does not mark took space")
	}
	m.SetMarking(true)
	press("space", "space") // p-1, p-2; the cursor on p-3
	if got := m.Marked(); !slices.Equal(got, []string{"p-1", "p-2"}) || m.SelectedID() != "p-3" {
		t.Fatalf("space space: marked %v, cursor on %s", got, m.SelectedID())
	}
	golden(t, "marks", m.View())
	if !strings.Contains(m.Footer(), "2 marked") {
		t.Errorf("footer %q", m.Footer())
	}
	press("j", "j", "ctrl+space") // from p-2 (marked last) to p-5
	if got := m.Marked(); !slices.Equal(got, []string{"p-1", "p-2", "p-3", "p-4", "p-5"}) {
		t.Fatalf("ctrl+space: %v", got)
	}
	press("space") // p-5 unmarked (the last row: the cursor stays)
	m.SetFilter("FAILED")
	press("*") // p-1, p-3, p-4 shown and marked: unmarked; p-2 stays (hidden)
	if got := m.Marked(); !slices.Equal(got, []string{"p-2"}) {
		t.Fatalf("* on FAILED: %v", got)
	}
	press("*")
	if got := m.Marked(); !slices.Equal(got, []string{"p-1", "p-3", "p-4", "p-2"}) {
		t.Fatalf("* again: %v (shown first, then hidden)", got)
	}
	m.SetRows([]Row{payment("p-1", "Ann", "10.00", "FAILED"), payment("p-2", "Bob", "30.00", "SETTLED")}, t0)
	if got := m.Marked(); !slices.Equal(got, []string{"p-1", "p-2", "p-3", "p-4"}) {
		t.Fatalf("rows gone: %v (a mark is never dropped in silence)", got)
	}
	m.Unmark([]string{"p-3"})
	if m.MarkCount() != 3 {
		t.Fatalf("unmark: %v", m.Marked())
	}
	press("u")
	m.SetFilter("")
	if v := m.View(); m.MarkCount() != 0 || !strings.HasPrefix(v, "ID") || strings.Contains(v, "✓") {
		t.Fatalf("u: %v; the gutter must go with the last mark:\n%s", m.Marked(), m.View())
	}
}
