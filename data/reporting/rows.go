package reporting

import (
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

// SkippedRows is the error the per-type parsers (ParsePaymentOpsCSV...)
// return beside the rows they could read when some rows could not be
// read: Rows says which and why, in report order. errors.As finds the
// first skipped row's *ParseError.
type SkippedRows struct {
	Rows []*ParseError
}

func (e *SkippedRows) Error() string {
	if len(e.Rows) == 1 {
		return fmt.Sprintf("1 report row skipped: %v", e.Rows[0])
	}
	return fmt.Sprintf("%d report rows skipped; the first: %v", len(e.Rows), e.Rows[0])
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
	// with its line, its column when one is at fault, and why. The other
	// rows are in PaymentOps or Recon.
	Skipped []*ParseError
}

// Len is the number of rows read (the skipped ones are not counted).
func (r *Rows) Len() int { return len(r.PaymentOps) + len(r.Recon) }

// ParseRows parses report content of the given type (PAYMENT_OPS or RECON)
// and format (CSV or JSON). Empty content is a report without rows. A row
// that cannot be read is skipped (Rows.Skipped); the error is for content
// that cannot be read at all (not CSV or JSON, a CSV header without a
// required column, JSON that is not an array of rows).
func ParseRows(typ, format string, data []byte) (*Rows, error) {
	rows := &Rows{Type: typ}
	var err error
	switch {
	case typ == TypePaymentOps && format == FormatCSV:
		rows.PaymentOps, rows.Skipped, err = parseCSV(data, opsSchema())
	case typ == TypePaymentOps && format == FormatJSON:
		rows.PaymentOps, rows.Skipped, err = parseJSON(data, opsSchema())
	case typ == TypeRecon && format == FormatCSV:
		rows.Recon, rows.Skipped, err = parseCSV(data, reconSchema())
	case typ == TypeRecon && format == FormatJSON:
		rows.Recon, rows.Skipped, err = parseJSON(data, reconSchema())
	default:
		return nil, fmt.Errorf("report of type %q in format %q: unsupported (want %s or %s, %s or %s)",
			clip(typ), clip(format), TypePaymentOps, TypeRecon, FormatCSV, FormatJSON)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", typ, format, err)
	}
	return rows, nil
}

// partial is the result of a per-type parser: the rows read, with a
// *SkippedRows error when some were skipped; nil rows and the error when
// the content could not be read.
func partial[R any](rows []R, skipped []*ParseError, err error) ([]R, error) {
	if err != nil {
		return nil, err
	}
	if len(skipped) > 0 {
		return rows, &SkippedRows{Rows: skipped}
	}
	return rows, nil
}

// ParsePaymentOpsCSV parses a PAYMENT_OPS report in CSV: a header row
// naming columns (those of 2.5 in any order and letter case, others kept
// as Extra; network_payment_id must be there), then one row per payment.
// Rows that cannot be read are skipped: see SkippedRows.
func ParsePaymentOpsCSV(data []byte) ([]PaymentOpsRow, error) {
	return partial(parseCSV(data, opsSchema()))
}

// ParseReconCSV parses a RECON report in CSV, like ParsePaymentOpsCSV
// (network_payment_id and transaction_id must be in the header).
func ParseReconCSV(data []byte) ([]ReconRow, error) { return partial(parseCSV(data, reconSchema())) }

// ParsePaymentOpsJSON parses a PAYMENT_OPS report in JSON: an array of row
// objects with the spec's names. Any value may be null, "" or absent but
// network_payment_id; amounts are JSON numbers or strings; other keys are
// kept as Extra. Rows that cannot be read are skipped: see SkippedRows.
func ParsePaymentOpsJSON(data []byte) ([]PaymentOpsRow, error) {
	return partial(parseJSON(data, opsSchema()))
}

// ParseReconJSON parses a RECON report in JSON, like ParsePaymentOpsJSON
// (network_payment_id and transaction_id are required).
func ParseReconJSON(data []byte) ([]ReconRow, error) { return partial(parseJSON(data, reconSchema())) }

// WritePaymentOpsCSV writes rows as a PAYMENT_OPS CSV report: the spec's
// columns in its order (absent values empty), then the rows' extra
// columns in the order first seen: what ParsePaymentOpsCSV reads back.
func WritePaymentOpsCSV(w io.Writer, rows []PaymentOpsRow) error {
	return writeCSV(w, rows, opsSchema())
}

// WriteReconCSV writes rows as a RECON CSV report, like WritePaymentOpsCSV.
func WriteReconCSV(w io.Writer, rows []ReconRow) error { return writeCSV(w, rows, reconSchema()) }
