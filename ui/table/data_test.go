package table

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A search finds, case aside, what it would find in a lowercased copy of
// the row's text, whatever the text (a version keeps no such copy): for
// terms of ASCII and of other runes, in texts with runes that fold to
// ASCII letters, or bytes that are not UTF-8.
func TestSearchFindsWhatALowercasedCopyWould(t *testing.T) {
	texts := []string{"", "Acme HOLDINGS\x00PENDING", "Café ÑANDÚ\x00ΣΊΣΥΦΟΣ", "\u212aelvin SIGN", "long \u017f here",
		"\u0130stanbul", "bad \xff utf8 AB\x00x", "東京銀行\x00ABC", "USD→MXN MX\x00INV-0100025", "aaaaaAAAAab", "kKk"}
	terms := []string{"a", "acme", "holdings\x00p", "ñandú", "σίσυφοσ", "kelvin", "k", "s here", "istanbul", "i̇stanbul",
		"ab", "東京", "usd→mxn", "→", "inv-01", "aab", "aaaaab", "kk", "zzz", "b"}
	for _, text := range texts {
		plain := !foldsToASCII(text)
		for _, term := range terms {
			want := strings.Contains(strings.ToLower(text), term)
			if got := newFinder(term).in(text, plain); got != want {
				t.Errorf("%q in %q (plain %v): %v, a lowercased copy says %v", term, text, plain, got, want)
			}
		}
	}
}

// A search's regular expression, run only where a row holds what every
// match holds and tried only where a match may begin, matches exactly
// the rows the expression itself matches.
func TestPatternMatchesAsTheExpression(t *testing.T) {
	texts := []string{"", "Acme HOLDINGS\x00PENDING", "USD→MXN MX\x00FAILED\x00USR_031", "usd→brl", "pay-00091\x00x", "PAY-0009",
		"\u212a", "Kk", "fail then usd", "USD then FAIL", "x USD→PHP y USD→MXN", "aUSDx", "usd", "→MXN", "Café ÑANDÚ",
		"ab\ncd", "DECLINED\x00USR_066", "failed usr_03", "東京銀行 USD"}
	exprs := []string{"usd→(mxn|brl)", "^pay-000[0-9]", "fail.*usd", "(?-i)USD", "k+", "(ab|cd)x", "[0-9]{3}", "a{2,}", "x?y?",
		"usd→(mxn|php)", "(failed|declined).*usr_0[36]", "\\busd", "(?m)^cd", "usd$", "ñandú", "東京", "(usd|eur)→", "u(sd)+",
		"\\x00usr", "→mxn", "usd.*(mxn|php)"}
	for _, expr := range exprs {
		re := regexp.MustCompile("(?i)" + expr)
		p, err := compilePattern(expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			want := re.MatchString(text)
			if got := p.match(text, !foldsToASCII(text)); got != want {
				t.Errorf("~%s on %q: %v, the expression says %v (needs %v, starts %v)", expr, text, got, want, p.needs, p.starts)
			}
		}
	}
	for expr, want := range map[string]string{"usd→(mxn|brl)": "[[{usd→ true}] [{mxn true} {brl true}]]", "[0-9]{5}": "[]",
		"(acme|zeta).*[0-9]{3}": "[[{acme true} {zeta true}]]"} {
		p, _ := compilePattern(expr)
		if got := fmt.Sprint(p.needs); got != want && !(want == "[]" && len(p.needs) == 0) {
			t.Errorf("~%s needs %s, want %s", expr, got, want)
		}
	}
}

// Rows whose cells did not change keep their search text across SetRows;
// changed ones get a new one.
func TestFilterAfterUpdates(t *testing.T) {
	m := newPlain(paymentCols(), 60, 10)
	m.SetRows(samplePayments(), t0)
	m.SetFilter("zeta")
	if got := ids(m); got != "p-003" {
		t.Fatalf("before: %q", got)
	}
	rows := samplePayments()
	rows[0] = payment("p-001", "Zeta Renamed", "1250.00", "COMPLETED")
	m.SetRows(rows, t0.Add(time.Second))
	if got := ids(m); got != "p-001,p-003" {
		t.Fatalf("after a rename: %q", got)
	}
	m.SetRows(samplePayments(), t0.Add(2*time.Second))
	if got := ids(m); got != "p-003" {
		t.Fatalf("after the rename is undone: %q", got)
	}
	m.SetFilter("ñandú")
	if got := ids(m); got != "p-005" {
		t.Fatalf("non-ASCII: %q", got)
	}
}
