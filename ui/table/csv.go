package table

import (
	"encoding/csv"
	"io"
	"iter"

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

// Shown returns the ids of the rows as shown now, filtered and sorted, to
// be read later on any goroutine (an export of the records behind them):
// it holds the version and the view asked at, both immutable.
func (m *Model) Shown() iter.Seq[string] {
	data, view := m.data, m.view
	return func(yield func(string) bool) {
		for _, s := range view {
			if r := data.row(s); r != nil && !yield(r.ID) {
				return
			}
		}
	}
}

// WriteRecordsCSV writes a CSV of header and one record per id of ids
// (those row returns false for are left out), every cell through the
// CSV sanitizer: an export of the records as data (amounts and their
// currencies apart, times in ISO 8601), not of the cells as shown.
func WriteRecordsCSV(w io.Writer, header []string, ids iter.Seq[string], row func(id string) ([]string, bool)) error {
	cw := csv.NewWriter(w)
	rec := make([]string, len(header))
	for i, h := range header {
		rec[i] = sanitize.CSVCell(h)
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for id := range ids {
		cells, ok := row(id)
		if !ok {
			continue
		}
		for i := range rec {
			rec[i] = ""
			if i < len(cells) {
				rec[i] = sanitize.CSVCell(sanitize.Line(cells[i]))
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
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
