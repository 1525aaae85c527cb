package table

import "strings"

// Measures of a version's cells, per column: how wide its cells are and
// how many cells each has from its decimal point to its end. The table
// sizes a column to its content (Column.Max) and lines up the decimal
// points of a Point column from them. They are counted by the Builder
// that makes the version (once per change for every session), as counts
// per width, so that a change of a few rows among 100,000 updates them
// without a scan, and the widest is found in a few steps.

// Bounds of the counts: a cell wider is counted at the last width (the
// table never sizes a column to more), a longer fraction at the last.
const (
	widthCap = 128
	fracCap  = 24
)

// colMeasure counts the cells of one column by width and by fraction.
type colMeasure struct {
	width [widthCap]int32
	frac  [fracCap]int32
	whole [widthCap]int32 // by width left of the decimal point
}

// measures are the counts of every column of a version, shared with the
// version before it until one changes (copy on write, per Builder step).
type measures []*colMeasure

// cellFrac is the width of a cell from its last decimal point to its end
// (".90" is 3), 0 without one: how far right of its column's decimal
// points a Point cell's point stands.
func cellFrac(s string) int {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return 0
	}
	return textWidth(s[i:])
}

// add counts (n = 1) or uncounts (n = -1) the cells of r, copying the
// counts of a column before its first change in this step (own marks
// the columns already copied).
func (ms *measures) add(r *Row, n int32, own []bool) []bool {
	for len(own) < len(*ms) {
		own = append(own, false)
	}
	for len(*ms) < r.ncell() {
		*ms = append(*ms, &colMeasure{})
		own = append(own, true)
	}
	r.eachCell(func(c int, cell string) {
		if !own[c] {
			cp := *(*ms)[c]
			(*ms)[c] = &cp
			own[c] = true
		}
		m := (*ms)[c]
		w, f := textWidth(cell), cellFrac(cell)
		m.width[min(w, widthCap-1)] += n
		m.frac[min(f, fracCap-1)] += n
		m.whole[min(w-f, widthCap-1)] += n
	})
	return own
}

// widest is the largest count index with a cell, 0 when none.
func widest(counts []int32) int {
	for i := len(counts) - 1; i > 0; i-- {
		if counts[i] > 0 {
			return i
		}
	}
	return 0
}

// ContentWidth is the width of column c's widest cell (at most 127).
func (d *Rows) ContentWidth(c int) int {
	if d == nil || c >= len(d.measures) {
		return 0
	}
	return widest(d.measures[c].width[:])
}

// DecimalWidth is the width of column c's cells with their decimal
// points in line: the widest part left of a point and the widest right.
func (d *Rows) DecimalWidth(c int) int {
	if d == nil || c >= len(d.measures) {
		return 0
	}
	return widest(d.measures[c].whole[:]) + d.FracWidth(c)
}

// FracWidth is the widest fraction of column c's cells: the cells from a
// decimal point to the end of the cell (".90" is 3).
func (d *Rows) FracWidth(c int) int {
	if d == nil || c >= len(d.measures) {
		return 0
	}
	return widest(d.measures[c].frac[:])
}
