package table

// Sideways scrolling: when the columns do not all fit the table's width,
// ScrollColumns shifts them by a column at a time, the first (the one that
// names the row) staying in place, and the header shows "‹" after the
// first column while columns are scrolled away to the left and "›" at its
// right end while columns on the right are not shown. Where every column
// fits, nothing scrolls and no marker shows. The selection, the sort and
// the filter do not depend on it.

// ensureLayout lays the columns out for the current size and data if they
// are not.
func (m *Model) ensureLayout() {
	if m.c.widths == nil || m.c.widthsOf != m.data {
		m.c.widths, m.c.widthsOf = m.layout(), m.data
	}
}

// scrolled is the number of columns after the first scrolled away: the
// one asked for, within what the width allows.
func (m *Model) scrolled() int { return min(m.hscroll, m.c.hmax) }

// ScrollColumns scrolls the columns by delta (negative: to the left) and
// reports whether that changed what is shown: not when every column fits,
// nor beyond the first or the last column.
func (m *Model) ScrollColumns(delta int) bool {
	m.ensureLayout()
	k := max(0, min(m.scrolled()+delta, m.c.hmax))
	if k == m.scrolled() {
		return false
	}
	m.hscroll = k
	m.c.invalidate()
	m.c.widths = nil
	return true
}

// ColumnScroll returns how many columns after the first are scrolled away
// to the left, and at most how many can be; max is 0 when every column
// fits the width.
func (m *Model) ColumnScroll() (at, most int) {
	m.ensureLayout()
	return m.scrolled(), m.c.hmax
}

// CanScroll reports whether the columns do not all fit, so that
// ScrollColumns shows others.
func (m *Model) CanScroll() bool {
	_, most := m.ColumnScroll()
	return most > 0
}
