package reporting

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Errors a ParseError wraps when the columns of a report are not the
// spec's.
var (
	ErrUnknownColumn   = errors.New("unknown column")
	ErrMissingColumn   = errors.New("missing column")
	ErrDuplicateColumn = errors.New("duplicate column")
)

// ParseError says where a report's content could not be read: the 1-based
// line of the content (a CSV header is line 1; for JSON, the line where the
// row object starts) and the column, when one is at fault.
type ParseError struct {
	Line   int
	Column string
	Err    error
}

func (e *ParseError) Error() string {
	if e.Column != "" {
		return fmt.Sprintf("report line %d, column %q: %v", e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("report line %d: %v", e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Rows is the parsed content of a downloaded report: PaymentOps for a
// PAYMENT_OPS report, Recon for a RECON report.
type Rows struct {
	Type       string
	PaymentOps []PaymentOpsRow
	Recon      []ReconRow
}

// Len is the number of rows.
func (r *Rows) Len() int { return len(r.PaymentOps) + len(r.Recon) }

// ParseRows parses report content of the given type (PAYMENT_OPS or RECON)
// and format (CSV or JSON). Empty content is a report without rows.
func ParseRows(typ, format string, data []byte) (*Rows, error) {
	rows := &Rows{Type: typ}
	var err error
	switch {
	case typ == TypePaymentOps && format == FormatCSV:
		rows.PaymentOps, err = ParsePaymentOpsCSV(data)
	case typ == TypePaymentOps && format == FormatJSON:
		rows.PaymentOps, err = ParsePaymentOpsJSON(data)
	case typ == TypeRecon && format == FormatCSV:
		rows.Recon, err = ParseReconCSV(data)
	case typ == TypeRecon && format == FormatJSON:
		rows.Recon, err = ParseReconJSON(data)
	default:
		return nil, fmt.Errorf("report of type %q in format %q: unsupported (want %s or %s, %s or %s)",
			clip(typ), clip(format), TypePaymentOps, TypeRecon, FormatCSV, FormatJSON)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", typ, format, err)
	}
	return rows, nil
}

// ParsePaymentOpsCSV parses a PAYMENT_OPS report in CSV: a header row naming
// every column of 2.5 exactly (in any order), then one row per payment.
func ParsePaymentOpsCSV(data []byte) ([]PaymentOpsRow, error) {
	return parseCSV(data, paymentOpsColumns())
}

// ParseReconCSV parses a RECON report in CSV: a header row naming every
// column of 2.6 exactly (in any order), then one line per transaction.
func ParseReconCSV(data []byte) ([]ReconRow, error) { return parseCSV(data, reconColumns()) }

// ParsePaymentOpsJSON parses a PAYMENT_OPS report in JSON: an array of row
// objects with the spec's names. Role-specific fields may be null or absent.
func ParsePaymentOpsJSON(data []byte) ([]PaymentOpsRow, error) {
	return parseJSON(data, paymentOpsColumns())
}

// ParseReconJSON parses a RECON report in JSON, like ParsePaymentOpsJSON.
func ParseReconJSON(data []byte) ([]ReconRow, error) { return parseJSON(data, reconColumns()) }

// WritePaymentOpsCSV writes rows as a PAYMENT_OPS CSV report, columns in
// the spec's order: what ParsePaymentOpsCSV reads back.
func WritePaymentOpsCSV(w io.Writer, rows []PaymentOpsRow) error {
	return writeCSV(w, rows, paymentOpsColumns())
}

// WriteReconCSV writes rows as a RECON CSV report.
func WriteReconCSV(w io.Writer, rows []ReconRow) error { return writeCSV(w, rows, reconColumns()) }

var utf8BOM = []byte("\ufeff")

func index[R any](cols []column[R]) map[string]int {
	m := make(map[string]int, len(cols))
	for i, c := range cols {
		m[c.name] = i
	}
	return m
}

func parseCSV[R any](data []byte, cols []column[R]) ([]R, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, csvError(err)
	}
	byName := index(cols)
	pos := make([]int, len(header)) // header position -> column
	seen := make([]bool, len(cols))
	for i, h := range header {
		j, ok := byName[h]
		if !ok {
			return nil, &ParseError{Line: 1, Column: clip(h), Err: ErrUnknownColumn}
		}
		if seen[j] {
			return nil, &ParseError{Line: 1, Column: h, Err: ErrDuplicateColumn}
		}
		seen[j], pos[i] = true, j
	}
	for j, ok := range seen {
		if !ok {
			return nil, &ParseError{Line: 1, Column: cols[j].name, Err: ErrMissingColumn}
		}
	}
	var out []R
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := cr.FieldPos(0)
		var r R
		for i, v := range rec {
			c := cols[pos[i]]
			if err := c.set(&r, cell{text: v}); err != nil {
				return nil, &ParseError{Line: line, Column: c.name, Err: err}
			}
		}
		out = append(out, r)
	}
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{Line: pe.Line, Err: pe.Err}
	}
	return &ParseError{Line: 1, Err: err}
}

func writeCSV[R any](w io.Writer, rows []R, cols []column[R]) error {
	cw := csv.NewWriter(w)
	rec := names(cols)
	if err := cw.Write(rec); err != nil {
		return err
	}
	for i := range rows {
		for j, c := range cols {
			rec[j] = c.get(&rows[i])
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func parseJSON[R any](data []byte, cols []column[R]) ([]R, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	if t := bytes.TrimSpace(data); len(t) == 0 || string(t) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return nil, &ParseError{Line: lineAt(data, 0), Err: errors.New("a JSON report must be an array of row objects")}
	}
	byName := index(cols)
	lines := lineCounter{data: data}
	var out []R
	for dec.More() {
		line := lines.at(dec.InputOffset())
		var obj map[string]json.RawMessage
		if err := dec.Decode(&obj); err != nil {
			return nil, &ParseError{Line: line, Err: fmt.Errorf("row is not a JSON object: %w", err)}
		}
		if obj == nil {
			return nil, &ParseError{Line: line, Err: errors.New("row is null")}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			if _, ok := byName[k]; !ok {
				keys = append(keys, k)
			}
		}
		if len(keys) > 0 {
			slices.Sort(keys)
			return nil, &ParseError{Line: line, Column: clip(keys[0]), Err: ErrUnknownColumn}
		}
		var r R
		for _, c := range cols {
			raw, ok := obj[c.name]
			if !ok {
				if c.optional {
					continue
				}
				return nil, &ParseError{Line: line, Column: c.name, Err: ErrMissingColumn}
			}
			v, err := jsonCell(raw)
			if err == nil {
				err = c.set(&r, v)
			}
			if err != nil {
				return nil, &ParseError{Line: line, Column: c.name, Err: err}
			}
		}
		out = append(out, r)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, &ParseError{Line: lineAt(data, dec.InputOffset()), Err: errors.New("unterminated array of rows")}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &ParseError{Line: lineAt(data, dec.InputOffset()), Err: errors.New("content after the array of rows")}
	}
	return out, nil
}

// jsonCell reads one JSON value of a row: a string, a number or null.
func jsonCell(raw json.RawMessage) (cell, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return cell{null: true}, nil
	}
	switch b := raw[0]; {
	case b == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return cell{}, err
		}
		return cell{text: s}, nil
	case b == 'n':
		return cell{null: true}, nil
	case b == '-' || (b >= '0' && b <= '9'):
		return cell{text: string(raw), number: true}, nil
	}
	return cell{}, fmt.Errorf("expected a string, number or null, got %s", clip(string(raw)))
}

// lineCounter finds lines like lineAt, counting only the newlines since
// the previous offset asked, so reading a report row by row stays linear.
type lineCounter struct {
	data     []byte
	off      int // bytes counted so far
	newlines int // newlines in data[:off]
}

func (c *lineCounter) at(off int64) int {
	i := skipSeparators(c.data, off)
	if i < c.off {
		c.off, c.newlines = 0, 0
	}
	c.newlines += bytes.Count(c.data[c.off:i], []byte("\n"))
	c.off = i
	return 1 + c.newlines
}

// lineAt is the 1-based line of the first byte at or after off that is not
// space or a comma between values.
func lineAt(data []byte, off int64) int {
	return 1 + bytes.Count(data[:skipSeparators(data, off)], []byte("\n"))
}

// skipSeparators is the index of the first byte at or after off that is
// not space or a comma.
func skipSeparators(data []byte, off int64) int {
	i := int(min(max(off, 0), int64(len(data))))
	for i < len(data) && strings.IndexByte(" \t\r\n,", data[i]) >= 0 {
		i++
	}
	return i
}
