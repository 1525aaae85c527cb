package table

import (
	"strconv"
	"strings"

	"treasury/kit/keep"
)

// The tables of a process share their formatted rows (ShareLines): a row
// of a shared projection (one *Row for every session while it is
// unchanged), laid out at one width and column layout and styled by one
// set of styles, is formatted and styled once, by the first table that
// shows it; the others read the same strings, from what the process keeps
// for display (kit/keep), under a lineKey. Twenty sessions on a live view
// would otherwise format every new row twenty times.

// lineKey is one row formatted in one layout for one set of styles, or
// (row nil) a header or footer line, its text in layout.
type lineKey struct {
	row    *Row
	layout string
	kind   rowKind
}

func (m *Model) line(k lineKey) (rowLines, bool) { return keep.Get[lineKey, rowLines](m.shared, k) }

func (m *Model) keepLine(k lineKey, l rowLines) { keep.Put(m.shared, k, l) }

// ShareLines has the table read and keep its rows' lines in lines, what
// the process keeps for display (nil: its own), for styles named styles:
// tables with the same styles name must have the same styles (the
// session's colour profile and background, say).
func (m *Model) ShareLines(lines *keep.Registry, styles string) {
	if m.shared == lines && m.sharedStyles == styles {
		return
	}
	m.shared, m.sharedStyles = lines, styles
	m.c.invalidate()
	m.c.forgetRows()
}

// layoutKey names a row layout with the table's styles and its columns'
// alignments (tables of one projection may set theirs apart).
func (m *Model) layoutKey(l rowLayout) string {
	var b strings.Builder
	b.WriteString(m.sharedStyles)
	b.WriteByte('|')
	for _, c := range m.cols {
		b.WriteByte('0' + byte(c.Align))
	}
	b.WriteByte('|')
	b.WriteString(strconv.Itoa(l.lw))
	if l.marker {
		b.WriteString("m")
	}
	for i, w := range l.widths {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(w))
		if i < len(l.fracs) && l.fracs[i] > 0 {
			b.WriteByte('.')
			b.WriteString(strconv.Itoa(l.fracs[i]))
		}
	}
	if l.order != nil { // the columns in another order than the table's
		b.WriteString("|o")
		for _, i := range l.order {
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(i))
		}
	}
	return b.String()
}
