package reporting

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// utf8BOM starts some CSV and JSON files; it is not content.
const utf8BOM = "\ufeff"

// key is how a header name or JSON key finds its column: spaces around it
// and letter case do not matter.
func key(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

func (s schema[R]) index() map[string]int {
	m := make(map[string]int, len(s.cols))
	for i, c := range s.cols {
		m[c.name] = i
	}
	return m
}

// header maps a CSV header to the schema: col[i] is the column of header
// position i, -1 for an extra column; first[j] is the first position of
// column j (a later one with the same name must hold the same value), -1
// when the header lacks it (listed in missing).
type header struct {
	names   []string
	col     []int
	first   []int
	missing []int
}

func readHeader[R any](names []string, s schema[R]) (header, error) {
	if len(names) > MaxColumns {
		return header{}, &ParseError{Line: 1, Err: errTooManyColumns}
	}
	h := header{names: slices.Clone(names), col: make([]int, len(names)), first: make([]int, len(s.cols))}
	for j := range h.first {
		h.first[j] = -1
	}
	byName := s.index()
	for i, n := range names {
		j, ok := byName[key(n)]
		if !ok {
			h.col[i] = -1
			continue
		}
		h.col[i] = j
		if h.first[j] < 0 {
			h.first[j] = i
		}
	}
	for j, c := range s.cols {
		if h.first[j] >= 0 {
			continue
		}
		if c.required {
			return h, &ParseError{Line: 1, Column: c.name, Err: ErrMissingColumn}
		}
		h.missing = append(h.missing, j)
	}
	return h, nil
}

// parseCSV reads a CSV report: the rows read, and those skipped with why.
// A spec column the header lacks is absent on every row. More than
// maxRows rows (MaxRows) cannot be read at all.
func parseCSV[R any](data []byte, s schema[R], maxRows int) ([]R, skips, error) {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, skips{}, nil
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.ReuseRecord = true
	names, err := cr.Read()
	if err != nil {
		return nil, skips{}, csvError(err)
	}
	h, err := readHeader(names, s)
	if err != nil {
		return nil, skips{}, err
	}
	var out rowBuf[R]
	var sk skips
	r := new(R) // one for all rows, so a row skipped costs no row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out.rows(), sk, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if !errors.As(err, &pe) {
				return nil, skips{}, &ParseError{Line: 1, Err: err}
			}
			if len(sk.list) >= MaxSkipped {
				sk.n++
				continue
			}
			e := csvError(err)
			if errors.Is(err, csv.ErrFieldCount) {
				e.Err = fmt.Errorf("%w: %d where the header has %d", csv.ErrFieldCount, len(rec), len(h.names))
			}
			sk.addError(e)
			continue
		}
		line, _ := cr.FieldPos(0)
		if f := csvRow(r, rec, h, s); !f.ok() {
			sk.add(f, line)
			continue
		}
		if out.n == maxRows {
			return nil, skips{}, &ParseError{Line: line, Err: fmt.Errorf("more than %d rows: %w", maxRows, ErrTooManyRows)}
		}
		out.add(*r)
	}
}

// csvRow reads one record into r: its cells in header order, the unknown
// ones kept as extra columns.
func csvRow[R any](r *R, rec []string, h header, s schema[R]) fault {
	var zero R
	*r = zero
	for _, j := range h.missing {
		s.cols[j].set(r, absent()) // never fails
	}
	var extra []Field
	for i, v := range rec {
		j := h.col[i]
		switch {
		case j < 0:
			extra = append(extra, Field{Name: h.names[i], Value: v})
			continue
		case h.first[j] != i:
			if rec[h.first[j]] != v {
				return fault{column: s.cols[j].name, err: ErrDuplicateColumn}
			}
			continue
		}
		if err := s.cols[j].set(r, cell{text: v}); err != nil {
			return fault{column: s.cols[j].name, err: err}
		}
	}
	if f := s.check(r); !f.ok() {
		return f
	}
	*s.extra(r) = extra
	return fault{}
}

// check is the row's first required column without a value, if any.
func (s schema[R]) check(r *R) fault {
	for _, c := range s.cols {
		if c.required && strings.TrimSpace(c.get(r)) == "" {
			return fault{column: c.name, err: ErrRequired}
		}
	}
	return fault{}
}

// csvError is a CSV reading error at the line where its record starts,
// saying which lines it spans when it swallowed more than one (an
// unterminated quote).
func csvError(err error) *ParseError {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return &ParseError{Line: 1, Err: err}
	}
	e := pe.Err
	if pe.Line > pe.StartLine {
		e = fmt.Errorf("%w (the record runs to line %d)", pe.Err, pe.Line)
	}
	return &ParseError{Line: pe.StartLine, Err: e}
}

// extraKey names the n-th extra column of one name in a row (a CSV header
// may repeat a name).
type extraKey struct {
	name string
	n    int
}

// extraColumns are the extra columns of rows for a CSV header, in the
// order first seen, with their position after the spec's columns.
func extraColumns[R any](rows []R, s schema[R]) ([]string, map[extraKey]int) {
	var names []string
	var at map[extraKey]int
	seen := map[string]int{}
	for i := range rows {
		ex := *s.extra(&rows[i])
		if len(ex) == 0 {
			continue
		}
		if at == nil {
			at = map[extraKey]int{}
		}
		clear(seen)
		for _, f := range ex {
			k := extraKey{f.Name, seen[f.Name]}
			seen[f.Name]++
			if _, ok := at[k]; !ok {
				at[k] = len(names)
				names = append(names, f.Name)
			}
		}
	}
	return names, at
}

func writeCSV[R any](w io.Writer, rows []R, s schema[R]) error {
	cw := csv.NewWriter(w)
	extra, at := extraColumns(rows, s)
	n := len(s.cols)
	rec := append(names(s.cols), extra...)
	if err := cw.Write(rec); err != nil {
		return err
	}
	seen := map[string]int{}
	for i := range rows {
		for j, c := range s.cols {
			rec[j] = c.get(&rows[i])
		}
		if len(extra) > 0 {
			clear(rec[n:])
			clear(seen)
			for _, f := range *s.extra(&rows[i]) {
				rec[n+at[extraKey{f.Name, seen[f.Name]}]] = f.Value
				seen[f.Name]++
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
