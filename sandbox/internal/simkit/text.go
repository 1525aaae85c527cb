package simkit

import "strings"

// IsUUID reports whether s is a UUID in its 8-4-4-4-12 hex form, in
// either case.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// Quoted makes network text safe to echo in an error description: at most
// 64 bytes kept, control characters (C0, DEL, C1) replaced by '?', in
// single quotes.
func Quoted(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return "'" + strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return '?'
		}
		return r
	}, s) + "'"
}
