// Package money holds exact decimal amounts as they travel on the wire.
//
// Money is never a float. The platform sends amounts in two shapes: as JSON
// strings ("12.50", the liquidity interface) and as JSON numbers (12.50, the
// payments, reporting and webhook records; a Java service writes them as
// doubles: 100.0, 7.75E7). Both are decoded into shopspring/decimal values
// without passing through float64, so 0.1 stays 0.1 and 7.75E7 is
// 77500000 exactly.
//
// Decimal (an alias of decimal.Decimal) encodes as a JSON string. Number
// encodes as a JSON number, and holds an amount without allocating (its
// Decimal method gives the decimal: number.go). Both decode from either
// shape.
package money

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// Decimal is an exact amount that encodes as a JSON string.
type Decimal = decimal.Decimal

// MustParse parses s as an exact decimal and panics if it is not one. It is
// meant for constants in code and tests, never for network input.
func MustParse(s string) decimal.Decimal {
	d, err := decimal.NewFromString(s)
	if err != nil {
		panic(fmt.Sprintf("money: %q is not a decimal: %v", s, err))
	}
	return d
}

// Parse parses s as an exact decimal.
func Parse(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, fmt.Errorf("%q is not a decimal amount", s)
	}
	return d, nil
}

// maxExponent bounds the decimal exponent of an amount read: a Java
// service writes doubles in scientific notation (7.75E7, 1.0E-4), and
// no amount needs more than this many places either side of the point,
// while 1E999999999 would cost a gigabyte to print.
const maxExponent = 64

// plausible reports whether d is within the range of an amount.
func plausible(d decimal.Decimal) bool {
	e := int64(d.Exponent())
	return e <= maxExponent && e >= -maxExponent && len(d.Coefficient().String()) <= 2*maxExponent
}

func truncate(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}
