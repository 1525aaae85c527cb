package wire

import (
	"bytes"
	"encoding/json"
)

// Opt is a field a record can do without (a payment's payout execution
// details, which the document calls informational only): read as T when it
// can be, and, when it cannot, left unset instead of failing the record.
// What was sent stays in the record's raw view. Unset, it costs a pointer.
type Opt[T any] struct {
	v *T
}

// Some wraps a value (fixtures and tests).
func Some[T any](v T) Opt[T] { return Opt[T]{v: &v} }

// Get returns the value and whether it is set.
func (o Opt[T]) Get() (T, bool) {
	if o.v == nil {
		var zero T
		return zero, false
	}
	return *o.v, true
}

// UnmarshalJSON reads a T, or leaves the field unset.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	*o = Opt[T]{}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		return nil
	}
	var v T
	if json.Unmarshal(b, &v) == nil {
		o.v = &v
	}
	return nil
}

// MarshalJSON writes the value, or null when unset.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if o.v == nil {
		return []byte("null"), nil
	}
	return json.Marshal(*o.v)
}

// IsZero reports whether the field is unset (for omitzero).
func (o Opt[T]) IsZero() bool { return o.v == nil }
