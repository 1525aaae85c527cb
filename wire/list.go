package wire

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// List is an array field inside a record (a payment's fees, a
// transaction's problems): a plain slice to the rest of the program
// ([]T converts both ways), read element by element. It stops at the
// first element that cannot be read, as the record then fails anyway,
// and refuses more than MaxItems elements (ErrTooManyItems): a record of
// a few hundred bytes with a megabyte of "{}," in one of its fields would
// otherwise cost a hundred and fifty times that megabyte. It is written as
// the slice it is.
type List[T any] []T

// UnmarshalJSON reads an array (null is an empty list) one element at a
// time.
func (l *List[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		*l = nil
		return nil
	}
	if b[0] != '[' {
		return &json.UnmarshalTypeError{Value: kindName(b), Type: reflect.TypeFor[[]T]()}
	}
	if len(b) <= 2*MaxItems {
		// Too short to hold more than MaxItems elements (each takes two
		// bytes at least, with its comma): read at once.
		var out []T
		if err := json.Unmarshal(b, &out); err != nil {
			return err
		}
		// As long as it is, not as the decoder grew it (four at least):
		// a payment's one fee held in a slice of four, 100,000 times.
		*l = append(List[T]{}, out...)
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return err
	}
	out := List[T]{}
	for i := 0; dec.More(); i++ {
		if i >= MaxItems {
			return ErrTooManyItems
		}
		var v T
		if err := dec.Decode(&v); err != nil {
			return err
		}
		out = append(out, v)
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	*l = append(List[T]{}, out...)
	return nil
}

// kindName is the JSON kind of b as encoding/json names it in a type
// error ("object", "string", "number", "bool").
func kindName(b []byte) string {
	switch b[0] {
	case '{':
		return "object"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	}
	return "number"
}
