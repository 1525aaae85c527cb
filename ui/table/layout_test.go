package table

import (
	"strings"
	"testing"
)

// ledgerCols are columns of the ledger's kind: a mostly short Operation
// whose widest defined value is long, amounts of several currencies.
func ledgerCols() []Column {
	return []Column{
		{Title: "Created", Width: 14, Priority: 9},
		{Title: "Cur", Max: 5, Priority: 8},
		{Title: "Operation", Max: 24, Priority: 7},
		{Title: "Amount", Max: 20, Align: Point, Priority: 9},
		{Title: "Status", Width: 7, Priority: 1},
		{Title: "Source", Width: 8, Max: 14, Priority: 2},
		{Title: "Before", Max: 20, Align: Point, Priority: 5},
		{Title: "After", Max: 20, Align: Point, Priority: 6},
		{Title: "Payment", Width: 9, Max: 36, Flex: 1, Priority: 4},
	}
}

func ledgerRow(id, op, amount, before, after string) Row {
	return Row{ID: id, Cells: []string{"11-27 23:54:43", "USD", op, amount, "SUCCESS", "PAYMENTS", before, after,
		"3e4fc4fa-58c1-4a4c-9d0d-4ad6b7f3c20e"}}
}

func ledgerRows() []Row {
	return []Row{
		ledgerRow("1", "RESERVE", "2702.90", "1351139.92", "1348437.02"),
		ledgerRow("2", "DEBIT", "460", "12980", "12520"),
		ledgerRow("3", "RELEASE", "17576.81", "1350398.08", "1367974.89"),
	}
}

// header is the first line of the table's view, its trailing blanks cut.
func header(m *Model) string {
	return strings.TrimRight(strings.Split(m.View(), "\n")[0], " ")
}

// TestColumnsGiveWayByPriority: at 80 columns the ledger ended at "Amount
// Status  Source" (Before, After and Payment gone) while Operation kept 24
// cells for RESERVE. Columns are as wide as their cells; the least useful
// give way first, whole, and the footer names them.
func TestColumnsGiveWayByPriority(t *testing.T) {
	m := newPlain(ledgerCols(), 80, 6)
	m.SetRows(ledgerRows(), t0)
	got := header(m)
	for _, want := range []string{"Created", "Cur", "Operation", "Amount", "Source", "Before", "After", "Payment"} {
		if !strings.Contains(got, want) {
			t.Errorf("header %q lacks %s", got, want)
		}
	}
	if strings.Contains(got, "Status") || strings.Contains(got, "…") {
		t.Errorf("header %q: Status is the least useful, and no title is cut", got)
	}
	if h := m.Hidden(); len(h) != 1 || h[0] != "Status" {
		t.Errorf("hidden %q, want Status (the rightmost, Payment, is more useful)", h)
	}
	if foot := m.Footer(); strings.Contains(foot, "not shown") {
		t.Errorf("Footer %q is the rows' count only", foot)
	}
	lines := strings.Split(m.View(), "\n")
	if foot := lines[len(lines)-1]; !strings.Contains(foot, "not shown at this width (←/→): Status") {
		t.Errorf("the footer line %q does not name the columns not shown", foot)
	}
	if op := strings.Index(got, "Operation"); strings.Index(got, "Amount")-op > len("Operation")+len("2702.90 ")+2 {
		t.Errorf("Operation is wider than its widest cell: %q", got)
	}
	m.SetSize(200, 6)
	if h := m.Hidden(); len(h) != 0 || !strings.Contains(m.View(), "3e4fc4fa-58c1-4a4c-9d0d-4ad6b7f3c20e") {
		t.Errorf("at 200 columns, hidden %q, or the payment id is cut:\n%s", h, m.View())
	}
}

// TestColumnsFollowTheirWidestCell: a column sized to its content shrinks
// when the row that held its widest cell leaves (the measures of a shared
// version are kept by Apply, not counted again).
func TestColumnsFollowTheirWidestCell(t *testing.T) {
	b := NewBuilder(func(a, b *Row) int { return strings.Compare(a.ID, b.ID) })
	d := b.Apply(ledgerRows(), nil, t0)
	if got := d.ContentWidth(2); got != len("RESERVE") {
		t.Fatalf("Operation measures %d, want %d", got, len("RESERVE"))
	}
	wide := ledgerRow("4", "OVERRIDE_PREFUND_BALANCE", "1", "1", "2")
	d = b.Apply([]Row{wide}, nil, t0)
	if got := d.ContentWidth(2); got != len("OVERRIDE_PREFUND_BALANCE") {
		t.Fatalf("Operation measures %d with an override, want %d", got, len("OVERRIDE_PREFUND_BALANCE"))
	}
	m := newPlain(ledgerCols(), 120, 8)
	m.SetData(d)
	if !strings.Contains(m.View(), "OVERRIDE_PREFUND_BALANCE") {
		t.Errorf("the override is cut at 120 columns:\n%s", m.View())
	}
	renamed := ledgerRow("1", "RESERVE", "2702.9", "1351139.92", "1348437.02")
	d = b.Apply([]Row{renamed}, []string{"4"}, t0)
	if got := d.ContentWidth(2); got != len("RESERVE") {
		t.Errorf("Operation measures %d once the override left, want %d", got, len("RESERVE"))
	}
	if got := d.FracWidth(3); got != len(".81") {
		t.Errorf("Amount's widest fraction is %d, want %d", got, len(".81"))
	}
	m.SetData(d)
	if strings.Contains(m.View(), "OVERRIDE") || !strings.Contains(header(m), "Operation Amount") &&
		!strings.Contains(header(m), "Operation  ") {
		t.Errorf("the view after the override left:\n%s", m.View())
	}
}

// TestPointLinesUpDecimals: amounts of currencies with different decimals
// stand with their decimal points in one column (an amount without one
// ends where the others' points are), before and after, in the amounts'
// columns.
func TestPointLinesUpDecimals(t *testing.T) {
	m := newPlain(ledgerCols(), 120, 6)
	m.SetRows(append(ledgerRows()[:2], ledgerRow("3", "RELEASE", "0.12345678", "1.5", "1.62345678")), t0)
	lines := strings.Split(m.View(), "\n")
	for _, col := range []int{3, 6, 7} {
		x := 0
		for j := range col {
			if m.c.widths[j] > 0 {
				x += m.c.widths[j] + 1
			}
		}
		w := m.c.widths[col]
		point := -1
		for _, l := range lines[1:4] {
			cell := l[x : x+w]
			i := strings.IndexByte(cell, '.')
			if i < 0 {
				i = len(strings.TrimRight(cell, " "))
			}
			if point >= 0 && i != point {
				t.Errorf("column %s: decimal points at %d and %d:\n%s", m.cols[col].Title, point, i, strings.Join(lines, "\n"))
			}
			point = i
		}
		if title := strings.TrimRight(lines[0][x:x+w], " "); !strings.HasSuffix(title, m.cols[col].Title) || len(title) != w {
			t.Errorf("the title of the Point column %s is not right-aligned: %q", m.cols[col].Title, lines[0][x:x+w])
		}
	}
}

// TestNarrowColumnComesBack: a narrow column of low priority, hidden
// before a wide one of higher priority gave way, is shown again when it
// fits in the room the wide one left (at 80 columns the payments' internal
// id fitted where the beneficiary had been).
func TestNarrowColumnComesBack(t *testing.T) {
	m := newPlain([]Column{
		{Title: "Id", Width: 10, Priority: 9},
		{Title: "Code", Width: 5, Priority: 1},
		{Title: "Description", Width: 30, Priority: 2},
	}, 20, 4)
	m.SetRows([]Row{{ID: "1", Cells: []string{"one", "A1", "the first"}}}, t0)
	if got := header(m); got != "Id         Code    ›" {
		t.Errorf("header %q, want Id and Code, and › for the column on the right", got)
	}
	if h := m.Hidden(); len(h) != 1 || h[0] != "Description" {
		t.Errorf("hidden %q, want Description", h)
	}
}

// TestShowOnlyInTheOrderNamed: the columns named are shown in the order
// named, which ShownColumns gives back (a saved view keeps it); the
// header and every row follow it; naming none shows every column in the
// table's order again.
func TestShowOnlyInTheOrderNamed(t *testing.T) {
	m := New(paymentCols(), plainStyles())
	m.SetSize(60, 6)
	m.SetRows([]Row{payment("p-1", "Ann", "10.00", "FAILED")}, t0)
	all := m.ColumnNames()
	if len(all) < 3 {
		t.Fatalf("columns %v", all)
	}
	want := []string{all[2], all[0]}
	if unknown := m.ShowOnly(want); len(unknown) != 0 {
		t.Fatalf("unknown %v", unknown)
	}
	if got := m.ShownColumns(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("shown %v, want %v", got, want)
	}
	lines := strings.Split(m.View(), "\n")
	head, row := lines[0], lines[1]
	c0, c2 := m.Columns()[0].Title, m.Columns()[2].Title
	if i, j := strings.Index(head, c2), strings.Index(head, c0); i < 0 || j < 0 || i > j {
		t.Fatalf("header %q: want %q before %q", head, c2, c0)
	}
	if i, j := strings.Index(row, "10.00"), strings.Index(row, "p-1"); i < 0 || j < 0 || i > j {
		t.Fatalf("row %q: want the third column's cell before the first's", row)
	}
	m.ShowOnly(nil)
	if m.ShownColumns() != nil || strings.Index(m.View(), c0) > strings.Index(m.View(), c2) {
		t.Fatalf("every column again: %v\n%s", m.ShownColumns(), m.View())
	}
}
