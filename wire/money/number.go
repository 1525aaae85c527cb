package money

import (
	"bytes"
	"fmt"

	"github.com/shopspring/decimal"
)

// Number is an exact amount that encodes as a JSON number. The zero value
// is 0.
//
// It holds its value in one word when the coefficient fits in 56 bits
// (16 digits: every amount a payment carries), coefficient and exponent
// together: a set of 100,000 payments holds some ten of them a payment,
// and a decimal.Decimal costs two allocations (its big.Int and that one's
// words) besides its two words. Decimal gives the value to compute with.
type Number struct {
	v   int64            // coef<<8 | exponent (a byte): coef × 10^exp, when big is nil
	big *decimal.Decimal // a value beyond the word
}

// Bounds of a Number in one word.
const (
	coefMax = 1<<55 - 1
	coefMin = -1 << 55
)

// small is the Number of coef × 10^exp in one word, ok false when it
// does not fit.
func small(coef int64, exp int32) (Number, bool) {
	if coef > coefMax || coef < coefMin || exp > 127 || exp < -128 {
		return Number{}, false
	}
	return Number{v: coef<<8 | int64(uint8(int8(exp)))}, true
}

func (n Number) coef() int64 { return n.v >> 8 }
func (n Number) exp() int32  { return int32(int8(uint8(n.v))) }

// N wraps a decimal as a Number.
func N(d decimal.Decimal) Number {
	if c := d.Coefficient(); c.IsInt64() {
		if n, ok := small(c.Int64(), d.Exponent()); ok {
			return n
		}
	}
	return Number{big: &d}
}

// Decimal is the amount as a decimal.
func (n Number) Decimal() decimal.Decimal {
	if n.big != nil {
		return *n.big
	}
	return decimal.New(n.coef(), n.exp())
}

// String writes the amount as decimal.Decimal does (no exponent, the
// fraction's trailing zeros dropped).
func (n Number) String() string { return n.Decimal().String() }

// IsZero reports whether the amount is 0.
func (n Number) IsZero() bool { return n.Sign() == 0 }

// Sign is -1, 0 or 1 as the amount is below, at or above 0.
func (n Number) Sign() int {
	if n.big != nil {
		return n.big.Sign()
	}
	switch c := n.coef(); {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// Equal reports whether the amount is d (100.0 is 100).
func (n Number) Equal(d decimal.Decimal) bool { return n.Decimal().Equal(d) }

// Float64 is the nearest float64, and whether it is exact (charts).
func (n Number) Float64() (float64, bool) { return n.Decimal().Float64() }

// InexactFloat64 is the nearest float64 (charts and sort keys, never
// sums).
func (n Number) InexactFloat64() float64 { return n.Decimal().InexactFloat64() }

// MarshalJSON writes the amount as a bare JSON number.
func (n Number) MarshalJSON() ([]byte, error) { return []byte(n.String()), nil }

// UnmarshalJSON reads a JSON number or a JSON string holding a number. A JSON
// null leaves the zero amount.
func (n *Number) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*n = Number{}
		return nil
	}
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	if c, e, ok := parseSmall(b); ok {
		if e > maxExponent || e < -maxExponent {
			return fmt.Errorf("money: %q is out of the range of an amount", truncate(b))
		}
		if v, ok := small(c, e); ok {
			*n = v
			return nil
		}
	}
	d, err := decimal.NewFromString(string(b))
	if err != nil {
		return fmt.Errorf("money: %q is not a decimal amount", truncate(b))
	}
	if !plausible(d) {
		return fmt.Errorf("money: %q is out of the range of an amount", truncate(b))
	}
	*n = N(d)
	return nil
}

// MarshalText writes the amount as text (used by CSV and YAML encoders).
func (n Number) MarshalText() ([]byte, error) { return []byte(n.String()), nil }

// UnmarshalText reads an amount from text. Empty text is zero.
func (n *Number) UnmarshalText(b []byte) error {
	if len(bytes.TrimSpace(b)) == 0 {
		*n = Number{}
		return nil
	}
	return n.UnmarshalJSON(b)
}

// parseSmall reads the plain forms of a decimal number (-12.345, 7.75E7)
// whose coefficient has at most 18 digits, without allocating, as
// decimal.NewFromString would read them; ok is false for anything else
// (which that reads then).
func parseSmall(b []byte) (coef int64, exp int32, ok bool) {
	i, neg := 0, false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var c uint64
	digits, frac, seen, point := 0, 0, false, false
	for ; i < len(b); i++ {
		d := b[i]
		if d == '.' && !point {
			point = true
			continue
		}
		if d < '0' || d > '9' {
			break
		}
		seen = true
		if point {
			frac++
		}
		if c == 0 && d == '0' {
			continue // a leading zero adds no digit
		}
		if digits == 18 {
			return 0, 0, false
		}
		c = c*10 + uint64(d-'0')
		digits++
	}
	if !seen {
		return 0, 0, false
	}
	e := 0
	if i < len(b) {
		if b[i] != 'e' && b[i] != 'E' {
			return 0, 0, false
		}
		i++
		eneg := false
		if i < len(b) && (b[i] == '-' || b[i] == '+') {
			eneg = b[i] == '-'
			i++
		}
		if i == len(b) {
			return 0, 0, false
		}
		for ; i < len(b); i++ {
			if b[i] < '0' || b[i] > '9' || e > 1_000_000 {
				return 0, 0, false
			}
			e = e*10 + int(b[i]-'0')
		}
		if eneg {
			e = -e
		}
	}
	coef = int64(c)
	if neg {
		coef = -coef
	}
	return coef, int32(e - frac), true
}
