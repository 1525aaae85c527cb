package reporting

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Errors a ParseError wraps when a column is at fault.
var (
	// ErrMissingColumn: a CSV header lacks a required column, so no row
	// could say which payment it is.
	ErrMissingColumn = errors.New("missing column")
	// ErrRequired: a row has no value in a required column.
	ErrRequired = errors.New("a value is required: it identifies the row")
	// ErrDuplicateColumn: a row holds one column twice with different
	// values (twice with the same value is read once).
	ErrDuplicateColumn = errors.New("the column appears twice with different values")
)

// ParseError says where a report's content could not be read: the 1-based
// line of the content (a CSV header is line 1; for JSON, the line where the
// row object starts) and the column, when one is at fault. It is the error
// of content that cannot be read at all, and the reason of each row
// skipped (Rows.Skipped). Line is 0 for a row decoded on its own
// (json.Unmarshal of a row).
type ParseError struct {
	Line   int
	Column string
	Err    error
}

func (e *ParseError) Error() string {
	where := "report row"
	if e.Line > 0 {
		where = fmt.Sprintf("report line %d", e.Line)
	}
	if e.Column != "" {
		return fmt.Sprintf("%s, column %q: %v", where, e.Column, e.Err)
	}
	return fmt.Sprintf("%s: %v", where, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// MaxRows bounds the rows a parse reads: a report of more is refused
// whole (its content can still be saved as downloaded). A row is a few
// hundred bytes however short its text ("a,b" is a RECON row of 600
// bytes), so without it the 256 MiB a download may hold could cost tens
// of gigabytes; a quarter of a million rows is several times the busiest
// month the reports were sized for.
const MaxRows = 250_000

// MaxColumns bounds the columns of a report: a CSV header, or a JSON row
// object, of more cannot be read at all. The spec's rows have about
// twenty-five; every column costs its own allocations on every row.
const MaxColumns = 1000

// errTooManyColumns is the error of a row or header past MaxColumns.
var errTooManyColumns = fmt.Errorf("more than %d columns: not a report of rows", MaxColumns)

// ErrTooManyRows is the error (a ParseError's) of content of more than
// MaxRows rows.
var ErrTooManyRows = errors.New("too many rows to read here; the report can be saved as downloaded")

// MaxSkipped bounds the skipped rows a parse lists (Rows.Skipped,
// SkippedRows.Rows); the counts (Rows.SkippedCount, SkippedRows.Count)
// count them all. A report of a million rows that are each "1," must not
// hold a million errors.
const MaxSkipped = 1000

// SkippedRows is the error the per-type parsers (ParsePaymentOpsCSV...)
// return beside the rows they could read when some rows could not be
// read: Rows says which and why, in report order (the first MaxSkipped),
// Count how many were skipped. errors.As finds the first skipped row's
// *ParseError.
type SkippedRows struct {
	Rows  []*ParseError
	Count int
}

func (e *SkippedRows) Error() string {
	n := max(e.Count, len(e.Rows))
	if n == 1 {
		return fmt.Sprintf("1 report row skipped: %v", e.Rows[0])
	}
	return fmt.Sprintf("%d report rows skipped; the first: %v", n, e.Rows[0])
}

func (e *SkippedRows) Unwrap() error {
	if len(e.Rows) == 0 {
		return nil
	}
	return e.Rows[0]
}

// Rows is the parsed content of a downloaded report: PaymentOps for a
// PAYMENT_OPS report, Recon for a RECON report.
type Rows struct {
	Type       string
	PaymentOps []PaymentOpsRow
	Recon      []ReconRow
	// Skipped are the rows that could not be read, in report order, each
	// with its line, its column when one is at fault, and why: the first
	// MaxSkipped of them. The other rows are in PaymentOps or Recon.
	Skipped []*ParseError
	// SkippedCount is how many rows could not be read (Skipped lists at
	// most MaxSkipped); see Skips.
	SkippedCount int
}

// Len is the number of rows read (the skipped ones are not counted).
func (r *Rows) Len() int { return len(r.PaymentOps) + len(r.Recon) }

// Skips is how many rows could not be read: SkippedCount, or the length
// of Skipped for Rows built in code without a count.
func (r *Rows) Skips() int { return max(r.SkippedCount, len(r.Skipped)) }

// fault is why a row cannot be read, as a value: a ParseError is built
// from it only for the rows a parse lists (MaxSkipped), so a skipped row
// costs no allocation of its own.
type fault struct {
	column    string
	err       error
	notObject []byte // a JSON row that is not an object: its text
}

func (f fault) ok() bool { return f.err == nil && f.notObject == nil }

// parseError is the fault at line (0: a row read on its own).
func (f fault) parseError(line int) *ParseError {
	if f.notObject != nil {
		what := bytes.TrimLeft(f.notObject, " \t\r\n,")
		return &ParseError{Line: line, Err: fmt.Errorf("row is not a JSON object: %s", clip(string(what[:min(len(what), 64)])))}
	}
	return &ParseError{Line: line, Column: f.column, Err: f.err}
}

// rowBuf gathers the rows of a parse in chunks, then copies them once into
// a slice of their number: reading n rows allocates them about twice,
// where append's growth (a quarter at a time for large slices) would
// allocate them five times over.
type rowBuf[R any] struct {
	chunks [][]R
	n      int
}

func (b *rowBuf[R]) add(r R) {
	if k := len(b.chunks); k == 0 || len(b.chunks[k-1]) == cap(b.chunks[k-1]) {
		b.chunks = append(b.chunks, make([]R, 0, 16<<min(k, 6))) // 16, 32 ... 1024 rows
	}
	last := &b.chunks[len(b.chunks)-1]
	*last = append(*last, r)
	b.n++
}

// rows are the rows gathered, nil when none.
func (b *rowBuf[R]) rows() []R {
	switch len(b.chunks) {
	case 0:
		return nil
	case 1:
		return b.chunks[0]
	}
	out := make([]R, 0, b.n)
	for _, c := range b.chunks {
		out = append(out, c...)
	}
	return out
}

// skips collects the rows a parse skipped: the first MaxSkipped listed,
// all counted.
type skips struct {
	list []*ParseError
	n    int
}

func (s *skips) add(f fault, line int) {
	s.n++
	if len(s.list) < MaxSkipped {
		s.list = append(s.list, f.parseError(line))
	}
}

// addError lists a skip whose error is already built (a CSV record that
// cannot be read).
func (s *skips) addError(e *ParseError) {
	s.n++
	if len(s.list) < MaxSkipped {
		s.list = append(s.list, e)
	}
}

// ParseRows parses report content of the given type (PAYMENT_OPS or RECON)
// and format (CSV or JSON). Empty content is a report without rows. A row
// that cannot be read is skipped (Rows.Skipped); the error is for content
// that cannot be read at all (not CSV or JSON, a CSV header without a
// required column, JSON that is not an array of rows).
func ParseRows(typ, format string, data []byte) (*Rows, error) {
	rows := &Rows{Type: typ}
	var sk skips
	var err error
	switch {
	case typ == TypePaymentOps && format == FormatCSV:
		rows.PaymentOps, sk, err = parseCSV(data, opsSchema(), MaxRows)
	case typ == TypePaymentOps && format == FormatJSON:
		rows.PaymentOps, sk, err = parseJSON(data, opsSchema(), MaxRows)
	case typ == TypeRecon && format == FormatCSV:
		rows.Recon, sk, err = parseCSV(data, reconSchema(), MaxRows)
	case typ == TypeRecon && format == FormatJSON:
		rows.Recon, sk, err = parseJSON(data, reconSchema(), MaxRows)
	default:
		return nil, fmt.Errorf("report of type %q in format %q: unsupported (want %s or %s, %s or %s)",
			clip(typ), clip(format), TypePaymentOps, TypeRecon, FormatCSV, FormatJSON)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", typ, format, err)
	}
	rows.Skipped, rows.SkippedCount = sk.list, sk.n
	return rows, nil
}

// partial is the result of a per-type parser: the rows read, with a
// *SkippedRows error when some were skipped; nil rows and the error when
// the content could not be read.
func partial[R any](rows []R, sk skips, err error) ([]R, error) {
	if err != nil {
		return nil, err
	}
	if sk.n > 0 {
		return rows, &SkippedRows{Rows: sk.list, Count: sk.n}
	}
	return rows, nil
}

// ParsePaymentOpsCSV parses a PAYMENT_OPS report in CSV: a header row
// naming columns (those of 2.5 in any order and letter case, others kept
// as Extra; network_payment_id must be there), then one row per payment.
// Rows that cannot be read are skipped: see SkippedRows.
func ParsePaymentOpsCSV(data []byte) ([]PaymentOpsRow, error) {
	return partial(parseCSV(data, opsSchema(), MaxRows))
}

// ParseReconCSV parses a RECON report in CSV, like ParsePaymentOpsCSV
// (network_payment_id and transaction_id must be in the header).
func ParseReconCSV(data []byte) ([]ReconRow, error) {
	return partial(parseCSV(data, reconSchema(), MaxRows))
}

// ParsePaymentOpsJSON parses a PAYMENT_OPS report in JSON: an array of row
// objects with the spec's names. Any value may be null, "" or absent but
// network_payment_id; amounts are JSON numbers or strings; other keys are
// kept as Extra. Rows that cannot be read are skipped: see SkippedRows.
func ParsePaymentOpsJSON(data []byte) ([]PaymentOpsRow, error) {
	return partial(parseJSON(data, opsSchema(), MaxRows))
}

// ParseReconJSON parses a RECON report in JSON, like ParsePaymentOpsJSON
// (network_payment_id and transaction_id are required).
func ParseReconJSON(data []byte) ([]ReconRow, error) {
	return partial(parseJSON(data, reconSchema(), MaxRows))
}

// WritePaymentOpsCSV writes rows as a PAYMENT_OPS CSV report: the spec's
// columns in its order (absent values empty), then the rows' extra
// columns in the order first seen: what ParsePaymentOpsCSV reads back.
func WritePaymentOpsCSV(w io.Writer, rows []PaymentOpsRow) error {
	return writeCSV(w, rows, opsSchema())
}

// WriteReconCSV writes rows as a RECON CSV report, like WritePaymentOpsCSV.
func WriteReconCSV(w io.Writer, rows []ReconRow) error { return writeCSV(w, rows, reconSchema()) }
