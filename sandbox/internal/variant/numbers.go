package variant

import (
	"encoding/json"
	"time"
)

// isJSONNumber reports whether s is a JSON number without exponent
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?): the form decimals are written in, which
// can go on the wire as a number unchanged.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == start || (s[start] == '0' && i-start > 1) {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		frac := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == frac {
			return false
		}
	}
	return i == len(s)
}

// numbersOf turns the decimal strings of the members named by isAmount
// into JSON numbers, from their text: no float is involved.
func numbersOf(o *object, isAmount func(string) bool) {
	for i, m := range o.members {
		if s, ok := m.val.(string); ok && isAmount(m.key) && isJSONNumber(s) {
			o.members[i].val = json.Number(s)
		}
	}
}

// stringsOf turns the JSON numbers of the members named by isAmount into
// strings of the same text.
func stringsOf(o *object, isAmount func(string) bool) {
	for i, m := range o.members {
		if n, ok := m.val.(json.Number); ok && isAmount(m.key) {
			o.members[i].val = string(n)
		}
	}
}

// offsetTime rewrites an RFC 3339 time as UTC with a +00:00 offset and no
// fraction of a second; other strings are returned as they are.
func offsetTime(s string) string {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return s
	}
	return t.UTC().Format("2006-01-02T15:04:05-07:00")
}
