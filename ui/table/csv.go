package table

import (
	"encoding/csv"
	"io"
	"strconv"
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
		rec[i] = csvSafe(c.Title)
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for _, i := range m.view {
		r := &m.rows[i]
		for c := range m.cols {
			rec[c] = csvSafe(cellAt(r, c))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvSafe(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return s
		}
		return "'" + s
	}
	return s
}
