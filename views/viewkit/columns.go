package viewkit

import (
	"treasury/figures/columns"
	"treasury/ui/sanitize"
	"treasury/ui/table"
)

// Columns are the table columns of a record type's short columns, as
// package columns declares them for the views and `treasury get` alike.
func Columns[T any](s columns.Set[T]) []table.Column {
	out := make([]table.Column, len(s))
	for i, c := range s {
		out[i] = table.Column{Title: c.Title, Width: c.Width, Max: c.Max, Flex: c.Flex, Priority: c.Priority,
			Align: align(c.Align)}
	}
	return out
}

// RowOf is rec's row in a table of the short columns s, judged at at: its
// cells sanitized, its sort keys. The caller sets what else the row needs
// (its group).
func RowOf[T any](s columns.Set[T], id string, rec T, at columns.At) table.Row {
	cells := make([]string, len(s))
	keys := make([]table.Key, len(s))
	for i, c := range s {
		cells[i] = sanitize.Line(c.Text(rec, at))
		if c.Sort != nil {
			keys[i] = sortKey(c.Sort(rec))
		}
	}
	return table.Row{ID: id, Cells: cells, Keys: keys}
}

// align is the table's alignment for a declared one.
func align(a columns.Align) table.Align {
	switch a {
	case columns.Right:
		return table.Right
	case columns.Point:
		return table.Point
	}
	return table.Left
}

// sortKey is the table's key for a declared sort key.
func sortKey(k columns.Sort) table.Key {
	switch k.By {
	case columns.ByTime:
		return table.Time(k.Time)
	case columns.ByDecimal:
		return table.Decimal(k.Decimal)
	case columns.ByInt:
		return table.Int(k.Int)
	}
	return table.Key{}
}
