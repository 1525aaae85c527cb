package reports

import (
	"fmt"
	"iter"
	"reflect"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/money"
	"treasury/wire/reporting"
)

// row is a report row (*PaymentOpsRow or *ReconRow).
type row interface {
	Has(column string) bool
}

// specFields yields a report row's spec columns in wireNames' order: each
// wire name with its value, nil when the row does not have it.
func specFields(rec row) iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		rv := reflect.ValueOf(rec).Elem()
		rt := rv.Type()
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			var v any
			if rec.Has(name) {
				v = rv.Field(i).Interface()
			}
			if !yield(name, v) {
				return
			}
		}
	}
}

// fields lists a report row's fields as label/value pairs, labelled by
// their wire names in the spec's order: amounts exactly as received, times
// in UTC, absent values as "—"; then the columns the spec does not name,
// as received, in the report's order.
func fields(rec row, extra []reporting.Field) [][2]string {
	var out [][2]string
	for name, v := range specFields(rec) {
		s := "—"
		if v != nil {
			s = value(v)
		}
		out = append(out, [2]string{name, s})
	}
	for _, f := range extra {
		out = append(out, [2]string{sanitize.Line(f.Name), viewkit.Dash(sanitize.Line(f.Value))})
	}
	return out
}

func value(v any) string {
	switch x := v.(type) {
	case string:
		return viewkit.Dash(sanitize.Line(x))
	case money.Number:
		return x.String()
	case *money.Number:
		return num(x)
	case decimal.Decimal:
		return x.String()
	case time.Time:
		return when(x)
	case *time.Time:
		if x == nil {
			return "—"
		}
		return when(*x)
	}
	return "?"
}

// when is a time in UTC, "—" when absent (zero).
func when(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return viewkit.Time(t)
}

// amount is an optional amount as received with its currency, "—" when
// absent.
func amount(n *money.Number, currency string) string {
	if n == nil {
		return "—"
	}
	return viewkit.Amount(n.Decimal(), currency)
}

// kv draws label/value pairs (values already sanitized) in a width: a
// value that does not fit beside its label goes under it, wrapped.
func kv(t ui.Theme, pairs [][2]string, w int) string {
	lw := 0
	for _, p := range pairs {
		lw = max(lw, len(p[0]))
	}
	var b strings.Builder
	for _, p := range pairs {
		if lw+2+ansi.StringWidth(p[1]) <= w || w < 8 {
			b.WriteString(t.Muted.Render(fmt.Sprintf("%-*s", lw, p[0])) + "  " + p[1] + "\n")
			continue
		}
		b.WriteString(t.Muted.Render(p[0]) + "\n")
		for _, l := range strings.Split(ansi.Wrap(p[1], w-2, ", "), "\n") {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

// numKey sorts an optional amount; absent amounts sort as text ("—").
func numKey(n *money.Number) table.Key {
	if n == nil {
		return table.Key{}
	}
	return table.Decimal(n.Decimal())
}

// num is an optional amount as received, "—" when absent.
func num(n *money.Number) string {
	if n == nil {
		return "—"
	}
	return n.String()
}
