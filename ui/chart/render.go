package chart

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/v2/canvas"
)

// look is what a style changes in a single-line run of cells: colours and
// text attributes. Cells with the same look render the same.
type look struct {
	fg, bg color.Color
	attrs  uint8
}

func lookOf(s lipgloss.Style) look {
	var a uint8
	for i, b := range [...]bool{s.GetBold(), s.GetItalic(), s.GetUnderline(), s.GetStrikethrough(), s.GetReverse(), s.GetBlink(), s.GetFaint()} {
		if b {
			a |= 1 << i
		}
	}
	return look{fg: s.GetForeground(), bg: s.GetBackground(), attrs: a}
}

// render returns an ntcharts canvas as lines of its width. ntcharts'
// Canvas.View renders every cell on its own (two escape sequences per cell,
// and empty cells through lipgloss' default renderer); here each run of
// cells with the same look is rendered once with its cells' style (ours,
// handed to ntcharts), and empty cells are plain spaces.
func render(c *canvas.Model) string {
	w, h := c.Width(), c.Height()
	var sb, run strings.Builder
	sb.Grow(w * h * 3)
	var (
		runStyle lipgloss.Style
		runLook  look
		styled   bool // the current run is of drawn cells
	)
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if styled {
			sb.WriteString(runStyle.Render(run.String()))
		} else {
			sb.WriteString(run.String())
		}
		run.Reset()
	}
	for y := range h {
		if y > 0 {
			sb.WriteByte('\n')
		}
		for x := range w {
			cell := c.Cell(canvas.Point{X: x, Y: y})
			if cell.Rune == 0 {
				if styled {
					flush()
					styled = false
				}
				run.WriteByte(' ')
				continue
			}
			if lk := lookOf(cell.Style); !styled || lk != runLook {
				flush()
				styled, runStyle, runLook = true, cell.Style, lk
			}
			run.WriteRune(cell.Rune)
		}
		flush()
		styled = false
	}
	return sb.String()
}
