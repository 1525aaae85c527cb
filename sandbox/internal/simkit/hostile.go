package simkit

// hostile returns the i-th hostile fragment, cycling. Each one would do
// harm if a terminal interpreted it: colour and cursor escapes, a screen
// clear, an OSC 52 clipboard write, a window-title change, an unterminated
// OSC that swallows what follows, C0 and C1 controls, DEL, bidi overrides,
// zero-width and line-separator characters.
func hostile(i int) string {
	switch i % 12 {
	case 0:
		return "\x1b[31mRED\x1b[0m"
	case 1:
		return "\x1b[2J\x1b[H"
	case 2:
		return "\x1b]52;c;ZWNobyBwd25lZA==\x07"
	case 3:
		return "\x1b]0;owned\x07"
	case 4:
		return "\x1b]8;;http://evil.example/\x1b\\link"
	case 5:
		return "bell\x07back\x08\x08\x08\x08space"
	case 6:
		return "cr\roverwrite"
	case 7:
		return "\u202egnp.exe\u202c"
	case 8:
		return "zero\u200bwidth\u2028line"
	case 9:
		return "c1\u009b31mcsi"
	case 10:
		return "del\x7f\x00nul"
	default:
		return "\x1b]2;unterminated"
	}
}

// HostileCount is the number of distinct hostile fragments.
const HostileCount = 12

// Hostile returns the i-th hostile fragment (cycling over HostileCount).
func Hostile(i int) string { return hostile(i) }

// Decorate appends a hostile fragment, chosen by key, to s when on is true,
// and returns s unchanged otherwise.
func Decorate(s string, on bool, key uint64) string {
	if !on {
		return s
	}
	return s + " " + hostile(int(key%HostileCount))
}
