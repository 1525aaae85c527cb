package wire

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// Any is a JSON value whose type the spec leaves open (custody
// metadata.createdBy, an ABI, wallet transaction reasons): kept exactly as
// received and shown as text. It never fails a record.
type Any struct {
	raw json.RawMessage
}

// String returns an Any holding the JSON string s.
func String(s string) Any {
	b, _ := json.Marshal(s)
	return Any{raw: b}
}

// Value returns an Any holding v encoded as JSON (for fixtures and the
// sandbox).
func Value(v any) Any {
	b, err := json.Marshal(v)
	if err != nil {
		return Any{}
	}
	return Any{raw: b}
}

// UnmarshalJSON keeps a copy of b.
func (a *Any) UnmarshalJSON(b []byte) error {
	a.raw = bytes.Clone(bytes.TrimSpace(b))
	return nil
}

// MarshalJSON writes the value as received; an empty Any is null.
func (a Any) MarshalJSON() ([]byte, error) {
	if len(a.raw) == 0 {
		return []byte("null"), nil
	}
	return a.raw, nil
}

// IsZero reports whether the value is absent or null (for omitempty-like
// checks).
func (a Any) IsZero() bool { return len(a.raw) == 0 || string(a.raw) == "null" }

// Raw is the value's JSON.
func (a Any) Raw() json.RawMessage { return a.raw }

// Text shows the value: a string as it is, null or absent as "", a number
// or boolean as written, an object or array as compact JSON. For an object
// with a "name" or "id" field, that field is shown instead (a user object
// reads as its name).
func (a Any) Text() string {
	if a.IsZero() {
		return ""
	}
	switch a.raw[0] {
	case '"':
		var s string
		if json.Unmarshal(a.raw, &s) == nil {
			return s
		}
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(a.raw, &m) == nil {
			for _, k := range []string{"name", "displayName", "email", "id", "message", "code"} {
				var s string
				if json.Unmarshal(m[k], &s) == nil && s != "" {
					return s
				}
			}
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, a.raw) == nil {
		return b.String()
	}
	return string(a.raw)
}

// String implements fmt.Stringer with Text.
func (a Any) String() string { return a.Text() }

// Bool reads the value as a boolean: true, "true", 1 and "1" are true.
func (a Any) Bool() bool {
	s := strings.Trim(strings.ToLower(a.Text()), " ")
	b, err := strconv.ParseBool(s)
	return err == nil && b
}
