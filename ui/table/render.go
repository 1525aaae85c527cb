package table

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/ui/sanitize"
)

// ellipsis ends a cell cut to fit its column.
const ellipsis = "…"

// renderCache holds what View needs for the current window: the column
// widths, the header, each visible row's text and styled line, the footer
// and the assembled view. Data, size, style, filter, sort, window and
// highlight changes invalidate the lines; a cursor move only the assembly.
type renderCache struct {
	valid    bool
	widths   []int
	widthsOf *Rows // the data the widths were laid out for (its measures)
	fracs    []int // the widest fraction of each Point column
	hmax     int   // how many columns after the first can be scrolled away (0: all fit)
	header   string
	plain    []string // formatted text of each visible row, unstyled
	lines    []string // the same, styled as an unselected row
	footer   string
	out      string
	sb       strings.Builder
	// rows is each visible row's lines by the row (a row unchanged in a
	// new version is the same *Row), for the layout they were formatted
	// in: a new quote formats one row, not the window. spare is the map
	// of the rebuild before, reused.
	rows, spare map[*Row]rowLines
	rowsFor     rowLayout
	rowsKey     string // rowsFor's key in the shared lines (ShareLines)
}

// rowLines is a row's text and its line, styled as kind.
type rowLines struct {
	kind        rowKind
	plain, line string
}

type rowKind uint8

const (
	rowCell rowKind = iota
	rowStale
	rowHighlight
	rowSelected // the row under the cursor (shared lines)
	rowHeader   // not a row: the header line (shared lines)
	rowFooter   // not a row: the footer line
)

// rowLayout is what a row's text depends on besides the row: the line's
// width, the gutter, each column's width and decimals, and the columns'
// order on screen (nil: the table's).
type rowLayout struct {
	lw            int
	marker        bool
	widths, fracs []int
	order         []int
}

func (l *rowLayout) same(lw int, marker bool, widths, fracs, order []int) bool {
	return l.lw == lw && l.marker == marker && slices.Equal(l.widths, widths) && slices.Equal(l.fracs, fracs) && slices.Equal(l.order, order)
}

func (c *renderCache) invalidate() { c.valid = false; c.out = "" }

// forgetRows drops the rows' lines (their styles changed).
func (c *renderCache) forgetRows() { c.rows = nil; c.rowsFor = rowLayout{}; c.rowsKey = "" }

// View renders the table: a header line, the visible rows and a footer line,
// Height lines in all (when a height is set).
func (m *Model) View() string {
	if m.c.out != "" {
		return m.c.out
	}
	if !m.c.valid {
		m.rebuild()
	}
	h := m.bodyHeight()
	var b strings.Builder
	n := len(m.c.header) + len(m.c.footer) + h + 2
	for _, l := range m.c.lines {
		n += len(l)
	}
	b.Grow(n + 2*m.lineWidth() + 64) // room for the selected row's styling
	gutter := m.gutter() > 0
	if gutter {
		b.WriteString("  ")
	}
	b.WriteString(m.c.header)
	for i := 0; i < h; i++ {
		b.WriteByte('\n')
		if gutter {
			b.WriteString(m.markCell(i))
		}
		switch {
		case i >= len(m.c.lines):
		case m.offset+i == m.cursor && len(m.view) > 0:
			b.WriteString(m.selectedLine(i))
		default:
			b.WriteString(m.c.lines[i])
		}
	}
	b.WriteByte('\n')
	if gutter {
		b.WriteString("  ")
	}
	b.WriteString(m.c.footer)
	m.c.out = b.String()
	return m.c.out
}

// rebuild formats and styles the header, the visible rows and the footer.
func (m *Model) rebuild() {
	c := &m.c
	if c.widths == nil || c.widthsOf != m.data {
		m.ensureLayout()
		c.fracs = c.fracs[:0]
		for i, col := range m.cols {
			f := 0
			if col.Align == Point {
				f = m.data.FracWidth(i)
			}
			c.fracs = append(c.fracs, f)
		}
	}
	lw := m.lineWidth()
	c.header = m.styled(&m.styles.Header, rowHeader, m.formatHeader(lw))
	c.plain, c.lines = c.plain[:0], c.lines[:0]
	if len(m.view) == 0 {
		msg := m.empty
		if m.data.Len() > 0 && m.filter != "" {
			msg = "No rows match " + strconv.Quote(sanitize.Line(m.filter)) + "."
			if n := m.FilterNote(); n != "" {
				msg += " " + n + "."
			}
			if m.noMatch != "" {
				msg += " " + m.noMatch
			}
		}
		c.plain = append(c.plain, "")
		c.lines = append(c.lines, m.styles.Dim.Render(fit(&c.sb, msg, lw, Left)))
	}
	if !c.rowsFor.same(lw, m.marker, c.widths, c.fracs, m.order) {
		c.rows = nil
		c.rowsFor = rowLayout{lw: lw, marker: m.marker, widths: slices.Clone(c.widths), fracs: slices.Clone(c.fracs), order: slices.Clone(m.order)}
		if m.sharesRows() {
			c.rowsKey = m.layoutKey(c.rowsFor)
		}
	}
	shown := c.spare
	if shown == nil {
		shown = map[*Row]rowLines{}
	}
	end := min(len(m.view), m.offset+m.bodyHeight())
	for k := m.offset; k < end; k++ {
		r := m.data.row(m.view[k])
		if r == nil { // gone since the view was computed: its new view is on its way
			c.plain = append(c.plain, "")
			c.lines = append(c.lines, "")
			continue
		}
		kind, style := rowCell, &m.styles.Cell
		switch {
		case m.stale:
			kind, style = rowStale, &m.styles.Stale
		case m.hl(r, m.now):
			kind, style = rowHighlight, &m.styles.Highlight
		}
		l, ok := c.rows[r]
		if !ok || l.kind != kind {
			l = m.rowLines(r, kind, style, l, ok)
		}
		shown[r] = l
		c.plain = append(c.plain, l.plain)
		c.lines = append(c.lines, l.line)
	}
	clear(c.rows)
	c.rows, c.spare = shown, c.rows
	footer := m.Footer()
	if hidden := m.Hidden(); len(hidden) > 0 {
		names := strings.Join(hidden, ", ")
		keys := ""
		if m.c.hmax > 0 {
			keys = " (" + m.keys.Left.Help().Key + "/" + m.keys.Right.Help().Key + ")"
		}
		if long := footer + " · not shown at this width" + keys + ": " + names; textWidth(long) <= lw {
			footer = long
		} else {
			footer += " · not shown" + keys + ": " + names
		}
	}
	c.footer = m.styled(&m.styles.Dim, rowFooter, fit(&c.sb, footer, lw, Left))
	c.valid = true
	c.out = ""
}

// selectedLine is the i-th visible row's line styled as the selected row,
// from the shared lines when another table made it.
func (m *Model) selectedLine(i int) string {
	var r *Row
	if m.sharesRows() {
		r = m.data.row(m.view[m.offset+i])
		if r != nil {
			if l, ok := m.line(lineKey{row: r, layout: m.c.rowsKey, kind: rowSelected}); ok {
				return l.line
			}
		}
	}
	line := m.c.plain[i]
	if m.marker {
		line = "▸" + strings.TrimPrefix(line, " ") // the gutter's first cell
	}
	line = m.styles.Selected.Render(line)
	if r != nil {
		m.keepLine(lineKey{row: r, layout: m.c.rowsKey, kind: rowSelected}, rowLines{kind: rowSelected, line: line})
	}
	return line
}

// rowLines is r's lines styled as kind with style, from the shared lines
// when another table made them; had, when ok, are its lines in another
// kind, which keep their text.
func (m *Model) rowLines(r *Row, kind rowKind, style *lipgloss.Style, had rowLines, ok bool) rowLines {
	k := lineKey{row: r, layout: m.c.rowsKey, kind: kind}
	share := m.sharesRows()
	if share {
		if l, found := m.line(k); found {
			return l
		}
	}
	l := rowLines{kind: kind}
	if ok {
		l.plain = had.plain
	} else {
		l.plain = m.formatRow(r, m.c.rowsFor.lw)
	}
	l.line = style.Render(l.plain)
	if share {
		m.keepLine(k, l)
	}
	return l
}

// sharesRows reports whether the table's rows' lines are shared: when it
// shares lines (ShareLines) and shows rows of a shared projection
// (SetData). Rows set for the table alone (SetRows) are its own *Row,
// which no other table shows; their lines would only take room from the
// lines tables do share. The header and footer are shared either way.
func (m *Model) sharesRows() bool { return m.shared != nil && m.own == nil }

// styled is text styled with style, from the shared lines when another
// table styled the same (a header or footer: kind).
func (m *Model) styled(style *lipgloss.Style, kind rowKind, text string) string {
	if m.shared == nil {
		return style.Render(text)
	}
	k := lineKey{layout: m.sharedStyles + "|" + text, kind: kind}
	if l, ok := m.line(k); ok {
		return l.line
	}
	l := rowLines{kind: kind, line: style.Render(text)}
	m.keepLine(k, l)
	return l.line
}

// Footer returns the footer text: rows shown out of rows held (of the
// group, when the table shows one), the filter and whether the data is
// stale.
func (m *Model) Footer() string {
	var b strings.Builder
	total := m.data.Len()
	if m.grouped {
		total = -1 // the group's size is that of its view, known without a filter
		if m.filter == "" {
			total = len(m.view)
		}
	}
	if m.filter != "" && total >= 0 {
		b.WriteString(strconv.Itoa(len(m.view)))
		b.WriteByte('/')
	}
	n := total
	if n < 0 {
		n = len(m.view)
	}
	b.WriteString(strconv.Itoa(n))
	if n == 1 {
		b.WriteString(" row")
	} else {
		b.WriteString(" rows")
	}
	if m.filter != "" {
		b.WriteString(", filter: ")
		b.WriteString(sanitize.Line(m.filter))
	}
	if m.stale {
		b.WriteString(", stale")
	}
	if n := len(m.marks.ids); n > 0 {
		b.WriteString(" · ")
		b.WriteString(strconv.Itoa(n))
		b.WriteString(" marked")
	}
	if m.picking {
		b.WriteString(" · sort by: a column's letter, " + m.keys.SortNext.Help().Key + " the next, " + m.keys.SortBack.Help().Key + " reverse, esc as it is")
	}
	if m.live && !m.following && m.newAbove > 0 {
		b.WriteString(" · ↑ ")
		b.WriteString(strconv.Itoa(m.newAbove))
		b.WriteString(" new (" + m.keys.Home.Keys()[len(m.keys.Home.Keys())-1] + ": newest)")
	}
	return b.String()
}

// lineWidth is the width rows are padded to: the set width (less the
// marks' gutter while any row is marked), or the natural width of the
// columns when none is set.
func (m *Model) lineWidth() int {
	if m.width > 0 {
		return max(m.width-m.gutter(), 1)
	}
	w := 0
	for i, c := range m.cols {
		if i > 0 {
			w++
		}
		w += c.Width
	}
	return w
}

// content is the width of column i's widest cell as drawn (a Point
// column's with its points in line).
func (m *Model) content(i int) int {
	if m.cols[i].Align == Point {
		return m.data.DecimalWidth(i)
	}
	return m.data.ContentWidth(i)
}

// Hidden are the titles of the columns not shown at the table's width.
func (m *Model) Hidden() []string {
	m.ensureLayout()
	var out []string
	for _, i := range m.columnOrder() {
		if m.c.widths[i] == 0 && m.shows(i) { // a column left out (ShowOnly) is not hidden by the width
			out = append(out, m.cols[i].Title)
		}
	}
	return out
}

// layout gives each column its width. Every column starts at its width:
// its title's at least, room for the sort arrow, and for a column with a
// Max and no Flex its widest cell (up to Max), whole. When they do not all
// fit, the table scrolls sideways (see ScrollColumns): the first column
// stays, the first hscroll of the others are skipped, the next is shown,
// and of the rest, while they do not fit, the column of the lowest priority (the rightmost
// of equals) is hidden; then those hidden that fit again (the narrow ones
// hidden before a wide one) are shown, the most useful first. One cell at
// the right is kept for the header's "›". What is left lets the flex
// columns with a Max grow to their widest cell, those that need the least
// first (so that most show every value whole); what is left then is
// shared among the flex columns.
func (m *Model) layout() []int {
	avail := m.lineWidth()
	if m.marker {
		avail -= 2 // the selection gutter
	}
	start, need := m.startWidths()
	m.c.hmax = 0
	ws := slices.Clone(start)
	order := m.columnOrder()
	if need > avail && len(start) > 1 {
		// Which columns give way is worked out in their order on screen.
		avail-- // the header's "›"
		shown := make([]int, len(order))
		for k, i := range order {
			shown[k] = start[i]
		}
		m.c.hmax = m.maxScroll(shown, avail)
		fitted, n := m.fitColumns(shown, avail, m.scrolled())
		for k, i := range order {
			ws[i] = fitted[k]
		}
		need = n
	}
	if need > avail {
		// Too narrow for the first column and the next whole: the first
		// as far as it fits, the next cut to what is left, if anything.
		room := max(avail, 1)
		for k, i := range order {
			switch {
			case ws[i] == 0:
			case room <= 0:
				ws[i] = 0
			default:
				ws[i] = min(ws[i], room)
				room -= ws[i] + 1
				if room <= 0 && k > 0 {
					ws[i] += room + 1 // the last one takes the line's end
				}
			}
		}
		return ws
	}
	left := avail - need
	type growth struct{ col, by int }
	var grow []growth
	for i, c := range m.cols {
		if ws[i] == 0 || c.Max <= 0 {
			continue
		}
		if want := min(m.content(i), c.Max); want > ws[i] {
			grow = append(grow, growth{i, want - ws[i]})
		}
	}
	slices.SortStableFunc(grow, func(a, b growth) int { return a.by - b.by })
	for _, g := range grow {
		by := min(g.by, left)
		ws[g.col] += by
		left -= by
	}
	flex := 0
	for i, c := range m.cols {
		if ws[i] > 0 {
			flex += c.Flex
		}
	}
	if flex == 0 || left == 0 {
		return ws
	}
	last, given := -1, 0
	for i, c := range m.cols {
		if c.Flex > 0 && ws[i] > 0 {
			extra := left * c.Flex / flex
			ws[i] += extra
			given += extra
			last = i
		}
	}
	if last >= 0 {
		ws[last] += left - given
	}
	return ws
}

// startWidths are the columns' widths before any gives way, and the width
// of them all with their separators.
func (m *Model) startWidths() ([]int, int) {
	ws := make([]int, len(m.cols))
	need := -1 // the separators: one fewer than the columns
	for i, c := range m.cols {
		if !m.shows(i) {
			continue // left out (ShowOnly): width 0
		}
		ws[i] = max(c.Width, textWidth(c.Title), 1)
		if c.Max > 0 && c.Flex == 0 {
			// Shown whole or not at all: an amount, a time or a code cut
			// would read as another one.
			ws[i] = max(ws[i], min(m.content(i), c.Max))
		}
		if i == m.sortCol {
			// The sorted column's title keeps room for its arrow: a title
			// cut to "Expir… ▲" no longer says what is sorted.
			ws[i] = max(ws[i], textWidth(c.Title)+2)
		}
		need += ws[i] + 1
	}
	return ws, need
}

// fitColumns is the widths of the columns shown in avail cells with the
// first skip columns after the first one scrolled away, and their width
// with separators: the first column and the first after those skipped
// always (so that each step of a scroll shows the next column), of the
// others those of the highest priority that fit (see layout). start and
// the widths are in the columns' order on screen.
func (m *Model) fitColumns(start []int, avail, skip int) ([]int, int) {
	order := m.columnOrder()
	prio := func(k int) int { return m.cols[order[k]].Priority }
	n := len(start)
	ws := slices.Clone(start)
	need := -1
	for i := range ws {
		if i >= 1 && i <= skip {
			ws[i] = 0
			continue
		}
		if ws[i] > 0 {
			need += ws[i] + 1
		}
	}
	for need > avail {
		k := -1
		for i := n - 1; i > skip+1; i-- {
			if ws[i] > 0 && (k < 0 || prio(i) < prio(k)) {
				k = i
			}
		}
		if k < 0 {
			break // the first two alone: cut to the line
		}
		need -= ws[k] + 1
		ws[k] = 0
	}
	// A column hidden before a wider one gave way may fit again: the
	// most useful of those first.
	for {
		k := -1
		for i := skip + 1; i < n; i++ {
			if ws[i] == 0 && start[i] > 0 && need+start[i]+1 <= avail && (k < 0 || prio(i) > prio(k)) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		ws[k] = start[k]
		need += start[k] + 1
	}
	return ws, need
}

// maxScroll is the least number of columns to skip after the first for
// every column right of them to be shown: as far as ScrollColumns goes.
func (m *Model) maxScroll(start []int, avail int) int {
	n := len(start)
	for skip := 0; skip < n-2; skip++ {
		ws, _ := m.fitColumns(start, avail, skip)
		all := true
		for i := skip + 1; i < n; i++ {
			all = all && (ws[i] > 0 || start[i] == 0) // a column left out (ShowOnly) is not missing
		}
		if all {
			return skip
		}
	}
	return max(n-2, 0)
}

func (m *Model) formatRow(r *Row, lw int) string {
	return m.formatLine(lw, true, func(i, _ int) string { return cellAt(r, i) })
}

func (m *Model) formatHeader(lw int) string {
	return m.formatLine(lw, false, func(i, w int) string {
		title := m.cols[i].Title
		if m.picking { // the letters are worked out only while picking
			if l := m.SortLetter(i); l != "" {
				title = l + " " + title
			}
		}
		if i != m.sortCol {
			return title
		}
		ind := " ▲"
		if m.sortDesc {
			ind = " ▼"
		}
		if textWidth(title)+2 > w && w > 2 {
			title = ansi.Truncate(title, w-2, ellipsis)
		}
		return title + ind
	})
}

// formatLine lays out one line: the text of each shown column i (width w)
// fitted to its width, one space between columns, padded to lw cells; the
// cells of a row (not the titles) of a Point column with their points
// in line.
func (m *Model) formatLine(lw int, cells bool, text func(i, w int) string) string {
	sb := &m.c.sb
	sb.Reset()
	sb.Grow(lw + 16)
	if m.marker {
		sb.WriteString("  ") // the gutter where "▸" marks the selected row
	}
	col := 0
	for k := range m.c.widths {
		i := k
		if m.order != nil { // the columns' order on screen (ShowOnly)
			i = m.order[k]
		}
		w := m.c.widths[i]
		if w == 0 {
			continue
		}
		switch {
		case col == 1 && !cells && m.scrolled() > 0:
			sb.WriteString("‹") // columns scrolled away after the first
		case col > 0:
			sb.WriteByte(' ')
		}
		col++
		t, a := text(i, w), m.cols[i].Align
		if a == Point {
			if f := m.c.fracs[i]; cells && f > 0 {
				// Spaces after the cell stand for the decimals it has
				// fewer of than the column's longest (while they fit).
				pad := min(f-cellFrac(t), w-textWidth(t))
				if pad > 0 {
					t += spaces[:min(pad, len(spaces))]
				}
			}
			a = Right
		}
		appendFit(sb, t, w, a)
	}
	if !cells && m.scrolled() < m.c.hmax {
		padTo(sb, lw-1)
		sb.WriteString("›") // columns to the right, in the cell layout keeps
	}
	padTo(sb, lw)
	return sb.String()
}

// fit returns s cut or padded to exactly w cells.
func fit(sb *strings.Builder, s string, w int, a Align) string {
	sb.Reset()
	appendFit(sb, s, w, a)
	return sb.String()
}

// appendFit writes s cut (with an ellipsis, by display width: a wide rune is
// never split) or padded to exactly w cells.
func appendFit(sb *strings.Builder, s string, w int, a Align) {
	sw := textWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, ellipsis)
		sw = textWidth(s)
	}
	if a == Right {
		writeSpaces(sb, w-sw)
		sb.WriteString(s)
		return
	}
	sb.WriteString(s)
	writeSpaces(sb, w-sw)
}

// padTo pads the line in sb with spaces to lw cells.
func padTo(sb *strings.Builder, lw int) {
	writeSpaces(sb, lw-textWidth(sb.String()))
}

const spaces = "                                                                "

func writeSpaces(sb *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		sb.WriteString(spaces[:k])
		n -= k
	}
}

// textWidth is the display width of sanitized text, with a fast path for
// ASCII.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}
