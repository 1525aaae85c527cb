package table

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// refCompare is the sort order spelled out on rows: by key kind (a missing
// key is kindNone, text first), then key or cell text; decimals exactly.
func refCompare(a, b *Row, c int) int {
	ka, kb := a.Key(c), b.Key(c)
	if ka.kind != kb.kind {
		return cmp.Compare(ka.kind, kb.kind)
	}
	switch ka.kind {
	case kindNone:
		return strings.Compare(cellAt(a, c), cellAt(b, c))
	case kindString:
		return cmp.Compare(ka.text(), kb.text())
	case kindInt:
		return cmp.Compare(ka.int(), kb.int())
	case kindFloat:
		return cmp.Compare(ka.float(), kb.float())
	case kindDecimal:
		return ka.decimal().Cmp(kb.decimal())
	}
	return 0
}

// The sort over copied-out entries orders exactly as refCompare with a
// stable tie-break, in both directions, for every kind of key (mixed in one
// column, missing, NaN, decimals equal as floats but not exactly).
func TestSortMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	bigA := decimal.RequireFromString("10000000000000000.01")
	bigB := decimal.RequireFromString("10000000000000000.02") // same float64 as bigA
	var rows []Row
	for i := range 3000 {
		var k Key
		switch rng.IntN(7) {
		case 0: // no key: the cell text
		case 1:
			k = String(strconv.Itoa(rng.IntN(50)))
		case 2:
			k = Int(int64(rng.IntN(50)) - 25)
		case 3:
			k = Float([]float64{math.NaN(), math.Inf(-1), 0.5, 1, 2}[rng.IntN(5)])
		case 4:
			k = Decimal([]decimal.Decimal{bigA, bigB, decimal.New(int64(rng.IntN(9)), -1)}[rng.IntN(3)])
		case 5:
			k = Time(t0.Add(-time.Duration(rng.IntN(5)) * time.Hour))
		}
		r := Row{ID: strconv.Itoa(i), Cells: []string{"x", strconv.Itoa(rng.IntN(40))}}
		if rng.IntN(10) > 0 { // some rows have no Keys at all
			r.Keys = []Key{{}, k}
		}
		rows = append(rows, r)
	}
	for _, desc := range []bool{false, true} {
		m := newPlain([]Column{{Title: "a"}, {Title: "b"}}, 40, 10)
		m.SetRows(rows, t0)
		m.SetSort(1, desc)
		want := make([]int32, len(rows))
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int {
			r := refCompare(&rows[a], &rows[b], 1)
			if desc {
				r = -r
			}
			return r
		})
		if !slices.Equal(m.view, want) {
			t.Fatalf("desc=%v: order differs from the reference", desc)
		}
	}
}
