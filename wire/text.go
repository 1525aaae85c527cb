package wire

import "unicode/utf8"

// Text is a string field whose JSON type the spec leaves open: a string is
// read as it is, any other value as Any.Text shows it. It never fails. Use
// it in a record's decoding shadow (see custody.Metadata) so the record's
// own field stays a plain string.
type Text string

// UnmarshalJSON reads any JSON value as text.
func (t *Text) UnmarshalJSON(b []byte) error {
	if s, ok := plainString(b); ok {
		*t = Text(s)
		return nil
	}
	var a Any
	_ = a.UnmarshalJSON(b)
	*t = Text(a.Text())
	return nil
}

// Flag is a boolean field that some servers send as a string ("true") or
// a number (1). It never fails: anything else is false.
type Flag bool

// UnmarshalJSON reads true, "true", 1 and "1" as true.
func (f *Flag) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "true":
		*f = true
		return nil
	case "false", "null":
		*f = false
		return nil
	}
	var a Any
	_ = a.UnmarshalJSON(b)
	*f = Flag(a.Bool())
	return nil
}

// Texts converts decoded texts to strings.
func Texts(ts []Text) []string {
	if ts == nil {
		return nil
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

// TextMap converts a decoded object of texts to strings.
func TextMap(m map[string]Text) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

// plainString is the string a JSON string without escapes holds (most of
// what a record's texts are), read without decoding; ok is false for
// anything else.
func plainString(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return "", false
	}
	in := b[1 : len(b)-1]
	for _, c := range in {
		if c == '\\' || c == '"' || c < 0x20 || c >= utf8.RuneSelf {
			return "", false // escapes, controls, and runes to be checked: decoded
		}
	}
	return string(in), true
}
