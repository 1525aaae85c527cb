package chart

import "strings"

// role says which style a cell is drawn with.
type role uint8

const (
	roleNone role = iota
	roleAxis
	roleLabel
	roleLine
)

// grid is the chart's cells before styling. Cells outside it are ignored, so
// nothing drawn can exceed the chart's size.
type grid struct {
	w, h  int
	runes []rune
	roles []role
}

func newGrid(w, h int) *grid {
	g := &grid{w: w, h: h, runes: make([]rune, w*h), roles: make([]role, w*h)}
	for i := range g.runes {
		g.runes[i] = ' '
	}
	return g
}

func (g *grid) set(x, y int, r rune, ro role) {
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		return
	}
	g.runes[y*g.w+x], g.roles[y*g.w+x] = r, ro
}

// text writes ASCII text from (x, y).
func (g *grid) text(x, y int, s string, ro role) {
	for i := range len(s) {
		g.set(x+i, y, rune(s[i]), ro)
	}
}

// render returns the grid as h lines, each run of same-role cells rendered
// once with its style: one Render per run, not per cell.
func (g *grid) render(st Styles) string {
	var sb, run strings.Builder
	sb.Grow(g.w * g.h * 3)
	flush := func(ro role) {
		if run.Len() == 0 {
			return
		}
		switch ro {
		case roleAxis:
			sb.WriteString(st.Axis.Render(run.String()))
		case roleLabel:
			sb.WriteString(st.Label.Render(run.String()))
		case roleLine:
			sb.WriteString(st.Line.Render(run.String()))
		default:
			sb.WriteString(run.String())
		}
		run.Reset()
	}
	for y := range g.h {
		if y > 0 {
			sb.WriteByte('\n')
		}
		cur := roleNone
		for x := range g.w {
			i := y*g.w + x
			ro := g.roles[i]
			if g.runes[i] == ' ' {
				ro = roleNone
			}
			if ro != cur {
				flush(cur)
				cur = ro
			}
			run.WriteRune(g.runes[i])
		}
		flush(cur)
	}
	return sb.String()
}
