// Package wire reads records from the network as a tolerant reader would
// (design.md, "Tolerant reader"): a list is decoded record by record, so a
// record that cannot be read fails alone and is reported as a Skip instead
// of failing its page; each record keeps the JSON it arrived as (Raw), so
// the raw view shows what the server sent, fields we do not model included;
// and a field whose type the spec leaves open is kept as Any, shown as text,
// never a reason to reject a record.
//
// Unknown fields are ignored everywhere: that is encoding/json's default,
// and no decoder here turns on DisallowUnknownFields.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Raw is embedded (with the tag `json:"-"`) in every wire record: Items
// fills it with the record's JSON as received. It is a pointer's width:
// a record held without its JSON (the dashboard's payments and quotes,
// tens of thousands) pays no more for it.
type Raw struct {
	raw *json.RawMessage
}

// SetRaw keeps b, which the caller no longer changes, as the record's
// JSON; nil keeps none.
func (r *Raw) SetRaw(b json.RawMessage) {
	if b == nil {
		r.raw = nil
		return
	}
	r.raw = &b
}

// RawJSON is the record's JSON as received, nil for a record that did not
// come from the network (built in code, or read before Raw existed).
func (r Raw) RawJSON() json.RawMessage {
	if r.raw == nil {
		return nil
	}
	return *r.raw
}

// RawSetter is implemented by records that embed Raw.
type RawSetter interface{ SetRaw(json.RawMessage) }

// RawJSONer is implemented by records that embed Raw.
type RawJSONer interface{ RawJSON() json.RawMessage }

// Items is a JSON array of records decoded one by one: Items holds those
// that could be read, in order; Skipped says which could not, and why.
// JSON null and an absent array are an empty list. Anything but an array
// is an error: the envelope itself is not what was expected.
type Items[T any] struct {
	Items   []T
	Skipped []Skip
	// NoRaw, set before decoding, keeps no record's JSON (a reader that
	// holds the records decoded only: no copy of each is made).
	NoRaw bool
}

// MaxItems bounds the records of one list. No interface pages more than
// 1,000 records (the wallet's maximum page size; spec part 8), so a longer
// array is not a page of this platform, and refusing it bounds what one
// body can cost: a megabyte of "{}," would otherwise be 350,000 records of
// a few hundred bytes each.
const MaxItems = 10_000

// ErrTooManyItems is returned for an array of more than MaxItems records.
var ErrTooManyItems = fmt.Errorf("more than %d records in one list: not a page of this interface", MaxItems)

// UnmarshalJSON decodes each element of the array on its own, streaming
// it, and stops at MaxItems. Each record keeps a copy of its bytes:
// nothing kept points into the response buffer.
func (l *Items[T]) UnmarshalJSON(b []byte) error {
	l.Items, l.Skipped = nil, nil
	b = bytes.TrimSpace(b)
	if len(b) == 0 || bytes.Equal(b, []byte("null")) {
		return nil
	}
	if b[0] != '[' {
		return fmt.Errorf("expected an array of records, got %s", kindOf(b))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // [
		return err
	}
	l.Items = []T{}
	for i := 0; dec.More(); i++ {
		if i >= MaxItems {
			l.Items, l.Skipped = nil, nil
			return ErrTooManyItems
		}
		// Each element is decoded as it is read (a record that cannot
		// be, alone: the decoder reads on past it); its bytes are where
		// the decoder's offset moved over, copied only when kept.
		from := dec.InputOffset()
		var v T
		err := dec.Decode(&v)
		raw := bytes.TrimLeft(b[from:dec.InputOffset()], ", \t\r\n")
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &syntax) || err != nil && len(raw) == 0:
			l.Items, l.Skipped = nil, nil
			return err
		case err != nil:
			l.Skipped = append(l.Skipped, Skip{Index: i, ID: IDOf(raw), Reason: reasonFor[T](raw, err)})
			continue
		}
		if rs, ok := any(&v).(RawSetter); ok && !l.NoRaw {
			rs.SetRaw(bytes.Clone(raw))
		}
		l.Items = append(l.Items, v)
	}
	if _, err := dec.Token(); err != nil || dec.InputOffset() != int64(len(b)) { // ] and nothing after it
		l.Items, l.Skipped = nil, nil
		return fmt.Errorf("the array of records is not valid JSON")
	}
	return nil
}

// MarshalJSON writes the records read as an array.
func (l Items[T]) MarshalJSON() ([]byte, error) {
	if l.Items == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(l.Items)
}

// Of wraps records (tests, fixtures).
func Of[T any](items ...T) Items[T] { return Items[T]{Items: items} }

// Decode decodes one record from raw, keeping raw as its JSON.
func Decode[T any](raw []byte) (T, error) {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, errors.New(reasonFor[T](raw, err))
	}
	if rs, ok := any(&v).(RawSetter); ok {
		rs.SetRaw(bytes.Clone(raw))
	}
	return v, nil
}

// kindOf names the JSON kind of a value for messages.
func kindOf(b []byte) string {
	switch b[0] {
	case '{':
		return "an object"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// reasonFor explains why raw is not a T, naming the field: a type error
// names it itself; an error of a field's own decoder (a decimal, a time)
// does not, so each top-level field is decoded alone to find it.
func reasonFor[T any](raw []byte, err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		if f := failingField(reflect.TypeFor[T](), raw); f != "" {
			return f + ": " + reason(err)
		}
	}
	return reason(err)
}

// failingField returns the JSON name of the first top-level field of raw
// that does not decode into its field of struct type t, or "".
func failingField(t reflect.Type, raw []byte) string {
	if t.Kind() != reflect.Struct {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	fields := map[string]reflect.Type{}
	collectFields(t, fields)
	for name, v := range m {
		ft, ok := fields[strings.ToLower(name)]
		if !ok {
			continue
		}
		if json.Unmarshal(v, reflect.New(ft).Interface()) != nil {
			return name
		}
	}
	return ""
}

// collectFields maps the lowercased JSON names of t's fields (embedded
// structs flattened) to their types.
func collectFields(t reflect.Type, into map[string]reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			collectFields(f.Type, into)
			continue
		}
		if name == "" {
			name = f.Name
		}
		into[strings.ToLower(name)] = f.Type
	}
}

// reason turns a decoding error into a short sentence naming the field.
func reason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "the record"
		}
		return fmt.Sprintf("%s: %s where %s was expected", field, te.Value, goKind(te.Type.String()))
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// goKind names a Go type the way the wire would.
func goKind(t string) string {
	switch {
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"), strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case strings.HasPrefix(t, "map["):
		return "an object"
	case strings.Contains(t, "Time"):
		return "an ISO 8601 date-time"
	case strings.Contains(t, "Decimal"), strings.Contains(t, "Number"):
		return "a decimal amount"
	}
	return "an object"
}
