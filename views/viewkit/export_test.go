package viewkit

import (
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestExportValues: what a CSV writes for a value, as a spreadsheet
// reads it: times with date and zone in UTC, amounts exact at least at
// their currency's decimals and without grouping, numbers with the
// decimals received, "" for what is not there.
func TestExportValues(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	for _, c := range []struct{ got, want string }{
		{ISO(time.Date(2026, 11, 28, 17, 54, 3, 0, paris)), "2026-11-28T16:54:03Z"},
		{ISO(time.Date(2026, 11, 28, 16, 54, 3, 250e6, time.UTC)), "2026-11-28T16:54:03Z"}, // to the second, as every data output
		{ISO(time.Time{}), ""},
		{Money(decimal.RequireFromString("134382.9"), "USD"), "134382.90"},
		{Money(decimal.RequireFromString("1234567.891"), "USD"), "1234567.891"},
		{Money(decimal.RequireFromString("-12"), "JPY"), "-12"},
		{Exact(decimal.RequireFromString("1.2500")), "1.2500"},
		{Exact(decimal.RequireFromString("300")), "300"},
		{Count(3, nil), "3"},
		{Count(3, errors.New("not read")), ""},
		{Bool(true), "true"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
