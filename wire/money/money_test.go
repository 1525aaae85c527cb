package money

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// TestJavaDoubles: amounts written as a Java service writes doubles read
// exactly; an exponent no amount has is refused.
func TestJavaDoubles(t *testing.T) {
	for raw, want := range map[string]string{"7.75E7": "77500000", "100.0": "100", "1.0E-4": "0.0001", "1.2345678E7": "12345678",
		"3816.34": "3816.34", `"2.1E7"`: "21000000", "-4.5E8": "-450000000", "0.0": "0"} {
		var n Number
		if err := n.UnmarshalJSON([]byte(raw)); err != nil || n.String() != want {
			t.Fatalf("%s: %s, %v; want %s", raw, n.String(), err, want)
		}
	}
	for _, raw := range []string{"1E999999999", "1E-99999", "1" + strings.Repeat("0", 200)} {
		var n Number
		if err := n.UnmarshalJSON([]byte(raw)); err == nil {
			t.Fatalf("%.40s: read as %s, want refused", raw, n.String())
		}
	}
}

// TestNumberReadsAsDecimal: every form a server writes reads as
// decimal.NewFromString reads it (value and exponent), whether it is held
// in a word (up to 16 digits) or not.
func TestNumberReadsAsDecimal(t *testing.T) {
	for _, raw := range []string{"0", "-0", "12.50", "100.0", "0.001", "7.75E7", "1.0E-4", "-4.5E8", "+3", "1e3", "00012", ".5", "5.",
		"123456789012345678", "1234567890123456789", "-99999999999999999999.99", "0.000000000000000000001", "3816.34",
		"36028797018963967", "36028797018963968", "-36028797018963968", "-36028797018963969", "1e64", "-1e-64"} {
		want, err := decimal.NewFromString(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		var n Number
		if err := n.UnmarshalJSON([]byte(raw)); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got := n.Decimal(); !got.Equal(want) || got.Exponent() != want.Exponent() {
			t.Errorf("%s reads as %s (exp %d), decimal reads %s (exp %d)", raw, got, got.Exponent(), want, want.Exponent())
		}
		if got := N(want); got != n && n.big == nil {
			t.Errorf("%s: N(%s) = %#v, read %#v", raw, want, got, n)
		}
	}
	for _, raw := range []string{"", "-", "1.2.3", "1e", "abc", "1e+", "--1"} {
		var n Number
		if err := n.UnmarshalJSON([]byte(raw)); err == nil {
			t.Errorf("%q read as %s, want refused", raw, n)
		}
	}
}

// BenchmarkNumberRead: an amount of a payment read from its JSON costs no
// allocation.
func BenchmarkNumberRead(b *testing.B) {
	b.ReportAllocs()
	raw := []byte("3816.34")
	var n Number
	for b.Loop() {
		if err := n.UnmarshalJSON(raw); err != nil {
			b.Fatal(err)
		}
	}
}
