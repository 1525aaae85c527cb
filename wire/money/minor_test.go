package money

import "testing"

// TestText: amounts keep every decimal they have and get the decimals of
// their currency; nothing is rounded.
func TestText(t *testing.T) {
	for _, c := range []struct{ in, cur, want string }{
		{"2549.4", "EUR", "2549.40"},
		{"293", "USD", "293.00"},
		{"2549.40", "EUR", "2549.40"},
		{"0.123", "USD", "0.123"},
		{"1500", "JPY", "1500"},
		{"1.5", "KWD", "1.500"},
		{"0.36372400", "ETH", "0.36372400"},
		{"122.38052471", "BTC", "122.38052471"},
		{"42776", "", "42776"},
		{"-3.6", "USD", "-3.60"},
		{"0", "USD", "0.00"},
	} {
		if got := Text(MustParse(c.in), c.cur); got != c.want {
			t.Errorf("Text(%s, %q) = %q, want %q", c.in, c.cur, got, c.want)
		}
	}
}

func TestGrouped(t *testing.T) {
	for in, want := range map[string]string{"25012345.60": "25,012,345.60", "-1234": "-1,234", "123": "123", "0.5": "0.5", "100000": "100,000"} {
		if got := Grouped(in); got != want {
			t.Errorf("Grouped(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestPlacesOfAssets: a crypto asset's amounts are shown at its stated
// precision at least, never cut: ETH at 7 decimals and at 8 line up.
func TestPlacesOfAssets(t *testing.T) {
	for _, c := range []struct{ amount, currency, want string }{
		{"14851.64", "ETH", "14,851.64000000"},
		{"0.1234567", "ETH", "0.12345670"},
		{"0.123456789", "ETH", "0.123456789"},
		{"802.4", "RLUSD", "802.40"},
		{"11456.1", "MXN", "11,456.10"},
		{"5", "XRP", "5.000000"},
		{"5.5", "NEWCOIN", "5.5"},
	} {
		if got := Format(MustParse(c.amount), c.currency); got != c.want {
			t.Errorf("%s %s: %s, want %s", c.amount, c.currency, got, c.want)
		}
	}
}
