package table

import (
	"cmp"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

type keyKind uint8

const (
	kindNone keyKind = iota
	kindString
	kindInt
	kindFloat
	kindDecimal
)

// Key is a precomputed sort key for one cell, so that sorting never reparses
// cell text. The zero Key sorts by the cell text. Keys of different kinds
// sort by kind (text first), so a column should use one kind.
type Key struct {
	kind keyKind
	s    string
	i    int64
	f    float64
	d    decimal.Decimal
}

// String sorts by s instead of the cell text (e.g. a case-folded name).
func String(s string) Key { return Key{kind: kindString, s: s} }

// Int sorts by an integer.
func Int(i int64) Key { return Key{kind: kindInt, i: i} }

// Float sorts by a float (counts, rates; never money).
func Float(f float64) Key { return Key{kind: kindFloat, f: f} }

// Time sorts by a time (the zero time first).
func Time(t time.Time) Key {
	if t.IsZero() {
		return Key{kind: kindInt, i: -1 << 63}
	}
	return Key{kind: kindInt, i: t.UnixNano()}
}

// Decimal sorts by an exact decimal (amounts). The comparison is exact: a
// float approximation orders most pairs quickly and the decimals decide ties.
func Decimal(d decimal.Decimal) Key {
	return Key{kind: kindDecimal, d: d, f: d.InexactFloat64()}
}

// Compare orders two keys as the table sorts them: by kind, then value.
// Zero keys (sort by the cell text) compare equal.
func (k Key) Compare(o Key) int {
	if k.kind != o.kind {
		return cmp.Compare(k.kind, o.kind)
	}
	switch k.kind {
	case kindString:
		return strings.Compare(k.s, o.s)
	case kindInt:
		return cmp.Compare(k.i, o.i)
	case kindFloat:
		return cmp.Compare(k.f, o.f)
	case kindDecimal:
		// Rounding to the nearest float is monotonic: unequal floats order
		// their decimals; equal ones need the exact comparison.
		if r := cmp.Compare(k.f, o.f); r != 0 {
			return r
		}
		return k.d.Cmp(o.d)
	}
	return 0
}
