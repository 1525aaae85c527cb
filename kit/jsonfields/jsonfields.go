// Package jsonfields lists the leaves of a record type as encoding/json
// names them: dotted paths of JSON names ("originator.sourceAmount"),
// nested structs (and pointers to them) flattened, embedded structs
// without a name inlined as encoding/json inlines them, an optional value
// (a struct of an Opt-like type: a method Get() (T, bool), as
// treasury/wire.Opt) unwrapped to what it holds. A leaf is a value
// written as one: not a struct, or one that marshals itself as text.
// `treasury get` writes a record's CSV columns from them; the dashboard
// checks a custom command's {field} placeholders against them.
package jsonfields

import (
	"encoding"
	"reflect"
	"strings"
)

// OptGet marks, in a Leaf's Index, an optional value unwrapped by its Get.
const OptGet = -1

// Leaf is one leaf of a record type.
type Leaf struct {
	// Path is its JSON path ("destination.destinationAmount").
	Path string
	// Index are the struct field indexes that reach it (OptGet where an
	// optional value is unwrapped).
	Index []int
	// Type is the leaf's type.
	Type reflect.Type
}

// Name is the leaf's own JSON name: the last part of its path.
func (l Leaf) Name() string { return l.Path[strings.LastIndexByte(l.Path, '.')+1:] }

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// Optional reports whether t is an optional value (a struct with a method
// Get() (T, bool)) and the type it holds.
func Optional(t reflect.Type) (reflect.Type, bool) {
	m, ok := t.MethodByName("Get")
	if t.Kind() != reflect.Struct || !ok || m.Type.NumIn() != 1 || m.Type.NumOut() != 2 || m.Type.Out(1).Kind() != reflect.Bool {
		return nil, false
	}
	return m.Type.Out(0), true
}

// IsLeaf reports whether values of t are written as one value.
func IsLeaf(t reflect.Type) bool {
	return t.Kind() != reflect.Struct || t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)
}

// Leaves are the leaves of t (a struct type, or a pointer to one), in the
// order of its fields.
func Leaves(t reflect.Type) []Leaf {
	var out []Leaf
	var walk func(t reflect.Type, prefix string, index []int)
	walk = func(t reflect.Type, prefix string, index []int) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if inner, ok := Optional(t); ok {
			walk(inner, prefix, append(append([]int(nil), index...), OptGet))
			return
		}
		if IsLeaf(t) {
			out = append(out, Leaf{Path: strings.TrimSuffix(prefix, "."), Index: index, Type: t})
			return
		}
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			idx := append(append([]int(nil), index...), i)
			ft := sf.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			switch {
			case sf.Anonymous && name == "" && !IsLeaf(ft):
				walk(ft, prefix, idx)
			case name == "":
				walk(sf.Type, prefix+sf.Name+".", idx)
			default:
				walk(sf.Type, prefix+name+".", idx)
			}
		}
	}
	walk(t, "", nil)
	return out
}
