package reporting

import (
	"fmt"
	"strings"
	"time"

	"treasury/wire/money"
)

// cell is one value of a report row as read from CSV or JSON. null is true
// for a JSON null (and never for CSV, where an empty cell is empty text).
// number is true for a JSON number literal.
type cell struct {
	text   string
	null   bool
	number bool
}

// empty reports whether the cell holds no value: JSON null, or text that
// is empty or only spaces.
func (c cell) empty() bool { return c.null || strings.TrimSpace(c.text) == "" }

// absent is the cell of a column the row does not have (a key the JSON
// row lacks, a column the CSV header lacks): set reads it as an absent
// value, so that an amount held with a flag is not read as 0.
func absent() cell { return cell{null: true} }

// kind is what a column holds, which says how JSON writes it.
type kind uint8

const (
	kindText   kind = iota // a JSON string, "" when absent
	kindAmount             // a JSON number, null when absent
	kindTime               // a JSON string, null when absent
)

// column names one field of a row type and converts it both ways: set
// reads a cell (an empty cell is an absent value, never an error), get
// writes the value as CSV text, "" when absent. A required column must
// hold a value: it says which payment (or transaction) the row is.
type column[R any] struct {
	name     string
	kind     kind
	required bool
	set      func(r *R, c cell) error
	get      func(r *R) string
}

// schema is a row type's columns in the spec's order and where its extra
// columns go.
type schema[R any] struct {
	cols  []column[R]
	extra func(r *R) *[]Field
}

// parseTime reads an ISO 8601 date-time: RFC 3339, with a space for the T,
// with an offset without its colon (+0000), without a zone (taken as UTC,
// as the report periods are UTC), or a date alone (its midnight UTC).
func parseTime(s string) (time.Time, error) {
	layouts := [...]string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999Z0700", "2006-01-02"}
	s = strings.TrimSpace(s)
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an ISO 8601 date-time", clip(s))
}

func formatTime(t time.Time) string { return t.Format(time.RFC3339Nano) }

func parseAmount(s string) (money.Number, error) {
	d, err := money.Parse(strings.TrimSpace(s))
	if err != nil {
		return money.Number{}, fmt.Errorf("%q is not a decimal amount", clip(s))
	}
	return money.N(d), nil
}

func amountCell(c cell) (money.Number, error) { return parseAmount(c.text) }

func amountText(n money.Number) string { return n.Decimal().String() }

func timeCell(c cell) (time.Time, error) {
	if c.number {
		return time.Time{}, fmt.Errorf("expected a date-time string, got number %s", clip(c.text))
	}
	return parseTime(c.text)
}

func strCol[R any](name string, f func(*R) *string) column[R] {
	return column[R]{
		name: name,
		set:  func(r *R, c cell) error { *f(r) = c.text; return nil },
		get:  func(r *R) string { return *f(r) },
	}
}

// idCol is a required text column.
func idCol[R any](name string, f func(*R) *string) column[R] {
	c := strCol(name, f)
	c.required = true
	return c
}

// optValueCol is a column of a value that parse reads from a cell and
// format writes back; an empty cell is nil.
func optValueCol[R, V any](name string, k kind, f func(*R) **V, parse func(cell) (V, error), format func(V) string) column[R] {
	return column[R]{
		name: name, kind: k,
		set: func(r *R, c cell) error {
			*f(r) = nil
			if c.empty() {
				return nil
			}
			v, err := parse(c)
			if err != nil {
				return err
			}
			*f(r) = &v
			return nil
		},
		get: func(r *R) string {
			if p := *f(r); p != nil {
				return format(*p)
			}
			return ""
		},
	}
}

func optNumCol[R any](name string, f func(*R) **money.Number) column[R] {
	return optValueCol(name, kindAmount, f, amountCell, amountText)
}

// optTimeCol refuses a JSON number even where the column may be empty.
func optTimeCol[R any](name string, f func(*R) **time.Time) column[R] {
	return optValueCol(name, kindTime, f, timeCell, formatTime)
}

// flagNumCol is an amount held as a value with an absent flag beside it.
func flagNumCol[R any](name string, f func(*R) (*money.Number, *bool)) column[R] {
	return column[R]{
		name: name, kind: kindAmount,
		set: func(r *R, c cell) error {
			v, absent := f(r)
			*v, *absent = money.Number{}, true
			if c.empty() {
				return nil
			}
			n, err := amountCell(c)
			if err != nil {
				return err
			}
			*v, *absent = n, false
			return nil
		},
		get: func(r *R) string {
			if v, absent := f(r); !*absent {
				return amountText(*v)
			}
			return ""
		},
	}
}

// zeroTimeCol is a date-time held as a value, zero when absent.
func zeroTimeCol[R any](name string, f func(*R) *time.Time) column[R] {
	return column[R]{
		name: name, kind: kindTime,
		set: func(r *R, c cell) error {
			*f(r) = time.Time{}
			if c.empty() {
				return nil
			}
			t, err := timeCell(c)
			*f(r) = t
			return err
		},
		get: func(r *R) string {
			if t := *f(r); !t.IsZero() {
				return formatTime(t)
			}
			return ""
		},
	}
}

// PaymentOpsColumns are the column names of a PAYMENT_OPS report (2.5), in
// the spec's order.
func PaymentOpsColumns() []string { return names(opsSchema().cols) }

// ReconColumns are the column names of a RECON report (2.6), in the spec's
// order.
func ReconColumns() []string { return names(reconSchema().cols) }

func names[R any](cols []column[R]) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

// has reports whether the row holds a value in the column named name.
func (s schema[R]) has(r *R, name string) bool {
	for _, c := range s.cols {
		if c.name == name {
			return c.get(r) != ""
		}
	}
	return false
}

// clip shortens network text quoted in an error message.
func clip(s string) string {
	const max = 40
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}
