package table

import (
	"strings"
	"unicode/utf8"
)

// What a version keeps of a row is small: a table of 100,000 payments is
// held once for every session, and its rows were most of what a scope
// cost. A Builder keeps, in place of the row's cells, keys and fields as
// given, one text (the cells then the fields' values, "\x00" between:
// what is drawn, searched and sorted by), the fields' names (one string
// shared by the rows that have the same fields), and in Keys only the
// keys that are set, each with its column. The cells of the rows drawn are cut from the
// text when drawn.

// keptRow is a row as a version keeps it (see above).
type keptRow struct {
	text  string
	names string // the fields' names, "\x00" between
	// keyed has bit c set when column c (of the first 32) has a key:
	// the others are found without reading keys.
	keyed  uint32
	ncells uint16
	// plain says no rune of the text folds to an ASCII letter (the
	// Kelvin sign, the long s, a dotted capital I): an ASCII term then
	// finds in it, case aside, exactly what a lowercased copy would
	// show, without a copy.
	plain bool
	kept  bool
}

// joinText writes cells then the fields' values into buf, "\x00" between.
func joinText(buf []byte, cells []string, fields []Field) []byte {
	buf = buf[:0]
	for i, c := range cells {
		if i > 0 {
			buf = append(buf, 0)
		}
		buf = append(buf, c...)
	}
	for i, f := range fields {
		if i > 0 || len(cells) > 0 {
			buf = append(buf, 0)
		}
		buf = append(buf, f.Value...)
	}
	return buf
}

// foldsToASCII reports whether s holds a rune that a case-insensitive
// match, or a lowercased copy, takes for an ASCII letter.
func foldsToASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ContainsRune(s, '\u212a') || strings.ContainsRune(s, '\u017f') || strings.ContainsRune(s, '\u0130')
		}
	}
	return false
}

// namesOf is the fields' names joined, shared: rows with the same fields
// hold one string.
func (b *Builder) namesOf(fields []Field) string {
	if len(fields) == 0 {
		return ""
	}
	var buf []byte
	for i, f := range fields {
		if i > 0 {
			buf = append(buf, 0)
		}
		buf = append(buf, f.Name...)
	}
	if s, ok := b.names[string(buf)]; ok {
		return s
	}
	s := string(buf)
	if len(b.names) < maxNameSets {
		if b.names == nil {
			b.names = map[string]string{}
		}
		b.names[s] = s
	}
	return s
}

// maxNameSets bounds the sets of field names a builder shares.
const maxNameSets = 1024

// keptKeys are the keys of keys that are set, each with its column; nil
// when none is.
func keptKeys(keys []Key) []Key {
	n := 0
	for _, k := range keys {
		if !k.isZero() {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Key, 0, n)
	for c, k := range keys {
		if !k.isZero() {
			out = append(out, k.withCol(c))
		}
	}
	return out
}

func sameKeys(a, b []Key) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].col != b[i].col || !a[i].same(b[i]) {
			return false
		}
	}
	return true
}

// Key is the sort key of column c (the zero Key: the cell's text sorts).
func (r *Row) Key(c int) Key {
	if !r.kept {
		if c < len(r.Keys) {
			return r.Keys[c]
		}
		return Key{}
	}
	if c < 32 && r.keyed&(1<<c) == 0 {
		return Key{}
	}
	for _, k := range r.Keys { // the keys set, each with its column
		if int(k.col) == c {
			k.col = 0
			return k
		}
	}
	return Key{}
}

// keyedOf is the Row.keyed mask of kept keys.
func keyedOf(keys []Key) uint32 {
	var m uint32
	for _, k := range keys {
		if k.col < 32 {
			m |= 1 << k.col
		}
	}
	return m
}

// Cell is the text of cell c ("" past the last): what Cells held, also
// of a row a version keeps.
func (r *Row) Cell(c int) string { return cellAt(r, c) }

// cellAt is the text of cell c ("" past the last).
func cellAt(r *Row, c int) string {
	if !r.kept {
		if c < len(r.Cells) {
			return r.Cells[c]
		}
		return ""
	}
	if c >= int(r.ncells) {
		return ""
	}
	s, _ := segment(r.text, c)
	return s
}

// eachCell calls f with each cell of the row, in order, without copying.
func (r *Row) eachCell(f func(c int, cell string)) {
	if !r.kept {
		for c, cell := range r.Cells {
			f(c, cell)
		}
		return
	}
	rest := r.text
	for c := range int(r.ncells) {
		cell, after, _ := strings.Cut(rest, "\x00")
		f(c, cell)
		rest = after
	}
}

// ncell counts the row's cells.
func (r *Row) ncell() int {
	if !r.kept {
		return len(r.Cells)
	}
	return int(r.ncells)
}

// cells are the row's cells (a copy, for a row kept).
func (r *Row) cells() []string {
	if !r.kept {
		return r.Cells
	}
	out := make([]string, r.ncells)
	rest := r.text
	for i := range out {
		cell, after, _ := strings.Cut(rest, "\x00")
		out[i], rest = cell, after
	}
	return out
}

// fields are the row's fields (a copy, for a row kept).
func (r *Row) fields() []Field {
	if !r.kept {
		return r.Fields
	}
	if r.names == "" {
		return nil
	}
	names := strings.Split(r.names, "\x00")
	out := make([]Field, len(names))
	for i, n := range names {
		v, _ := segment(r.text, int(r.ncells)+i)
		out[i] = Field{Name: n, Value: v}
	}
	return out
}

// given is the row as it was given to the builder: cells, keys and fields
// whole (what Selected answers).
func (r *Row) given() Row {
	if !r.kept {
		return *r
	}
	out := Row{ID: r.ID, Group: r.Group, Cells: r.cells(), Fields: r.fields()}
	if len(r.Keys) > 0 {
		last := int(r.Keys[len(r.Keys)-1].col)
		out.Keys = make([]Key, last+1)
		for _, k := range r.Keys {
			c := int(k.col)
			k.col = 0
			out.Keys[c] = k
		}
	}
	return out
}
