package table

import (
	"cmp"
	"slices"
	"strings"
)

// sortEnt is one row's key in the sort column, copied out of the row so
// that sorting 100,000 rows compares contiguous entries instead of chasing
// each row's Keys and Cells through memory.
type sortEnt struct {
	s    string  // kindNone: the cell text; kindString: the key
	i    int64   // kindInt
	f    float64 // kindFloat, kindDecimal (its float approximation)
	row  int32
	kind keyKind
}

// sortOrder sorts m.order (all rows, in the given order) by the sort
// column: by key kind, then key, then the given order (stable), the whole
// reversed when descending except that tie-break.
func (m *Model) sortOrder() {
	rows, c := m.rows, m.sortCol
	if cap(m.sortBuf) < len(rows) {
		m.sortBuf = make([]sortEnt, 0, len(rows))
	}
	ents := m.sortBuf[:0]
	for i := range rows {
		e := sortEnt{row: int32(i)}
		if c < len(rows[i].Keys) {
			k := &rows[i].Keys[c]
			e.kind, e.s, e.i, e.f = k.kind, k.s, k.i, k.f
		}
		if e.kind == kindNone {
			e.s = cellAt(&rows[i], c)
		}
		ents = append(ents, e)
	}
	sign := 1
	if m.sortDesc {
		sign = -1
	}
	slices.SortFunc(ents, func(a, b sortEnt) int {
		if r := sign * compareEnt(&a, &b, rows, c); r != 0 {
			return r
		}
		return cmp.Compare(a.row, b.row) // stable in the given order
	})
	for i := range ents {
		m.order[i] = ents[i].row
	}
	clear(ents) // hold no cell strings past this sort
	m.sortBuf = ents[:0]
}

func compareEnt(a, b *sortEnt, rows []Row, c int) int {
	if a.kind != b.kind {
		return cmp.Compare(a.kind, b.kind)
	}
	switch a.kind {
	case kindNone, kindString:
		return strings.Compare(a.s, b.s)
	case kindInt:
		return cmp.Compare(a.i, b.i)
	case kindFloat:
		return cmp.Compare(a.f, b.f)
	case kindDecimal:
		// Rounding to the nearest float is monotonic, so unequal floats
		// order their decimals correctly; equal ones need the exact compare.
		if r := cmp.Compare(a.f, b.f); r != 0 {
			return r
		}
		return rows[a.row].Keys[c].d.Cmp(rows[b.row].Keys[c].d)
	}
	return 0
}
