package overview

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"treasury/ui/sanitize"
)

// rowBlock is the rows of a panel's table that may give way on a small
// terminal: where they start in the panel's lines, the key of each (the
// pair or currency its line starts with), which must stay (a currency
// whose balance runs out within 30 days), and where the rest is.
type rowBlock struct {
	from  int
	keys  []string
	keep  []bool
	what  string // "pairs", "currencies"
	where string // the view that shows them all
}

// rows finds the rows of panel i in its lines: ok is false for a panel
// without rows that may give way, or whose rows are not drawn (loading,
// failed).
func (v *View) rows(i int, lines []string) (rowBlock, bool) {
	var b rowBlock
	switch i {
	case panelRates:
		snap := get(v, v.rates)
		if !snap.Loaded() {
			return b, false
		}
		for _, p := range snap.Data.Pairs {
			b.keys = append(b.keys, sanitize.Line(p.Pair))
			b.keep = append(b.keep, false)
		}
		b.what, b.where = "pairs", "2 Quotes"
	case panelBalances:
		snap := get(v, v.holdings)
		if !snap.Loaded() {
			return b, false
		}
		sheet := get(v, v.runway).Data
		for _, x := range snap.Data.List {
			b.keys = append(b.keys, sanitize.Line(x.Currency))
			c, ok := sheet.Find(x.Currency)
			_, _, _, has := c.Runway()
			b.keep = append(b.keep, ok && has && !c.LongRunway())
		}
		b.what, b.where = "currencies", "3 Balances"
	default:
		return b, false
	}
	// The table's rows follow the title and the column titles; each line
	// starts with its key, or the block is not the one drawn.
	b.from = 2
	if len(b.keys) == 0 || len(lines) < b.from+len(b.keys) {
		return b, false
	}
	for j, k := range b.keys {
		if f := strings.Fields(ansi.Strip(lines[b.from+j])); len(f) == 0 || f[0] != k {
			return b, false
		}
	}
	return b, true
}

// droppable is how many rows of the block may give way: all but the
// first and those that must stay.
func (b rowBlock) droppable() int {
	n := 0
	for j := 1; j < len(b.keys); j++ {
		if !b.keep[j] {
			n++
		}
	}
	return n
}

// shrink leaves out drop rows of the block in lines, the last ones first
// but never one that must stay, and puts in their place one line that
// names them and where they are: "… CAD, AUD not shown (3 Balances)".
func (v *View) shrink(lines []string, b rowBlock, drop, w int) []string {
	if drop <= 0 {
		return lines
	}
	gone := make([]bool, len(b.keys))
	var names []string
	for j := len(b.keys) - 1; j > 0 && len(names) < drop; j-- {
		if !b.keep[j] {
			gone[j] = true
			names = append([]string{b.keys[j]}, names...)
		}
	}
	out := append([]string(nil), lines[:b.from]...)
	for j := range b.keys {
		if !gone[j] {
			out = append(out, lines[b.from+j])
		}
	}
	note := "… " + strings.Join(names, ", ") + " not shown (" + b.where + ")"
	if ansi.StringWidth(note) > w {
		note = "… " + strconv.Itoa(len(names)) + " more " + b.what + " not shown (" + b.where + ")"
	}
	out = append(out, v.ctx.Theme.Muted.Render(cut(note, w)))
	return append(out, lines[b.from+len(b.keys):]...)
}

// fitFirstTwo draws the rates and the balances in h lines when they do
// not fit whole: rows give way (from the larger block first; one line
// then names those left out), and the last line names the panels left
// out. ok is false when even that does not fit.
func (v *View) fitFirstTwo(panel func(i, w int) []string, w, h int) ([]string, bool) {
	rates, bal := panel(panelRates, w), panel(panelBalances, w)
	over := len(rates) + len(bal) + 1 - h
	rb, rok := v.rows(panelRates, rates)
	bb, bok := v.rows(panelBalances, bal)
	// Leaving n rows of a block out saves n-1 lines (a note replaces
	// them).
	saved := func(n int) int { return max(n-1, 0) }
	dropR, dropB := 0, 0
	for saved(dropR)+saved(dropB) < over {
		canR := rok && dropR < rb.droppable()
		canB := bok && dropB < bb.droppable()
		more := func(d int) int { return max(d+1, 2) } // the first cut is of two rows
		switch {
		case canB && (!canR || len(bb.keys)-dropB >= len(rb.keys)-dropR) && more(dropB) <= bb.droppable():
			dropB = more(dropB)
		case canR && more(dropR) <= rb.droppable():
			dropR = more(dropR)
		default:
			return nil, false
		}
	}
	rates, bal = v.shrink(rates, rb, dropR, w), v.shrink(bal, bb, dropB, w)
	out := append(append(rates, bal...), v.leftOut(w, panelPayments))
	return out, len(out) <= h
}
