package table

import (
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
	valid  bool
	widths []int
	header string
	plain  []string // formatted text of each visible row, unstyled
	lines  []string // the same, styled as an unselected row
	footer string
	out    string
	sb     strings.Builder
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
	if c.widths == nil {
		c.widths = m.layout()
	}
	lw := m.lineWidth()
	c.header = m.styles.Header.Render(m.formatHeader(lw))
	c.plain, c.lines = c.plain[:0], c.lines[:0]
	if len(m.view) == 0 {
		msg := m.empty
		if m.data.Len() > 0 && m.filter != "" {
			msg = "No rows match " + strconv.Quote(sanitize.Line(m.filter)) + "."
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
	c.footer = m.styles.Dim.Render(fit(&c.sb, m.Footer(), lw, Left))
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

// layout gives each column its width: minimums from the left while they
// fit (the first that does not fit gets what is left, those after it are
// hidden), then the leftover shared among flex columns.
func (m *Model) layout() []int {
	avail := m.lineWidth()
	if m.marker {
		avail -= 2 // the selection gutter
	}
	ws := make([]int, len(m.cols))
	flex := 0
	for i, c := range m.cols {
		if i == m.sortCol {
			// The sorted column's title keeps room for its arrow: a title
			// cut to "Expir… ▲" no longer says what is sorted.
			c.Width = max(c.Width, textWidth(c.Title)+2)
		}
		sep := 0
		if i > 0 {
			sep = 1
		}
		switch {
		case avail >= c.Width+sep:
			ws[i] = c.Width
			avail -= c.Width + sep
			flex += c.Flex
		case avail-sep >= 2:
			ws[i] = avail - sep
			avail = 0
		default:
			avail = 0
		}
	}
	if flex == 0 || avail == 0 {
		return ws
	}
	last, given := -1, 0
	for i, c := range m.cols {
		if c.Flex > 0 && ws[i] >= c.Width {
			extra := avail * c.Flex / flex
			ws[i] += extra
			given += extra
			last = i
		}
	}
	if last >= 0 {
		ws[last] += avail - given
	}
	return ws
}

func (m *Model) formatRow(r *Row, lw int) string {
	return m.formatLine(lw, func(i, _ int) string { return cellAt(r, i) })
}

func (m *Model) formatHeader(lw int) string {
	return m.formatLine(lw, func(i, w int) string {
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
// fitted to its width, one space between columns, padded to lw cells.
func (m *Model) formatLine(lw int, text func(i, w int) string) string {
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
		appendFit(sb, text(i, w), w, m.cols[i].Align)
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
