package screen

import (
	"bytes"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
)

// wholeFrom is how many changed lines make a frame be rendered as if
// given whole (every row touched).
const wholeFrom = 8

// kind is what a frame's bytes depend on besides the lines: the size of
// the terminal, its colour profile and its TERM (which sequences the
// renderer may use).
type kind struct {
	width, height int
	profile       colorprofile.Profile
	term          string
}

// painter is a cell renderer whose model of the screen is one state: its
// lines, the pen reset, the cursor anywhere. It writes what turns
// that state into the next.
type painter struct {
	r     *uv.TerminalRenderer
	buf   uv.ScreenBuffer
	out   bytes.Buffer
	lines []string // the lines of the state
	fresh bool     // the screen is to be erased: every line is drawn
	drawn []bool   // the lines drawn by the last frame
}

// newPainter is a painter of a screen still to be erased, on the
// alternate screen, set as bubbletea sets its renderer for a session
// whose input is not a terminal of this process: no hard tabs, no
// backspace moves, newlines mapped, scrolling optimized.
func newPainter(k kind) *painter {
	p := &painter{fresh: true, lines: make([]string, k.height), drawn: make([]bool, k.height)}
	r := uv.NewTerminalRenderer(&p.out, []string{"TERM=" + k.term})
	r.SetColorProfile(k.profile)
	r.SetTabStops(-1)
	r.SetBackspace(false)
	r.SetMapNewline(true)
	r.SetScrollOptim(true)
	r.SetFullscreen(true)
	r.SetRelativeCursor(false)
	r.Resize(k.width, k.height)
	r.Erase()
	p.r = r
	p.buf = uv.NewScreenBuffer(k.width, k.height)
	return p
}

// painterAt is a painter whose model is lines on screen: it renders them
// and drops what it would write (the terminal shows them already).
func painterAt(k kind, lines []string) *painter {
	p := newPainter(k)
	p.paint(lines)
	p.out.Reset()
	return p
}

// paint returns what to write to turn the painter's state into lines:
// the cells of the lines that differ (every line of a fresh screen),
// ending with the pen reset, and the next paint's first move absolute,
// so that what follows depends on the lines alone. The bytes are the painter's
// until the next paint.
func (p *painter) paint(lines []string) []byte {
	p.out.Reset()
	width, height := p.buf.Width(), p.buf.Height()
	for y := range height {
		l := ""
		if y < len(lines) {
			l = lines[y]
		}
		p.drawn[y] = p.fresh || p.lines[y] != l
		if !p.drawn[y] {
			continue
		}
		p.lines[y] = l
		uv.NewStyledString(l).Draw(p.buf, uv.Rect(0, y, width, 1))
	}
	p.fresh = false
	if n := countTrue(p.drawn); n >= wholeFrom && n < height {
		// Many rows changed: likely rows moved (a poll of a live table).
		// The scroll optimization chooses as for a frame given whole only
		// when it may repaint every row, so every row is touched.
		for y := range height {
			p.buf.TouchLine(0, y, width)
			p.drawn[y] = true
		}
	}
	p.r.Render(p.buf.RenderBuffer)
	// Render leaves a record for every row it ever drew, marked
	// untouched, and the scroll optimization hashes again (old and new)
	// every row with a record: every row, at every frame. A row that
	// changed in this frame keeps its record, so that the next frame
	// hashes its old text anew (the renderer keeps the hash from before
	// this frame); the others' hashes are right, and drop theirs.
	for y := range p.buf.Touched {
		if y >= len(p.drawn) || !p.drawn[y] {
			p.buf.Touched[y] = nil
		}
	}
	// Where the cursor is left depends on the way here: the next frame
	// starts with an absolute move.
	p.r.SetPosition(-1, -1)
	_ = p.r.Flush()
	return p.out.Bytes()
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}
