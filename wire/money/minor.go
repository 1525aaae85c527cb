package money

import (
	"strings"

	"github.com/shopspring/decimal"
)

// minorUnits are the decimals of the ISO 4217 currencies that do not have
// two; fiat absent here has two. Assets that are not ISO currencies (BTC,
// ETH, USDC…) have no fixed number: their amounts are shown as received.
var minorUnits = map[string]int32{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
	"RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
}

// twoDecimals are the ISO 4217 currencies with two decimals that the
// platform's corridors use.
var twoDecimals = map[string]bool{
	"AED": true, "ARS": true, "AUD": true, "BRL": true, "CAD": true, "CHF": true, "CNY": true, "COP": true,
	"CZK": true, "DKK": true, "EGP": true, "EUR": true, "GBP": true, "GHS": true, "HKD": true, "HUF": true,
	"IDR": true, "ILS": true, "INR": true, "KES": true, "MXN": true, "MYR": true, "NGN": true, "NOK": true,
	"NZD": true, "PEN": true, "PHP": true, "PKR": true, "PLN": true, "SAR": true, "SEK": true, "SGD": true,
	"THB": true, "TRY": true, "USD": true, "ZAR": true,
}

// MinorUnits is the number of decimals of an ISO 4217 currency; ok is false
// for an asset with no fixed number (a crypto asset, a code not known).
func MinorUnits(currency string) (n int32, ok bool) {
	if n, ok := minorUnits[currency]; ok {
		return n, true
	}
	if twoDecimals[currency] {
		return 2, true
	}
	return 0, false
}

// assetPlaces are the decimals an amount of a crypto asset is shown with
// at least (more when it has more: never cut): stated per asset, so that
// one asset's amounts line up (ETH at 7 decimals beside ETH at 8 read as
// two kinds of figure). They are display precisions, not the chain's
// (ETH has 18): the platform's records carry at most these.
var assetPlaces = map[string]int32{
	"BTC": 8, "ETH": 8, "POL": 8, "SOL": 9, "XRP": 6, "USDC": 6, "USDT": 6, "EURC": 6, "RLUSD": 2,
}

// Places is the number of decimals an amount of currency is shown with at
// least: its ISO 4217 minor units, or the stated precision of a crypto
// asset; ok is false for a code not known (its amounts are shown with the
// decimals they have).
func Places(currency string) (int32, bool) {
	if n, ok := MinorUnits(currency); ok {
		return n, true
	}
	n, ok := assetPlaces[currency]
	return n, ok
}

// Text writes an amount exactly: every decimal it has (never rounded),
// and at least as many as its currency has (2549.4 EUR is "2549.40", 0.5
// ETH "0.50000000").
func Text(d decimal.Decimal, currency string) string {
	places := max(-d.Exponent(), 0)
	if n, ok := Places(currency); ok {
		places = max(places, n)
	}
	return d.StringFixed(places)
}

// Format is the one way an amount is shown: every decimal it has and at
// least its currency's (Text), the integer part grouped in threes
// (Grouped): 25,012,345.60.
func Format(d decimal.Decimal, currency string) string { return Grouped(Text(d, currency)) }

// Grouped groups the integer part of a decimal number's text in threes:
// 25,012,345.60.
func Grouped(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return b.String()
}
