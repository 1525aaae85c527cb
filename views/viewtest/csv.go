package viewtest

import (
	"encoding/csv"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/figures"
)

// CSV is a table's export as a spreadsheet reads it: its header, and its
// records by column name.
type CSV struct {
	Header []string
	Rows   []map[string]string
}

// ReadCSV runs a view's CSV writer and parses what it wrote with
// encoding/csv, failing t if it cannot, or if a record has another number
// of fields than the header (encoding/csv checks it).
func ReadCSV(t testing.TB, write func(w io.Writer) error) CSV {
	t.Helper()
	var b strings.Builder
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("the CSV does not parse (%v):\n%s", err, b.String())
	}
	out := CSV{Header: recs[0]}
	for _, r := range recs[1:] {
		m := make(map[string]string, len(r))
		for i, c := range r {
			m[recs[0][i]] = c
		}
		out.Rows = append(out.Rows, m)
	}
	return out
}

// HasHeader fails t unless the CSV's header is want.
func (c CSV) HasHeader(t testing.TB, want ...string) {
	t.Helper()
	if strings.Join(c.Header, ",") != strings.Join(want, ",") {
		t.Errorf("header\n %v\nwant\n %v", c.Header, want)
	}
}

// glyphs are what the screen draws and a spreadsheet cannot read: the
// dash of an empty cell, an ellipsis, markers, sparklines, arrows.
const glyphs = "—…●○✖▸‹›⚠‼↑↓→▲▼▁▂▃▄▅▆▇█·"

// Plain fails t if a cell of the CSV holds a glyph of the screen.
func (c CSV) Plain(t testing.TB) {
	t.Helper()
	for i, r := range c.Rows {
		for k, v := range r {
			if strings.ContainsAny(v, glyphs) {
				t.Errorf("row %d, %s = %q: a glyph of the screen", i, k, v)
			}
		}
	}
}

// Time fails t unless v is a time as every data output writes one
// (figures.Stamp: RFC 3339 with its date, UTC, to the second:
// "2026-11-28T16:54:03Z"), or empty when empty is allowed.
func Time(t testing.TB, name, v string, empty bool) {
	t.Helper()
	if v == "" && empty {
		return
	}
	at, err := time.Parse(figures.StampLayout, v)
	if err != nil || at.IsZero() || figures.Stamp(at) != v {
		t.Errorf("%s = %q: not an RFC 3339 UTC time to the second (%v)", name, v, err)
	}
}

// Amount fails t unless v is an exact decimal as a spreadsheet reads it
// (no grouping, no currency in the cell) and currency a currency or
// asset code, in its own cell.
func Amount(t testing.TB, name, v, currency string) {
	t.Helper()
	Decimal(t, name, v)
	if !isAsset(currency) {
		t.Errorf("%s's currency %q is not a code in its own cell", name, currency)
	}
}

// isAsset reports whether s reads as an asset symbol (letters and digits,
// as USDC or RLUSD, no spaces).
func isAsset(s string) bool {
	for _, r := range s {
		if !('A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// Decimal fails t unless v is an exact decimal as a spreadsheet reads it:
// no grouping, no currency, no glyph.
func Decimal(t testing.TB, name, v string) {
	t.Helper()
	if _, err := decimal.NewFromString(v); err != nil || strings.ContainsAny(v, ", ") {
		t.Errorf("%s = %q: not a decimal as a spreadsheet reads it (%v)", name, v, err)
	}
}
