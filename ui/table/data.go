package table

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// SetRows replaces the data with rows built for this table alone (a
// small list; a large one shared by sessions comes from a Builder through
// SetData). now is the time of the update: rows that are new or whose
// cells differ from the previous update's row with the same ID are
// highlighted from now on (the first SetRows highlights nothing). The
// cursor stays on the same record ID; if that record is gone it stays at
// the same position. Filter and sort are applied again, at once.
func (m *Model) SetRows(rows []Row, now time.Time) {
	if m.own == nil {
		m.own = NewBuilder(nil)
	}
	m.now = now.UnixNano()
	m.setData(m.own.Replace(rows, now), true)
}

// syncRows is the size under which a view is computed at once rather than
// in a command: filtering or sorting it costs well under a millisecond.
const syncRows = 4096

// SetData shows a version of rows shared with other sessions (built by a
// Builder). The view for the table's filter and sort is taken from the
// version when another session computed it; else it is computed at once
// for a small table, or by the returned command for a large one, the
// previous view staying on screen meanwhile (Update swaps the result in).
func (m *Model) SetData(d *Rows) tea.Cmd {
	return m.setData(d, false)
}

func (m *Model) setData(d *Rows, sync bool) tea.Cmd {
	if d == m.data && !m.pending && m.viewOf == d {
		return nil
	}
	m.data = d
	return m.refresh(sync)
}

// Computed is the answer of a view computed off the UI goroutine.
type Computed struct {
	m    *Model
	data *Rows
	key  viewKey
	view []int32
}

func (m *Model) key() viewKey {
	return viewKey{filter: m.lfilter, names: m.names, col: m.sortCol, desc: m.sortDesc, group: m.group, grouped: m.grouped}
}

// SetGroup shows only the rows of group g (Row.Group); on false shows every
// row. A large table selects them in the command it returns.
func (m *Model) SetGroup(g string, on bool) tea.Cmd {
	if g == m.group && on == m.grouped {
		return nil
	}
	m.group, m.grouped = g, on
	return m.refresh(false)
}

// refresh shows the view of the current data, filter and sort: cached,
// computed now (small, or sync), or asked of a command.
func (m *Model) refresh(sync bool) tea.Cmd {
	k, d := m.key(), m.data
	if v, ok := d.cachedView(k); ok || sync || d.Len() <= syncRows {
		if !ok {
			v = d.view(k)
		}
		m.setView(d, v)
		return nil
	}
	m.pending = true
	return func() tea.Msg { return Computed{m: m, data: d, key: k, view: d.view(k)} }
}

// computed swaps in a view computed by a command, when it is still the one
// wanted; for an older version it asks again.
func (m *Model) computed(c Computed) tea.Cmd {
	if c.m != m {
		return nil
	}
	if c.data != m.data || c.key != m.key() {
		if !m.pending {
			return nil
		}
		return m.refresh(false)
	}
	m.setView(c.data, c.view)
	return nil
}

func (m *Model) setView(d *Rows, v []int32) {
	m.view, m.viewOf, m.pending = v, d, false
	m.c.invalidate()
	m.restoreSelection()
}

// Computing reports whether a view is being computed (the one shown is of
// an older version, or of the previous filter or sort).
func (m *Model) Computing() bool { return m.pending }

// SetFilter shows only the rows that match f, a search (case-insensitive:
// terms ANDed, name:value, !, ~regexp; see query.go). The empty string
// shows every row. The cursor stays on the
// selected record when it is still shown. A large table filters in the
// returned command.
func (m *Model) SetFilter(f string) tea.Cmd {
	if f == m.filter {
		return nil
	}
	m.filter, m.lfilter = f, strings.ToLower(f)
	return m.refresh(false)
}

// Filter returns the filter set by SetFilter.
func (m *Model) Filter() string { return m.filter }

// FilterNote says what of the filter was not taken as typed (a regular
// expression that does not compile is matched as text); "" when all was.
func (m *Model) FilterNote() string {
	if m.lfilter == "" {
		return ""
	}
	return compileQuery(m.lfilter, strings.Split(m.names, "\x00")).note
}

// SetSort sorts by column col (-1: the order the rows were given in),
// descending if desc. Sorting is stable: equal keys keep the given order.
func (m *Model) SetSort(col int, desc bool) tea.Cmd {
	if col < -1 || col >= len(m.cols) {
		col = -1
	}
	if col == m.sortCol && desc == m.sortDesc {
		return nil
	}
	m.sortCol, m.sortDesc = col, desc
	return m.refresh(false)
}

// Sort returns the sort column (-1 for none) and direction.
func (m *Model) Sort() (col int, desc bool) { return m.sortCol, m.sortDesc }

// SortNext sorts by the next sortable column (ascending), wrapping to the
// given order after the last one.
func (m *Model) SortNext() tea.Cmd {
	for c := m.sortCol + 1; c < len(m.cols); c++ {
		if !m.cols[c].NoSort {
			return m.SetSort(c, false)
		}
	}
	return m.SetSort(-1, false)
}

// SortReverse flips the sort direction (sorting by the first sortable column
// if there was no sort).
func (m *Model) SortReverse() tea.Cmd {
	if m.sortCol < 0 {
		for c := range m.cols {
			if !m.cols[c].NoSort {
				return m.SetSort(c, true)
			}
		}
		return nil
	}
	return m.SetSort(m.sortCol, !m.sortDesc)
}

// restoreSelection puts the cursor back on selID, or keeps its position.
func (m *Model) restoreSelection() {
	if m.live && m.following && m.givenOrder() {
		m.setCursor(0) // follow the newest
		return
	}
	k := -1
	if m.selID != "" {
		k = m.viewIndex(m.selID)
	}
	if k < 0 {
		k = m.cursor
	}
	if m.live && k > m.cursor && m.givenOrder() {
		// Rows arrived above the selection: hold the screen still.
		d := k - m.cursor
		m.newAbove += d
		m.offset += d
		m.c.invalidate()
	}
	m.setCursor(k)
}

// givenOrder reports whether the table shows the rows in their given
// order (newest first for a live table), where following makes sense.
func (m *Model) givenOrder() bool { return m.sortCol < 0 || (m.sortCol == 0 && m.sortDesc) }
