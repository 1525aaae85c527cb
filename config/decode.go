package config

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is one problem in a configuration: which file, which key (dotted
// path such as profiles.uat.payments.base_url), which line, and what is
// wrong.
type Error struct {
	File string
	Key  string
	Line int // 0 when the problem has no line (a missing profile, say)
	// Col is the column in the line, from 1 (0 when not known).
	Col int
	Msg string
}

// Error is "file:line:col: key: what", as compilers write it, so that an
// editor can jump to it.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// Errors are all the problems found in one configuration.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As find each *Error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// decoder walks a YAML node tree into the raw structs, rejecting unknown
// keys and remembering the line of every key so that later checks can point
// at it.
type decoder struct {
	file  string
	lines map[string]int
	// cols is the column of every key, beside its line.
	cols map[string]int
	errs Errors
}

func newDecoder(file string) *decoder {
	return &decoder{file: file, lines: map[string]int{}, cols: map[string]int{}}
}

func (d *decoder) errf(key string, line int, format string, args ...any) {
	col := 0
	if d.lines[key] == line {
		col = d.cols[key]
	}
	d.errs = append(d.errs, &Error{File: d.file, Key: key, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

// errAt reports a problem about key at node n, by its line and column.
func (d *decoder) errAt(key string, n *yaml.Node, format string, args ...any) {
	d.errs = append(d.errs, &Error{File: d.file, Key: key, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)})
}

// at reports a problem about key at the line it was read from.
func (d *decoder) at(key, format string, args ...any) {
	d.errf(key, d.lines[key], format, args...)
}

func joinKey(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "something else"
}

func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string) {
	for n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if _, seen := d.lines[path]; !seen {
		d.lines[path], d.cols[path] = n.Line, n.Column
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.decode(n, v.Elem(), path)
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			d.errAt(path, n, "must be a mapping of keys, not %s", kindName(n))
			return
		}
		fields := structFields(v.Type())
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			key := joinKey(path, k.Value)
			idx, ok := fields[k.Value]
			if !ok {
				d.errAt(key, k, "unknown key (known keys here: %s)", knownKeys(fields))
				continue
			}
			if seen[k.Value] {
				d.errAt(key, k, "key given twice")
				continue
			}
			seen[k.Value] = true
			d.lines[key], d.cols[key] = k.Line, k.Column
			d.decode(val, v.Field(idx), key)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			d.errAt(path, n, "must be a mapping of keys, not %s", kindName(n))
			return
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			key := joinKey(path, k.Value)
			if v.MapIndex(reflect.ValueOf(k.Value)).IsValid() {
				d.errAt(key, k, "key given twice")
				continue
			}
			d.lines[key], d.cols[key] = k.Line, k.Column
			elem := reflect.New(v.Type().Elem()).Elem()
			d.decode(val, elem, key)
			v.SetMapIndex(reflect.ValueOf(k.Value), elem)
		}
	case reflect.Slice:
		if n.Kind == yaml.ScalarNode && v.Type() == reflect.TypeFor[keyList]() {
			v.Set(reflect.ValueOf(keyList{n.Value})) // one key, or a list of them
			return
		}
		if n.Kind != yaml.SequenceNode {
			d.errAt(path, n, "must be a list, not %s", kindName(n))
			return
		}
		out := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			key := fmt.Sprintf("%s[%d]", path, i)
			d.lines[key], d.cols[key] = item.Line, item.Column
			d.decode(item, out.Index(i), key)
		}
		v.Set(out)
	default:
		if n.Kind != yaml.ScalarNode {
			d.errAt(path, n, "must be a single value, not %s", kindName(n))
			return
		}
		if err := n.Decode(v.Addr().Interface()); err != nil {
			d.errAt(path, n, "must be %s, not %q", typeWord(v.Kind()), n.Value)
		}
	}
}

func typeWord(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "a whole number"
	case reflect.Float64, reflect.Float32:
		return "a number"
	}
	return "a string"
}

// structFields maps yaml key names to field indexes.
func structFields(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if tag != "" && tag != "-" {
			out[tag] = i
		}
	}
	return out
}

func knownKeys(fields map[string]int) string {
	return strings.Join(slices.Sorted(maps.Keys(fields)), ", ")
}
