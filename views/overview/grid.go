package overview

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"treasury/wire/money"
)

// col is a column of a panel's grid.
type col struct {
	title string
	right bool
	// drop orders the columns left out when the grid is too wide: the
	// highest first; 0 is never left out.
	drop int
	// flex, when positive, makes the column take the room left (a
	// sparkline), at least flex cells; its cells are drawn at that width
	// by cell (fill).
	flex int
	fill func(row, width int) string
}

// cell is one cell: its text (sanitized, possibly styled) and its width.
type cell struct {
	text string
	w    int
}

// txt is a cell of plain text.
func txt(s string) cell { return cell{text: s, w: ansi.StringWidth(s)} }

// styled is a cell of text drawn with st.
func styled(st lipgloss.Style, s string) cell {
	return cell{text: st.Render(s), w: ansi.StringWidth(s)}
}

// grid lays rows of cells out under their column titles in width w: each
// column as wide as its widest cell, two spaces apart; columns are left
// out, highest drop first, until the rest fit, and a last line (styled
// note) names them. head styles the titles.
func grid(cols []col, rows [][]cell, w int, head, note lipgloss.Style) []string {
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = ansi.StringWidth(c.title)
		if c.flex > 0 {
			widths[i] = max(widths[i], c.flex)
		}
		for _, r := range rows {
			if i < len(r) {
				widths[i] = max(widths[i], r[i].w)
			}
		}
	}
	keep := make([]bool, len(cols))
	for i := range keep {
		keep[i] = true
	}
	total := func() int {
		n, k := 0, 0
		for i, on := range keep {
			if on {
				n += widths[i]
				k++
			}
		}
		return n + 2*max(k-1, 0)
	}
	for total() > w {
		worst := -1
		for i, c := range cols {
			if keep[i] && c.drop > 0 && (worst < 0 || c.drop > cols[worst].drop) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		keep[worst] = false
	}
	if room := w - total(); room > 0 {
		for i, c := range cols {
			if keep[i] && c.flex > 0 {
				widths[i] = min(widths[i]+room, 3*c.flex)
				break
			}
		}
	}
	line := func(cells func(i int) cell) string {
		var b strings.Builder
		first := true
		for i, c := range cols {
			if !keep[i] {
				continue
			}
			if !first {
				b.WriteString("  ")
			}
			first = false
			x := cells(i)
			pad := strings.Repeat(" ", max(widths[i]-x.w, 0))
			if c.right {
				b.WriteString(pad + x.text)
			} else {
				b.WriteString(x.text + pad)
			}
		}
		return strings.TrimRight(b.String(), " ")
	}
	out := make([]string, 0, len(rows)+2)
	out = append(out, line(func(i int) cell { return styled(head, cols[i].title) }))

	for r, row := range rows {
		out = append(out, line(func(i int) cell {
			if cols[i].fill != nil {
				return cell{text: cols[i].fill(r, widths[i]), w: widths[i]}
			}
			if i < len(row) {
				return row[i]
			}
			return cell{}
		}))
	}
	var gone []string
	for i, on := range keep {
		if !on {
			gone = append(gone, cols[i].title)
		}
	}
	if len(gone) > 0 {
		out = append(out, note.Render(cut("columns not shown at this width: "+strings.Join(gone, ", "), w)))
	}
	return out
}

// group writes an amount of currency exactly, grouped (money.Grouped).
func group(d decimal.Decimal, currency string) string { return money.Format(d, currency) }

// fixed writes a decimal rounded to places, with that many decimals,
// grouped: 1,200.50.
func fixed(d decimal.Decimal, places int32) string {
	return money.Grouped(d.StringFixed(places))
}

// pad cuts or pads lines to exactly w cells each.
func pad(lines []string, w int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		lw := ansi.StringWidth(l)
		if lw > w {
			l = ansi.Truncate(l, w, "…")
			lw = ansi.StringWidth(l)
		}
		out[i] = l + strings.Repeat(" ", max(w-lw, 0))
	}
	return out
}
