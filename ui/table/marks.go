package table

import "slices"

// Marks are the records picked for one action on several at once (a
// freeze of the nine transactions of one fraud ring). A table marks only
// when its page has such an action (SetMarking). Marks are the session's,
// kept by id: they stay through new versions of the rows, a filter and a
// sort; a marked record the data no longer holds stays marked, and the
// action that takes the marks says it is gone, never drops it in silence.
// While any are set, the rows are drawn after a gutter whose "✓" marks
// them, so that they show without colour.
type marks struct {
	on  bool
	ids map[string]struct{}
	// anchor is the row marked last: ctrl+space marks from it to the
	// cursor.
	anchor string
	// had says the gutter was laid out: any row was marked.
	had bool
}

// markGutter is the width of the gutter before the rows: two cells while
// any row is marked.
const markGutter = 2

// SetMarking lets the table mark rows (off: its marks are cleared).
func (m *Model) SetMarking(on bool) {
	m.marks.on = on
	if !on {
		m.ClearMarks()
	}
}

// Marking reports whether the table marks rows.
func (m *Model) Marking() bool { return m.marks.on }

// MarkCount is how many records are marked.
func (m *Model) MarkCount() int { return len(m.marks.ids) }

// IsMarked reports whether the record id is marked.
func (m *Model) IsMarked(id string) bool {
	_, ok := m.marks.ids[id]
	return ok
}

// Marked are the ids of the marked records: those shown first, in the
// order shown, then those the filter hides, in the data's order, then
// those the data no longer holds.
func (m *Model) Marked() []string {
	if len(m.marks.ids) == 0 {
		return nil
	}
	out := make([]string, 0, len(m.marks.ids))
	seen := make(map[string]bool, len(m.marks.ids))
	add := func(id string) {
		if _, ok := m.marks.ids[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, s := range m.view {
		if r := m.data.row(s); r != nil {
			add(r.ID)
		}
	}
	for _, id := range m.data.IDs() {
		add(id)
	}
	var gone []string
	for id := range m.marks.ids {
		if !seen[id] {
			gone = append(gone, id)
		}
	}
	slices.Sort(gone)
	return append(out, gone...)
}

// ClearMarks drops every mark and returns how many there were.
func (m *Model) ClearMarks() int {
	n := len(m.marks.ids)
	m.setMarks(nil)
	m.marks.anchor = ""
	return n
}

// Unmark drops the marks of ids (the records an action took).
func (m *Model) Unmark(ids []string) {
	if len(m.marks.ids) == 0 || len(ids) == 0 {
		return
	}
	next := m.marksCopy()
	for _, id := range ids {
		delete(next, id)
	}
	m.setMarks(next)
}

// setMarks replaces the marks; the layout changes when the gutter comes
// or goes, and the footer counts them (the rows' lines are kept).
func (m *Model) setMarks(ids map[string]struct{}) {
	if m.marks.had != (len(ids) > 0) {
		m.c.widths = nil
		m.marks.had = len(ids) > 0
	}
	m.marks.ids = ids
	m.c.invalidate()
}

// mark toggles the mark of the row under the cursor and moves the cursor
// down, to mark the next with the next press.
func (m *Model) mark() {
	id := m.SelectedID()
	if id == "" || !m.marks.on {
		return
	}
	m.toggle(id)
	m.MoveCursor(1)
}

// toggle marks id, or unmarks it; the next range starts from it.
func (m *Model) toggle(id string) {
	ids := m.marksCopy()
	if _, ok := ids[id]; ok {
		delete(ids, id)
	} else {
		ids[id] = struct{}{}
	}
	m.marks.anchor = id
	m.setMarks(ids)
}

// markRange marks every row shown from the last marked (the anchor) to
// the cursor, both included; without an anchor shown, the cursor's row.
func (m *Model) markRange() {
	id := m.SelectedID()
	if id == "" || !m.marks.on {
		return
	}
	from := m.cursor
	if k := m.viewIndex(m.marks.anchor); k >= 0 {
		from = k
	}
	lo, hi := min(from, m.cursor), max(from, m.cursor)
	ids := m.marksCopy()
	for k := lo; k <= hi && k < len(m.view); k++ {
		if r := m.data.row(m.view[k]); r != nil {
			ids[r.ID] = struct{}{}
		}
	}
	m.marks.anchor = id
	m.setMarks(ids)
}

// invertMarks marks every row shown that is not, and unmarks those that
// are: the filtered view's complement. Marks the filter hides stay.
func (m *Model) invertMarks() {
	if !m.marks.on {
		return
	}
	ids := m.marksCopy()
	for _, s := range m.view {
		r := m.data.row(s)
		if r == nil {
			continue
		}
		if _, ok := ids[r.ID]; ok {
			delete(ids, r.ID)
		} else {
			ids[r.ID] = struct{}{}
		}
	}
	m.setMarks(ids)
}

// marksCopy is the marks to change, in place (setMarks takes them back):
// a table's marks are its own.
func (m *Model) marksCopy() map[string]struct{} {
	if m.marks.ids == nil {
		return map[string]struct{}{}
	}
	return m.marks.ids
}

// gutter is the width taken before the rows for marks.
func (m *Model) gutter() int {
	if len(m.marks.ids) > 0 {
		return markGutter
	}
	return 0
}

// markCell is the gutter of the i-th visible row: "✓ " when it is marked.
func (m *Model) markCell(i int) string {
	k := m.offset + i
	if k >= len(m.view) {
		return "  "
	}
	if r := m.data.row(m.view[k]); r != nil && m.IsMarked(r.ID) {
		return m.styles.Mark.Render("✓") + " "
	}
	return "  "
}

// GutterWidth is the width of what is drawn before a row's cells: the
// marks' gutter while any row is marked, and the selection's "▸".
func (m *Model) GutterWidth() int {
	w := m.gutter()
	if m.marker {
		w += 2
	}
	return w
}

// ClickMark marks the row shown on visible line i (0 is the first row
// under the header), or unmarks it, as space on it would, the cursor on
// it; false when the table does not mark or the line has no row.
func (m *Model) ClickMark(i int) bool {
	if !m.marks.on || i < 0 || i >= m.bodyHeight() || m.offset+i >= len(m.view) {
		return false
	}
	m.ClickRow(i)
	m.toggle(m.SelectedID())
	return true
}
