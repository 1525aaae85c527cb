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
func (m *Model) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	rec := make([]string, len(m.cols))
	for i, c := range m.cols {
		rec[i] = sanitize.CSVCell(c.Title)
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for _, i := range m.view {
		r := m.data.row(i)
		if r == nil {
			continue
		}
		for c := range m.cols {
			rec[c] = sanitize.CSVCell(cellAt(r, c))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
