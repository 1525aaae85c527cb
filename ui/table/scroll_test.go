package table

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// press is a key press of code (an arrow).
func press(code rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: code} }

// TestScrollColumnsReachesEveryColumn: at 60 columns the ledger's table
// cannot show Before, After and Payment; → shifts the columns a column at
// a time, Created staying first, until Payment, the last, is shown; the
// header marks what lies left (‹) and right (›); ← comes back to where it
// started.
func TestScrollColumnsReachesEveryColumn(t *testing.T) {
	m := newPlain(ledgerCols(), 60, 6)
	m.SetRows(ledgerRows(), t0)
	first := m.View()
	h0 := header(m)
	if !strings.HasSuffix(h0, "›") || strings.Contains(h0, "‹") || strings.Contains(h0, "Payment") {
		t.Fatalf("unscrolled header %q: want › only, Payment not shown", h0)
	}
	if at, most := m.ColumnScroll(); at != 0 || most == 0 {
		t.Fatalf("ColumnScroll = %d, %d: want 0 of some", at, most)
	}
	seen := map[string]bool{}
	steps := 0
	for m.Update(press(tea.KeyRight)); ; m.Update(press(tea.KeyRight)) {
		steps++
		h := header(m)
		if !strings.HasPrefix(h, "Created") {
			t.Fatalf("step %d: the first column left its place: %q", steps, h)
		}
		if !strings.HasPrefix(h, "Created       ‹") {
			t.Errorf("step %d: header %q has no ‹ after the first column", steps, h)
		}
		for _, c := range ledgerCols() {
			if strings.Contains(h, c.Title) {
				seen[c.Title] = true
			}
		}
		if at, most := m.ColumnScroll(); at == most {
			if strings.HasSuffix(h, "›") || !strings.Contains(h, "Payment") {
				t.Errorf("scrolled to the end, header %q: want Payment and no ›", h)
			}
			break
		}
		if !strings.HasSuffix(h, "›") {
			t.Errorf("step %d: header %q lacks › while columns are right of it", steps, h)
		}
		if steps > len(ledgerCols()) {
			t.Fatal("→ never reaches the last column")
		}
	}
	for _, c := range ledgerCols() {
		if !seen[c.Title] && !strings.Contains(h0, c.Title) {
			t.Errorf("column %s was never shown", c.Title)
		}
	}
	if m.ScrollColumns(1) {
		t.Error("→ at the last column scrolled further")
	}
	for range steps {
		m.Update(press(tea.KeyLeft))
	}
	if got := m.View(); got != first {
		t.Errorf("← as many times as → does not come back:\n%s\nwant:\n%s", got, first)
	}
	if m.ScrollColumns(-1) {
		t.Error("← at the first column scrolled further")
	}
}

// TestScrollKeepsSelectionAndSort: scrolling changes the columns shown,
// not the row selected nor the order.
func TestScrollKeepsSelectionAndSort(t *testing.T) {
	m := newPlain(ledgerCols(), 60, 6)
	m.SetRows(ledgerRows(), t0)
	m.SetSort(3, true) // Amount, descending
	m.Select("2")
	before := slices.Collect(m.Shown())
	if !m.ScrollColumns(2) {
		t.Fatal("nothing scrolled at 60 columns")
	}
	if col, desc := m.Sort(); col != 3 || !desc {
		t.Errorf("sort %d %v after scrolling", col, desc)
	}
	if m.SelectedID() != "2" {
		t.Errorf("selected %q after scrolling, want 2", m.SelectedID())
	}
	if after := slices.Collect(m.Shown()); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("order %v became %v", before, after)
	}
	// The rows' cells follow the header: the first cell stays, the
	// scrolled-away columns' cells go.
	lines := strings.Split(m.View(), "\n")
	if !strings.HasPrefix(lines[1], "11-27 23:54:43") || strings.Contains(lines[1], "RESERVE") {
		t.Errorf("row %q: want Created kept and Operation scrolled away", lines[1])
	}
	if foot := lines[len(lines)-1]; !strings.Contains(foot, "Cur") || !strings.Contains(foot, "←/→") {
		t.Errorf("footer %q: want the columns scrolled away and the keys named", foot)
	}
}

// TestNoScrollWhereEverythingFits: wide enough for every column, the keys
// do nothing and no marker shows; narrowed, it scrolls, and widened again
// it shows every column from the first.
func TestNoScrollWhereEverythingFits(t *testing.T) {
	m := newPlain(ledgerCols(), 200, 6)
	m.SetRows(ledgerRows(), t0)
	view := m.View()
	m.Update(press(tea.KeyRight))
	if m.View() != view || m.CanScroll() {
		t.Errorf("→ changed a table where every column fits:\n%s", m.View())
	}
	if strings.ContainsAny(header(m), "‹›") {
		t.Errorf("header %q shows a marker", header(m))
	}
	m.SetSize(60, 6)
	if !m.ScrollColumns(1) {
		t.Fatal("no scroll at 60 columns")
	}
	m.SetSize(200, 6)
	if m.View() != view {
		t.Errorf("widened after a scroll:\n%s\nwant:\n%s", m.View(), view)
	}
}

// TestScrollAtTinyWidths: however narrow, every line is the table's
// width, and scrolling to the end shows the last column (cut if need be).
func TestScrollAtTinyWidths(t *testing.T) {
	for _, w := range []int{8, 14, 20, 27} {
		m := newPlain(ledgerCols(), w, 6)
		m.SetRows(ledgerRows(), t0)
		for m.ScrollColumns(1) {
		}
		for _, l := range strings.Split(m.View(), "\n") {
			if l != "" && textWidth(l) != w {
				t.Errorf("width %d: line %q is %d wide", w, l, textWidth(l))
			}
		}
		if at, most := m.ColumnScroll(); at != most {
			t.Errorf("width %d: scrolled %d of %d", w, at, most)
		}
		if w >= 20 && !strings.Contains(header(m), "Pay") {
			t.Errorf("width %d: the last column is not shown at the end: %q", w, header(m))
		}
	}
}

// BenchmarkLayoutNarrow is the column layout of a table that does not fit
// (it also finds how far it scrolls): run once per data version or size.
func BenchmarkLayoutNarrow(b *testing.B) {
	m := newPlain(ledgerCols(), 60, 6)
	m.SetRows(ledgerRows(), t0)
	m.View()
	b.ReportAllocs()
	for b.Loop() {
		m.layout()
	}
}
