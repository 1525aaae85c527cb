package table

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// A table's layout, as a saved view keeps it: the columns shown, by the
// names a search uses (ColumnName), and the column sorted by.

// LayoutError is a layout the table cannot take: Sort says it is the
// column to sort by, else one of the columns to show.
type LayoutError struct {
	Sort bool
	Msg  string
}

func (e *LayoutError) Error() string { return e.Msg }

// ColumnNames are every column's name, in the table's order.
func (m *Model) ColumnNames() []string { return strings.Split(m.names, "\x00") }

// ShownColumns are the names of the columns ShowOnly left shown, in their
// order on screen; nil when every column is, in the table's order
// (whatever the width hides).
func (m *Model) ShownColumns() []string {
	if m.off == nil {
		return nil
	}
	all := m.ColumnNames()
	var out []string
	for _, i := range m.columnOrder() {
		if !m.off[i] {
			out = append(out, all[i])
		}
	}
	return out
}

// SortName is the name of the column sorted by ("" for the given order)
// and whether it is descending.
func (m *Model) SortName() (string, bool) {
	if m.sortCol < 0 || m.sortCol >= len(m.cols) {
		return "", false
	}
	return m.ColumnNames()[m.sortCol], m.sortDesc
}

// SetLayout shows only the columns named (none: every one) and sorts by
// the column named sort ("" keeps the order given); a name that is no
// column, or a column that does not sort, is an error naming the
// columns there are, and changes nothing. A large table sorts in the
// command returned.
func (m *Model) SetLayout(columns []string, sort string, desc bool) (tea.Cmd, error) {
	all := m.ColumnNames()
	for _, c := range columns {
		if columnNamed(all, c) < 0 {
			return nil, &LayoutError{Msg: fmt.Sprintf("no column %q (columns: %s)", c, strings.Join(all, ", "))}
		}
	}
	col := -1
	if sort != "" {
		if col = columnNamed(all, sort); col < 0 {
			return nil, &LayoutError{Sort: true, Msg: fmt.Sprintf("no column %q to sort by (columns: %s)", sort, strings.Join(all, ", "))}
		}
		if m.cols[col].NoSort {
			return nil, &LayoutError{Sort: true, Msg: fmt.Sprintf("column %q does not sort", sort)}
		}
	}
	m.ShowOnly(columns)
	if col < 0 {
		return nil, nil
	}
	return m.SetSort(col, desc), nil
}
