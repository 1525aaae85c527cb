package variant

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The variant reshapes answers as JSON trees that keep the order of object
// members, so that what it does not change reads exactly as the default
// face wrote it, and numbers keep their text (json.Number): money never
// passes through a float.
//
// A value is one of: *object, []any, json.Number, string, bool, nil.

// object is a JSON object with its members in order.
type object struct {
	members []member
}

type member struct {
	key string
	val any
}

// obj builds an object from key, value pairs.
func obj(kv ...any) *object {
	o := &object{}
	for i := 0; i+1 < len(kv); i += 2 {
		o.set(kv[i].(string), kv[i+1])
	}
	return o
}

func (o *object) index(key string) int {
	for i, m := range o.members {
		if m.key == key {
			return i
		}
	}
	return -1
}

// get returns the value of key.
func (o *object) get(key string) (any, bool) {
	if i := o.index(key); i >= 0 {
		return o.members[i].val, true
	}
	return nil, false
}

// str returns the value of key when it is a string.
func (o *object) str(key string) (string, bool) {
	v, _ := o.get(key)
	s, ok := v.(string)
	return s, ok
}

// child returns the value of key when it is an object.
func (o *object) child(key string) *object {
	v, _ := o.get(key)
	c, _ := v.(*object)
	return c
}

// set replaces the value of key, or appends key.
func (o *object) set(key string, v any) {
	if i := o.index(key); i >= 0 {
		o.members[i].val = v
		return
	}
	o.members = append(o.members, member{key, v})
}

// insertAfter puts key right after the member after (at the end when there
// is none), replacing an existing key.
func (o *object) insertAfter(after, key string, v any) {
	o.del(key)
	i := o.index(after)
	if i < 0 {
		o.members = append(o.members, member{key, v})
		return
	}
	o.members = append(o.members, member{})
	copy(o.members[i+2:], o.members[i+1:])
	o.members[i+1] = member{key, v}
}

// del removes key.
func (o *object) del(key string) {
	if i := o.index(key); i >= 0 {
		o.members = append(o.members[:i], o.members[i+1:]...)
	}
}

// parse reads one JSON document.
func parse(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("variant: data after the JSON value")
	}
	return v, nil
}

// decodeValue reads the next value of dec (which must use numbers).
func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.members = append(o.members, member{kt.(string), v})
			}
			_, err := dec.Token() // '}'
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token() // ']'
			return a, err
		}
		return nil, fmt.Errorf("variant: unexpected %v", t)
	default:
		return t, nil // json.Number, string, bool or nil
	}
}

// encode writes v compactly, as encoding/json would (strings escaped the
// same way).
func encode(b *bytes.Buffer, v any) {
	switch t := v.(type) {
	case *object:
		b.WriteByte('{')
		for i, m := range t.members {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeString(b, m.key)
			b.WriteByte(':')
			encode(b, m.val)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			encode(b, x)
		}
		b.WriteByte(']')
	case json.Number:
		b.WriteString(string(t))
	case string:
		encodeString(b, t)
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	default:
		panic(fmt.Sprintf("variant: cannot encode %T", v))
	}
}

func encodeString(b *bytes.Buffer, s string) {
	raw, _ := json.Marshal(s) // a string always marshals
	b.Write(raw)
}

// marshal encodes v into a new slice.
func marshal(v any) []byte {
	var b bytes.Buffer
	encode(&b, v)
	return b.Bytes()
}

// walk calls fn on every object in v, parents before children.
func walk(v any, fn func(*object)) {
	switch t := v.(type) {
	case *object:
		fn(t)
		for _, m := range t.members {
			walk(m.val, fn)
		}
	case []any:
		for _, x := range t {
			walk(x, fn)
		}
	}
}
