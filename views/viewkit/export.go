package viewkit

import (
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"treasury/figures"
)

// What a table page's CSV (Export) writes for values, the same in every
// view: data a spreadsheet reads, not text as the screen shows it.

// ISO is t as every data output writes a time (figures.Stamp): RFC 3339,
// UTC, to the second (2026-11-28T16:54:03Z); "" for the zero time (a time
// the record does not have).
func ISO(t time.Time) string { return figures.Stamp(t) }

// Bool is "true" or "false".
func Bool(b bool) string { return strconv.FormatBool(b) }

// Count is n, or "" while it is not known (err set): an unknown count is
// no number, not a zero or a glyph.
func Count(n int, err error) string {
	if err != nil {
		return ""
	}
	return strconv.Itoa(n)
}

// Money is an amount of a currency or asset as every data output writes
// one (figures.MoneyData): every decimal it has and at least its
// currency's, without grouping (2549.4 EUR is "2549.40").
func Money(d decimal.Decimal, currency string) string { return figures.MoneyData(d, currency) }

// Exact is a number with every decimal it was given, trailing zeros kept
// ("1.2500" as received stays "1.2500"; decimal's String would write
// "1.25"): a rate, a price, a value of a report row.
func Exact(d decimal.Decimal) string { return d.StringFixed(max(-d.Exponent(), 0)) }
