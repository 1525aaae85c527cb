package table

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// SetRows replaces the data. now is the time of the update: rows that are new
// or whose cells differ from the previous update's row with the same ID are
// highlighted from now on (the first SetRows highlights nothing). The cursor
// stays on the same record ID; if that record is gone it stays at the same
// position. Filter and sort are applied again.
func (m *Model) SetRows(rows []Row, now time.Time) {
	t := now.UnixNano()
	m.now = t
	byID := make(map[string]int, len(rows))
	changed := make([]int64, len(rows))
	lower := make([]string, len(rows))
	var buf []byte
	anyChanged := false
	for i, r := range rows {
		byID[r.ID] = i
		if m.loaded {
			j, ok := m.byID[r.ID]
			if ok && slices.Equal(m.rows[j].Cells, r.Cells) { // unchanged: its search text too
				changed[i], lower[i] = m.changed[j], m.lower[j]
				continue
			}
			changed[i], anyChanged = t, true
		}
		lower[i], buf = searchText(buf, r.Cells)
	}
	m.rows, m.byID, m.changed, m.lower = rows, byID, changed, lower
	m.loaded = true
	if anyChanged {
		m.lastChange = t
	}
	m.resort()
}

// searchText is the lowercased text the filter looks in: the cells joined by
// NUL so that a match never spans two cells. buf is scratch space, returned
// for the next call; ASCII text costs one allocation.
func searchText(buf []byte, cells []string) (string, []byte) {
	buf = buf[:0]
	ascii := true
	for i, c := range cells {
		if i > 0 {
			buf = append(buf, 0)
		}
		for k := 0; k < len(c); k++ {
			b := c[k]
			switch {
			case b >= utf8.RuneSelf:
				ascii = false
			case 'A' <= b && b <= 'Z':
				b += 'a' - 'A'
			}
			buf = append(buf, b)
		}
	}
	if !ascii {
		// ASCII letters are already lowered; ToLower leaves them be.
		return strings.ToLower(string(buf)), buf
	}
	return string(buf), buf
}

// SetFilter shows only the rows containing f (case-insensitive) in one of
// their cells. The empty string shows every row. The cursor stays on the
// selected record when it is still shown.
func (m *Model) SetFilter(f string) {
	if f == m.filter {
		return
	}
	m.filter, m.lfilter = f, strings.ToLower(f)
	m.refilter()
}

// Filter returns the filter set by SetFilter.
func (m *Model) Filter() string { return m.filter }

// SetSort sorts by column col (-1: the order the rows were given in),
// descending if desc. Sorting is stable: equal keys keep the given order.
func (m *Model) SetSort(col int, desc bool) {
	if col < -1 || col >= len(m.cols) {
		col = -1
	}
	if col == m.sortCol && desc == m.sortDesc {
		return
	}
	m.sortCol, m.sortDesc = col, desc
	m.resort()
}

// Sort returns the sort column (-1 for none) and direction.
func (m *Model) Sort() (col int, desc bool) { return m.sortCol, m.sortDesc }

// SortNext sorts by the next sortable column (ascending), wrapping to the
// given order after the last one.
func (m *Model) SortNext() {
	for c := m.sortCol + 1; c < len(m.cols); c++ {
		if !m.cols[c].NoSort {
			m.SetSort(c, false)
			return
		}
	}
	m.SetSort(-1, false)
}

// SortReverse flips the sort direction (sorting by the first sortable column
// if there was no sort).
func (m *Model) SortReverse() {
	if m.sortCol < 0 {
		m.SortNext()
		if m.sortCol < 0 {
			return
		}
	}
	m.SetSort(m.sortCol, !m.sortDesc)
}

func (m *Model) resort() {
	n := len(m.rows)
	if cap(m.order) >= n {
		m.order = m.order[:n]
	} else {
		m.order = make([]int32, n)
	}
	for i := range m.order {
		m.order[i] = int32(i)
	}
	if m.sortCol >= 0 {
		m.sortOrder()
	}
	m.refilter()
}

func cellAt(r *Row, c int) string {
	if c < len(r.Cells) {
		return r.Cells[c]
	}
	return ""
}

func (m *Model) refilter() {
	if m.lfilter == "" {
		m.view = m.order
	} else {
		f := m.lfilter
		out := m.filtered[:0]
		for _, i := range m.order {
			if strings.Contains(m.lower[i], f) {
				out = append(out, i)
			}
		}
		m.filtered = out
		m.view = out
	}
	m.c.invalidate()
	m.restoreSelection()
}

// restoreSelection puts the cursor back on selID, or keeps its position.
func (m *Model) restoreSelection() {
	k := -1
	if m.selID != "" {
		k = m.viewIndex(m.selID)
	}
	if k < 0 {
		k = m.cursor
	}
	m.setCursor(k)
}
