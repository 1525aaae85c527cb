package table

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A search is case-insensitive, and a version keeps its rows' text as
// given, not a lowercased copy beside it: a term of ASCII is found in a
// row whose runes do not fold to ASCII letters (Row.plain: nearly all) by
// comparing ASCII letters case aside, which finds exactly what the
// lowercased copy would; any other term, or row, is compared with a
// lowercased copy made then.

// finder finds one lowercased term in a row's text, or part of it.
type finder struct {
	text string // lowercased
	// byBytes: each rune of the term is ASCII or has no other case (東,
	// →): in a plain row it is found byte by byte, ASCII letters
	// compared case aside.
	byBytes bool
}

func newFinder(text string) finder {
	f := finder{text: text, byBytes: true}
	for _, r := range text {
		if r >= utf8.RuneSelf && unicode.SimpleFold(r) != r {
			f.byBytes = false
		}
	}
	return f
}

// in reports whether s holds the term, case aside; plain is the row's.
func (f finder) in(s string, plain bool) bool {
	if plain && f.byBytes {
		return indexFold(s, f.text, 0) >= 0
	}
	return strings.Contains(strings.ToLower(s), f.text)
}

// indexFold is the first index at or after from where s holds sub, its
// ASCII letters compared case aside (sub is lowercase: its letters, and
// any other byte as it is), -1 when none.
func indexFold(s, sub string, from int) int {
	n := len(sub)
	if n == 0 {
		return from
	}
	last := len(s) - n
	if last < from {
		return -1
	}
	lo := sub[0]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	head := s[:last+1] // where a match may start
	if up == lo {
		for i := from; i <= last; i++ {
			j := strings.IndexByte(head[i:], lo)
			if j < 0 {
				return -1
			}
			i += j
			if equalFoldASCII(s[i+1:i+n], sub[1:]) {
				return i
			}
		}
		return -1
	}
	// The next place of each case of the first letter, each found once.
	nl, nu := -1, -1
	for i := from; i <= last; i++ {
		if nl != -2 && nl < i {
			nl = indexFrom(head, lo, i)
		}
		if nu != -2 && nu < i {
			nu = indexFrom(head, up, i)
		}
		switch {
		case nl < 0 && nu < 0:
			return -1
		case nl < 0:
			i = nu
		case nu < 0:
			i = nl
		default:
			i = min(nl, nu)
		}
		if equalFoldASCII(s[i+1:i+n], sub[1:]) {
			return i
		}
	}
	return -1
}

// indexFrom is the index of c in s from i on, -2 when there is none (so
// that it is not looked for again).
func indexFrom(s string, c byte, i int) int {
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return -2
}

// equalFoldASCII reports whether s equals lower, its ASCII letters
// compared case aside (lower is lowercase, as long as s).
func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
