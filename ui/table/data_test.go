package table

import (
	"strings"
	"testing"
	"time"
)

// searchText is strings.ToLower of the cells joined by NUL, whatever the
// text, with its scratch buffer reused between calls.
func TestSearchTextLowercases(t *testing.T) {
	var buf []byte
	for _, cells := range [][]string{
		nil,
		{""},
		{"Acme HOLDINGS", "PENDING"},
		{"Café ÑANDÚ", "ΣΊΣΥΦΟΣ", "\u212aelvin"},
		{"bad \xff utf8 AB", "x"},
		{"東京銀行", "ABC"},
	} {
		var got string
		got, buf = searchText(buf, cells, nil)
		if want := strings.ToLower(strings.Join(cells, "\x00")); got != want {
			t.Errorf("%q: got %q, want %q", cells, got, want)
		}
	}
}

// Rows whose cells did not change keep their search text across SetRows;
// changed ones get a new one.
func TestFilterAfterUpdates(t *testing.T) {
	m := newPlain(paymentCols(), 60, 10)
	m.SetRows(samplePayments(), t0)
	m.SetFilter("zeta")
	if got := ids(m); got != "p-003" {
		t.Fatalf("before: %q", got)
	}
	rows := samplePayments()
	rows[0] = payment("p-001", "Zeta Renamed", "1250.00", "COMPLETED")
	m.SetRows(rows, t0.Add(time.Second))
	if got := ids(m); got != "p-001,p-003" {
		t.Fatalf("after a rename: %q", got)
	}
	m.SetRows(samplePayments(), t0.Add(2*time.Second))
	if got := ids(m); got != "p-003" {
		t.Fatalf("after the rename is undone: %q", got)
	}
	m.SetFilter("ñandú")
	if got := ids(m); got != "p-005" {
		t.Fatalf("non-ASCII: %q", got)
	}
}
