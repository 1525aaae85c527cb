package table

import (
	"slices"
	"strconv"
	"strings"

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
	header   string
	plain    []string // formatted text of each visible row, unstyled
	lines    []string // the same, styled as an unselected row
	footer   string
	out      string
	sb       strings.Builder
}

func (c *renderCache) invalidate() { c.valid = false; c.out = "" }

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
	b.WriteString(m.c.header)
	for i := 0; i < h; i++ {
		b.WriteByte('\n')
		switch {
		case i >= len(m.c.lines):
		case m.offset+i == m.cursor && len(m.view) > 0:
			line := m.c.plain[i]
			if m.marker {
				line = "▸" + strings.TrimPrefix(line, " ") // the gutter's first cell
			}
			b.WriteString(m.styles.Selected.Render(line))
		default:
			b.WriteString(m.c.lines[i])
		}
	}
	b.WriteByte('\n')
	b.WriteString(m.c.footer)
	m.c.out = b.String()
	return m.c.out
}

// rebuild formats and styles the header, the visible rows and the footer.
func (m *Model) rebuild() {
	c := &m.c
	if c.widths == nil || c.widthsOf != m.data {
		c.widths, c.widthsOf = m.layout(), m.data
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
	c.header = m.styles.Header.Render(m.formatHeader(lw))
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
	end := min(len(m.view), m.offset+m.bodyHeight())
	for k := m.offset; k < end; k++ {
		r := m.data.row(m.view[k])
		if r == nil { // gone since the view was computed: its new view is on its way
			c.plain = append(c.plain, "")
			c.lines = append(c.lines, "")
			continue
		}
		text := m.formatRow(r, lw)
		style := &m.styles.Cell
		switch {
		case m.stale:
			style = &m.styles.Stale
		case m.hl(r, m.now):
			style = &m.styles.Highlight
		}
		c.plain = append(c.plain, text)
		c.lines = append(c.lines, style.Render(text))
	}
	footer := m.Footer()
	if hidden := m.Hidden(); len(hidden) > 0 {
		names := strings.Join(hidden, ", ")
		if long := footer + " · not shown at this width: " + names; textWidth(long) <= lw {
			footer = long
		} else {
			footer += " · not shown: " + names
		}
	}
	c.footer = m.styles.Dim.Render(fit(&c.sb, footer, lw, Left))
	c.valid = true
	c.out = ""
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
	if m.live && !m.following && m.newAbove > 0 {
		b.WriteString(" · ↑ ")
		b.WriteString(strconv.Itoa(m.newAbove))
		b.WriteString(" new (g: newest)")
	}
	return b.String()
}

// lineWidth is the width rows are padded to: the set width, or the natural
// width of the columns when none is set.
func (m *Model) lineWidth() int {
	if m.width > 0 {
		return m.width
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
	if m.c.widths == nil || m.c.widthsOf != m.data {
		m.c.widths, m.c.widthsOf = m.layout(), m.data
	}
	var out []string
	for i, w := range m.c.widths {
		if w == 0 && m.shows(i) {
			out = append(out, m.cols[i].Title)
		}
	}
	return out
}

// layout gives each column its width. Every column starts at its width:
// its title's at least, room for the sort arrow, and for a column with a
// Max and no Flex its widest cell (up to Max), whole. While they do not
// fit, the column of the lowest priority (the rightmost of equals) is
// hidden, and then those hidden that fit again (the narrow ones hidden
// before a wide one) are shown, the most useful first. What is left lets the flex columns with a Max grow to their
// widest cell, those that need the least first (so that most show every
// value whole); what is left then is shared among the flex columns.
func (m *Model) layout() []int {
	avail := m.lineWidth()
	if m.marker {
		avail -= 2 // the selection gutter
	}
	n := len(m.cols)
	ws := make([]int, n)
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
	start := slices.Clone(ws)
	shownCols := 0
	for i := range n {
		if m.shows(i) {
			shownCols++
		}
	}
	for shown := shownCols; need > avail && shown > 1; shown-- {
		k := -1
		for i := n - 1; i >= 0; i-- {
			if ws[i] > 0 && (k < 0 || m.cols[i].Priority < m.cols[k].Priority) {
				k = i
			}
		}
		need -= ws[k] + 1
		ws[k] = 0
	}
	// A column hidden before a wider one gave way may fit again: the
	// most useful of those first.
	for {
		k := -1
		for i := range n {
			if ws[i] == 0 && m.shows(i) && need+start[i]+1 <= avail && (k < 0 || m.cols[i].Priority > m.cols[k].Priority) {
				k = i
			}
		}
		if k < 0 {
			break
		}
		ws[k] = start[k]
		need += start[k] + 1
	}
	if need > avail {
		for i := range ws {
			if ws[i] > 0 {
				ws[i] = max(avail, 1) // one column, cut to the line
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

func (m *Model) formatRow(r *Row, lw int) string {
	return m.formatLine(lw, true, func(i, _ int) string { return cellAt(r, i) })
}

func (m *Model) formatHeader(lw int) string {
	return m.formatLine(lw, false, func(i, w int) string {
		title := m.cols[i].Title
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
	for i, w := range m.c.widths {
		if w == 0 {
			continue
		}
		if col > 0 {
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
