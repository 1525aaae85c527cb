package sanitize

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain ASCII 123", "plain ASCII 123"},
		{"Société Générale 東京", "Société Générale 東京"},
		{"\x1b[31mRED\x1b[0m", `\x1b[31mRED\x1b[0m`},
		{"\x1b]52;c;ZWNobw==\x07", `\x1b]52;c;ZWNobw==\x07`},
		{"\x1b]0;title", `\x1b]0;title`}, // unterminated OSC swallows nothing
		{"cr\roverwrite", `cr\x0doverwrite`},
		{"bs\x08\x08", `bs\x08\x08`},
		{"del\x7f nul\x00", `del\x7f nul\x00`},
		{"c1\u009b31m", `c1\x9b31m`},
		{"\u202egnp.exe\u202c", `\u202egnp.exe\u202c`},
		{"zero\u200bwidth", `zero\u200bwidth`},
		{"line\u2028sep\u2029", `line\u2028sep\u2029`},
		{"two\nlines\ttab", `two\x0alines\x09tab`},
		{"bad\xffutf8\xc3", `bad\xffutf8\xc3`},
		{"\ufeffbom", `\ufeffbom`},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.want {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
		}
		if Safe(c.in) != (c.in == c.want) {
			t.Errorf("Safe(%q) = %v", c.in, Safe(c.in))
		}
	}
}

func TestText(t *testing.T) {
	in := "a\r\nb\n\tc\x1b[2J\rd"
	want := "a\nb\n    c\\x1b[2J\\x0dd"
	if got := Text(in); got != want {
		t.Fatalf("Text = %q, want %q", got, want)
	}
}

func TestPlainASCIIDoesNotAllocate(t *testing.T) {
	s := "ordinary wallet name 42"
	if n := testing.AllocsPerRun(100, func() { _ = Line(s) }); n != 0 {
		t.Fatalf("Line allocates %v times for plain ASCII", n)
	}
}

// FuzzLine checks the promise: whatever comes in, nothing harmful comes out,
// and a second pass changes nothing.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"\x1b[31m", "\u202e", "a\r\nb", "\xff\xfe", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Line(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Line(%q) is not valid UTF-8: %q", s, out)
		}
		for _, r := range out {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
				t.Fatalf("Line(%q) kept %U", s, r)
			}
		}
		if again := Line(out); again != out {
			t.Fatalf("Line is not idempotent on %q", s)
		}
		if txt := Text(s); strings.ContainsAny(txt, "\x1b\r\x07") {
			t.Fatalf("Text(%q) kept a control: %q", s, txt)
		}
	})
}

func BenchmarkLineHostile(b *testing.B) {
	s := "Wallet \x1b[31mname\x1b[0m \u202eevil"
	for i := 0; i < b.N; i++ {
		_ = Line(s)
	}
}

func TestCSVCell(t *testing.T) {
	for in, want := range map[string]string{
		"":              "",
		"plain":         "plain",
		"=HYPERLINK(x)": "'=HYPERLINK(x)",
		"+1 call me":    "'+1 call me",
		"@SUM(A1)":      "'@SUM(A1)",
		"-12.50":        "-12.50",
		"+3":            "+3",
		"\tcmd":         "'\tcmd",
		"a=b":           "a=b",
	} {
		if got := CSVCell(in); got != want {
			t.Errorf("CSVCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUnsafe(t *testing.T) {
	for in, want := range map[string]int{
		"a,b\r\nc,d\n\t": 0, "\x1b]0;title\x07": 2, "\x1b[2J": 1, "del\x7f": 1, "c1\u009b": 1, "bidi\u202e": 1, "bad\xff": 1, "lone\r": 1,
		"😀 ünïcode": 0,
	} {
		if got := Unsafe(in); got != want {
			t.Errorf("Unsafe(%q) = %d, want %d", in, got, want)
		}
	}
}
