package payworld

import (
	"testing"

	"github.com/shopspring/decimal"

	"treasury/wire/money"
)

// TestJavaDouble writes amounts as Java's Double.toString does, and every
// one reads back exactly.
func TestJavaDouble(t *testing.T) {
	for in, want := range map[string]string{
		"100": "100.0", "3816.34": "3816.34", "77500000": "7.75E7", "10000000": "1.0E7", "9999999.99": "9999999.99",
		"0.001": "0.001", "0.0001": "1.0E-4", "0.00012": "1.2E-4", "12345678.9": "1.23456789E7", "-3.5": "-3.5",
		"-21000000": "-2.1E7", "0": "0.0", "1.00": "1.0",
	} {
		d := decimal.RequireFromString(in)
		got := javaDouble(d)
		if got != want {
			t.Fatalf("javaDouble(%s) = %s, want %s", in, got, want)
		}
		var n money.Number
		if err := n.UnmarshalJSON([]byte(got)); err != nil || !n.Equal(d) {
			t.Fatalf("%s read back as %s, %v", got, n, err)
		}
	}
}
