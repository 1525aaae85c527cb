package table

import (
	"strconv"
	"strings"
	"time"

	"treasury/ui/shelf"
)

// Lines are the formatted rows the tables of a process share: a row of a
// shared projection (one *Row for every session while it is unchanged),
// laid out at one width and column layout and styled by one set of
// styles, is formatted and styled once, by the first table that shows it;
// the others read the same strings. Twenty sessions on a live view would
// otherwise format every new row twenty times.
type Lines struct {
	s *shelf.Shelf[lineKey, rowLines]
}

// maxLines bounds a generation of Lines: some 30 rows shown per table,
// times the layouts and styles of the sessions at once, with room to
// spare.
const maxLines = 2048

// lineKey is one row formatted in one layout for one set of styles, or
// (row nil) a header or footer line, its text in layout.
type lineKey struct {
	row    *Row
	layout string
	kind   rowKind
}

// NewLines returns an empty shared set of lines.
func NewLines() *Lines { return &Lines{s: shelf.New[lineKey, rowLines](maxLines)} }

// Sweep turns the shelf's generation (ui.Drawings.Sweep, periodically):
// the lines no session asked for in two sweeps are dropped.
func (l *Lines) Sweep(time.Time, time.Duration) { l.s.Turn() }

func (s *Lines) get(k lineKey) (rowLines, bool) { return s.s.Get(k) }

func (s *Lines) put(k lineKey, l rowLines) { s.s.Put(k, l) }

// Len is the number of lines kept.
func (s *Lines) Len() int { return s.s.Len() }

// ShareLines has the table read and keep its rows' lines in lines (nil:
// its own), for styles named styles: tables with the same styles name
// must have the same styles (the session's colour profile and
// background, say).
func (m *Model) ShareLines(lines *Lines, styles string) {
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
	return b.String()
}
