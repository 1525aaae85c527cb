package table

import (
	"cmp"
	"math"
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
//
// It is small (a version of 100,000 rows keeps a few of them a row): a
// number in one word (an integer, or a float's bits), and, apart, a text
// for a String key, or for a decimal whose nearest float may not order
// it exactly (more than 15 significant digits: below that, two decimals
// apart are two floats apart, in the same order).
type Key struct {
	kind keyKind
	// col is the column of a key a version keeps (Row.Key): its rows keep
	// the keys that are set, not one per column.
	col uint16
	n   uint64  // kindInt: the int64; kindFloat, kindDecimal: the float64's bits
	s   *string // kindString: the text; kindDecimal: the exact decimal, when needed
}

// exactDigits is the most significant digits a decimal may have for its
// nearest float64 to order it exactly among others (DBL_DIG).
const exactDigits = 15

// String sorts by s instead of the cell text (e.g. a case-folded name).
func String(s string) Key { return Key{kind: kindString, s: &s} }

// Int sorts by an integer.
func Int(i int64) Key { return Key{kind: kindInt, n: uint64(i)} }

// Float sorts by a float (counts, rates; never money).
func Float(f float64) Key { return Key{kind: kindFloat, n: math.Float64bits(f)} }

// Time sorts by a time (the zero time first).
func Time(t time.Time) Key {
	if t.IsZero() {
		return Int(math.MinInt64)
	}
	return Int(t.UnixNano())
}

// Decimal sorts by an exact decimal (amounts). The comparison is exact: the
// nearest float orders two decimals of at most 15 significant digits, and
// a longer one keeps its text for the floats' ties.
func Decimal(d decimal.Decimal) Key {
	k := Key{kind: kindDecimal, n: math.Float64bits(d.InexactFloat64())}
	if d.NumDigits() > exactDigits {
		exact := d.String()
		k.s = &exact
	}
	return k
}

func (k Key) int() int64 { return int64(k.n) }
func (k Key) text() string {
	if k.s == nil {
		return ""
	}
	return *k.s
}
func (k Key) float() float64      { return math.Float64frombits(k.n) }
func (k Key) isZero() bool        { return k.kind == kindNone }
func (k Key) same(o Key) bool     { return k.kind == o.kind && k.n == o.n && k.text() == o.text() }
func (k Key) withCol(c int) Key   { k.col = uint16(c); return k }
func (k Key) exactTie(o Key) bool { return k.s != nil || o.s != nil }
func (k Key) decimal() decimal.Decimal {
	if k.s != nil {
		return decimal.RequireFromString(*k.s)
	}
	// At most 15 digits: the float's shortest decimal is the decimal.
	return decimal.NewFromFloat(k.float())
}

// Compare orders two keys as the table sorts them: by kind, then value.
// Zero keys (sort by the cell text) compare equal.
func (k Key) Compare(o Key) int {
	if k.kind != o.kind {
		return cmp.Compare(k.kind, o.kind)
	}
	switch k.kind {
	case kindString:
		return strings.Compare(k.text(), o.text())
	case kindInt:
		return cmp.Compare(k.int(), o.int())
	case kindFloat:
		return cmp.Compare(k.float(), o.float())
	case kindDecimal:
		// Rounding to the nearest float is monotonic: unequal floats order
		// their decimals; equal ones are equal decimals unless one has
		// more digits than a float holds.
		if r := cmp.Compare(k.float(), o.float()); r != 0 || !k.exactTie(o) {
			return r
		}
		return k.decimal().Cmp(o.decimal())
	}
	return 0
}
