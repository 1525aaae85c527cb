package reports

import (
	"reflect"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/data/money"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
)

// fields lists a report row's fields as label/value pairs, labelled by
// their wire names in the spec's order: amounts exactly as received, times
// in UTC, absent (role-specific) values as "—".
func fields(rec any) [][2]string {
	rv := reflect.ValueOf(rec)
	rt := rv.Type()
	out := make([][2]string, 0, rt.NumField())
	for i := range rt.NumField() {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		out = append(out, [2]string{name, value(rv.Field(i).Interface())})
	}
	return out
}

func value(v any) string {
	switch x := v.(type) {
	case string:
		return dash(sanitize.Line(x))
	case money.Number:
		return x.String()
	case *money.Number:
		return num(x)
	case decimal.Decimal:
		return x.String()
	case time.Time:
		return viewkit.Time(x)
	case *time.Time:
		if x == nil {
			return "—"
		}
		return viewkit.Time(*x)
	}
	return "?"
}

// num is an optional amount as received, "—" when absent.
func num(n *money.Number) string {
	if n == nil {
		return "—"
	}
	return n.String()
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
