package money

import (
	"strings"
	"testing"
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
