package table

import (
	"encoding/csv"
	"io"
	"treasury/ui/sanitize"
)

// WriteCSV writes the rows as shown (filtered and sorted), every column, with
// a header line of column titles.
//
// A cell a spreadsheet would take for a formula (starting with =, +, -, @,
// tab or CR, and not a plain number) is prefixed with a single quote, so that
// exported network text cannot run as a formula.
func (m *Model) WriteCSV(w io.Writer) error { return m.CSV()(w) }

// CSV returns a writer of the rows as shown now, filtered and sorted: it
// holds the version of the rows and the view it was asked at (both
// immutable), so it may run on any goroutine while the table moves on.
func (m *Model) CSV() func(io.Writer) error {
	cols, data, view := m.cols, m.data, m.view
	return func(w io.Writer) error { return writeCSV(w, cols, data, view) }
}

func writeCSV(w io.Writer, cols []Column, data *Rows, view []int32) error {
	cw := csv.NewWriter(w)
	rec := make([]string, len(cols))
	for i, c := range cols {
		rec[i] = sanitize.CSVCell(c.Title)
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for _, i := range view {
		r := data.row(i)
		if r == nil {
			continue
		}
		for c := range cols {
			rec[c] = sanitize.CSVCell(cellAt(r, c))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
