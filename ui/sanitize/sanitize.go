// Package sanitize is the one gate between network strings and the
// terminal. Every string that came from the platform passes through Line (or
// Text, for multi-line fields) once, where it enters the UI or the output of
// `treasury get`, and comes out as visible, harmless text: escape sequences,
// C0 and C1 controls, DEL, bidi overrides and other format characters, line
// and paragraph separators and invalid UTF-8 are shown as \x1b, \u202e, \xff
// escapes instead of being interpreted by the terminal.
//
// Stripping (what x/ansi.Strip does) is not enough: it keeps CR, BS, BEL and
// bidi overrides and lets an unterminated OSC swallow what follows. Here
// nothing is removed and nothing is interpreted.
package sanitize

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line makes s safe for a single-line field: every control and format
// character, newlines included, is shown escaped.
func Line(s string) string { return clean(s, false) }

// Text makes s safe for a multi-line field: newlines are kept (CRLF becomes
// LF), tabs become four spaces, everything else is escaped as by Line.
func Text(s string) string { return clean(s, true) }

// Safe reports whether s would come out of Line unchanged.
func Safe(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return safeSlow(s[i:])
		}
	}
	return true
}

func safeSlow(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || harmful(r) {
			return false
		}
	}
	return utf8.ValidString(s)
}

// harmful reports whether r must not reach a terminal as it is.
func harmful(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' ||
		unicode.Is(unicode.Co, r) || unicode.Is(unicode.Cs, r) || r == utf8.RuneError
}

func clean(s string, multiline bool) string {
	// Fast path: printable ASCII is returned as it is, without allocating.
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x7e {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case multiline && r == '\n':
			b.WriteByte('\n')
		case multiline && r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: the LF that follows is kept.
		case multiline && r == '\t':
			b.WriteString("    ")
		case harmful(r):
			b.WriteString(escape(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Unsafe counts what Text would escape in s: the characters a terminal
// would act on (escape sequences' ESC, other C0 and C1 controls, DEL,
// bidi overrides and other format characters) and the bytes that are not
// UTF-8. Newlines, tabs and a carriage return before a newline are safe.
func Unsafe(s string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			n++
		case r == '\n' || r == '\t' || r == '\r' && i+1 < len(s) && s[i+1] == '\n':
		case harmful(r):
			n++
		}
		i += size
	}
	return n
}

// escape renders a harmful rune visibly: \x1b for C0, DEL and C1, \u202e
// for the rest.
func escape(r rune) string {
	if r < 0x100 {
		return `\x` + hex2(byte(r))
	}
	h := strconv.FormatInt(int64(r), 16)
	for len(h) < 4 {
		h = "0" + h
	}
	return `\u` + h
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}

// CSVCell guards a cell written to a CSV file that a spreadsheet may open:
// text starting with =, +, -, @, tab or carriage return is a formula there,
// so it gets a leading apostrophe; numbers such as -12.50 stay as they are.
func CSVCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return s
		}
		return "'" + s
	}
	return s
}
