package figures

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/shopspring/decimal"

	"treasury/wire/money"
)

// The one format of a figure, the same on every surface: on screen an
// amount at its currency's decimals, grouped (Money); in data (CSV, JSON)
// the same decimals, plain (MoneyData), and a time in RFC 3339, UTC, to
// the second (Stamp).

// Money is an amount on screen: every decimal it has and at least its
// currency's, grouped: 25,012,345.60.
func Money(d decimal.Decimal, currency string) string { return money.Format(d, currency) }

// MoneyData is an amount in data (CSV, JSON): Money's decimals, not
// grouped: 25012345.60.
func MoneyData(d decimal.Decimal, currency string) string { return money.Text(d, currency) }

// Stamp is a time in data: RFC 3339, UTC, to the second
// (2026-11-28T16:54:03Z); "" for the zero time (a time the record does
// not have).
func Stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// StampLayout is Stamp's layout: a reader parses data outputs with it.
const StampLayout = time.RFC3339

// ParseAmount reads an amount as the screen writes it (Money: "300,000",
// "1,234.50") or plain ("300000"), for currency: its groups must be of
// three digits, and it may have no more decimals than the currency has
// (an amount of a currency with no stated decimals may have any). An
// empty text is an error: the caller decides what empty means.
func ParseAmount(text, currency string) (decimal.Decimal, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return decimal.Zero, errors.New("no amount given")
	}
	intPart, frac, hasFrac := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	if strings.Contains(intPart, ",") {
		groups := strings.Split(intPart, ",")
		for i, g := range groups {
			if len(g) != 3 && (i > 0 || len(g) == 0 || len(g) > 3) {
				return decimal.Zero, fmt.Errorf("%q is not an amount: digits are grouped in threes (300,000 or 300000)", text)
			}
		}
		intPart = strings.Join(groups, "")
	}
	if intPart == "" || strings.IndexFunc(intPart, notDigit) >= 0 || hasFrac && (frac == "" || strings.IndexFunc(frac, notDigit) >= 0) {
		return decimal.Zero, fmt.Errorf("%q is not an amount such as 300,000 or 1,234.50", text)
	}
	plain := intPart
	if hasFrac {
		plain += "." + frac
	}
	if strings.HasPrefix(s, "-") {
		plain = "-" + plain
	}
	d, err := decimal.NewFromString(plain)
	if err != nil {
		return decimal.Zero, fmt.Errorf("%q is not an amount such as 300,000 or 1,234.50", text)
	}
	if n, ok := money.Places(currency); ok && currency != "" && int32(len(frac)) > n {
		return decimal.Zero, fmt.Errorf("%s has %d decimals: %q has %d", currency, n, text, len(frac))
	}
	return d, nil
}

func notDigit(r rune) bool { return !unicode.IsDigit(r) || r > unicode.MaxASCII }

// StampText is a time received as text (an error's timestamp) as Stamp
// writes it; text that is no RFC 3339 time as received.
func StampText(text string) string {
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(text))
	if err != nil {
		return text
	}
	return Stamp(t)
}
