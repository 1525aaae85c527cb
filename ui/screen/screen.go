// Package screen draws a bubbletea program's frames on a remote terminal
// (an SSH session's channel) at the cost of what changed.
//
// bubbletea's own renderer takes each new frame whole: it parses the
// frame's text into a grid of cells and compares every cell with the last
// frame's, about 1.5 ms for 120x40 on a small server, however little
// changed. An idle session on a live view gets a new frame every second
// or two (a new quote, an age passing a bound), so twenty idle sessions
// kept a core busy at several per cent. A Screen compares the new frame
// with the last one line by line, as text, and gives ultraviolet's cell
// renderer (the one bubbletea uses) only the lines that changed: it
// parses and compares those, and writes what changed in them.
//
// The program runs without its renderer (tea.WithoutRenderer), its
// output is the Screen's Writer (so what the program writes itself, such
// as a clipboard or a bell, never lands inside a frame), and its model's
// View goes to Show. Show only keeps the frame: it is drawn off the UI
// goroutine, at most one draw per MinInterval, the latest frame winning.
// The Screen sets the terminal's modes the program's renderer would have:
// the alternate screen, the cursor hidden, bracketed paste, the mouse as
// the view asks, key disambiguation (modifyOtherKeys, the kitty keyboard
// protocol), synchronized output when the terminal says it has it; Close
// restores them.
package screen

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// wholeFrom is how many changed lines make a frame be rendered as if
// given whole (every row touched).
const wholeFrom = 8

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

// MinInterval is the least time between two draws: frames that come
// closer are drawn as one, the latest (bubbletea's renderer looked for a
// frame 20 times a second; a Screen draws when there is one).
const MinInterval = 50 * time.Millisecond

// Screen is one terminal's screen. Its methods may be called from any
// goroutine.
type Screen struct {
	w *lockedWriter

	mu      sync.Mutex
	pending *tea.View // the latest frame not yet drawn
	width   int
	height  int
	resized bool // the next draw paints every line
	sync    bool // the terminal has synchronized output
	queued  bool // a draw is scheduled
	last    time.Time
	closed  bool
	timer   *time.Timer

	d drawer // the drawing state, under draw
	// draw is held by the one drawing; Close takes it to restore the
	// terminal after the last draw.
	draw sync.Mutex
}

// drawer is what a draw works with, held under Screen.draw.
type drawer struct {
	r       *uv.TerminalRenderer
	buf     uv.ScreenBuffer
	out     bytes.Buffer
	lines   []string // the lines of the frame on screen
	fresh   bool     // the screen was erased: every line is drawn
	drawn   []bool   // the lines drawn by the last frame
	started bool     // the modes are set
	mouse   tea.MouseMode
	paste   bool // bracketed paste is on
}

// New is the screen of a terminal of width x height cells, written to w,
// its TERM and the rest of its environment in env, its colours
// downsampled to profile.
func New(w io.Writer, env []string, profile colorprofile.Profile, width, height int) *Screen {
	s := &Screen{w: &lockedWriter{w: w}, width: width, height: height}
	r := uv.NewTerminalRenderer(&s.d.out, env)
	r.SetColorProfile(profile)
	// As bubbletea sets its renderer for a session whose input is not a
	// terminal of this process: no hard tabs, no backspace moves, newlines
	// mapped, scrolling optimized.
	r.SetTabStops(-1)
	r.SetBackspace(false)
	r.SetMapNewline(true)
	r.SetScrollOptim(true)
	r.Resize(width, height)
	s.d.r = r
	s.d.buf = uv.NewScreenBuffer(width, height)
	return s
}

// Writer is the writer the program must write to (tea.WithOutput): it
// serializes the program's writes with the Screen's.
func (s *Screen) Writer() io.Writer { return s.w }

// Show takes the view as the next frame to draw. It never blocks on the
// terminal.
func (s *Screen) Show(v tea.View) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.pending = &v
	s.schedule()
}

// Resize tells the screen the terminal's new size: the next frame is
// drawn whole.
func (s *Screen) Resize(width, height int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if width == s.width && height == s.height {
		return
	}
	s.width, s.height, s.resized = width, height, true
}

// Update notes what the program learned of the terminal: its size, and
// whether it has synchronized output (the answer to the query the first
// draw sends). Call it with every message the program's model gets.
func (s *Screen) Update(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.Resize(msg.Width, msg.Height)
	case tea.ModeReportMsg:
		if msg.Mode == ansi.ModeSynchronizedOutput && msg.Value == ansi.ModeReset {
			s.mu.Lock()
			s.sync = true
			s.mu.Unlock()
		}
	}
}

// schedule has the pending frame drawn now or, when the last draw was
// less than MinInterval ago, when it is that old. Under s.mu.
func (s *Screen) schedule() {
	if s.queued {
		return
	}
	s.queued = true
	wait := max(0, MinInterval-time.Since(s.last))
	if s.timer == nil {
		s.timer = time.AfterFunc(wait, s.drawPending)
		return
	}
	s.timer.Reset(wait)
}

// drawPending draws the latest frame shown, if any, and writes it.
func (s *Screen) drawPending() {
	s.draw.Lock()
	defer s.draw.Unlock()
	s.mu.Lock()
	v, width, height, resized, sync := s.pending, s.width, s.height, s.resized, s.sync
	s.pending, s.queued, s.resized = nil, false, false
	s.last = time.Now()
	closed := s.closed
	s.mu.Unlock()
	if v == nil || closed {
		return
	}
	out := s.d.frame(*v, width, height, resized, sync)
	if len(out) > 0 {
		_, _ = s.w.Write(out)
	}
}

// Close restores the terminal (the main screen, the cursor, no mouse
// reports, the keyboard as it was) after the draw under way, if any; no
// frame is drawn after it.
func (s *Screen) Close() error {
	s.mu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	s.draw.Lock()
	defer s.draw.Unlock()
	out := s.d.restore()
	if len(out) == 0 {
		return nil
	}
	_, err := s.w.Write(out)
	return err
}

// lockedWriter serializes writes to w: a frame and what the program
// writes itself never interleave.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// frame is what to write to show v at width x height: the modes on the
// first frame and as the view changes them, then the cells of the lines
// that differ from the lines on screen (every line after a resize).
func (d *drawer) frame(v tea.View, width, height int, resized, sync bool) []byte {
	d.out.Reset()
	if !d.started {
		d.start()
		d.fresh = true
	}
	if resized || width != d.buf.Width() || height != d.buf.Height() {
		d.buf.Resize(width, height)
		d.r.Resize(width, height)
		d.r.Erase()
		d.fresh = true
	}
	d.modes(v)
	lines := strings.Split(v.Content, "\n")
	if len(lines) > height { // as bubbletea: the bottom of a frame too tall shows
		lines = lines[len(lines)-height:]
	}
	if len(d.lines) != height {
		d.lines, d.drawn = make([]string, height), make([]bool, height)
		d.buf.Clear()
	}
	for y := range height {
		l := ""
		if y < len(lines) {
			l = lines[y]
		}
		d.drawn[y] = !(d.lines[y] == l && !d.fresh)
		if !d.drawn[y] {
			continue
		}
		d.lines[y] = l
		uv.NewStyledString(l).Draw(d.buf, uv.Rect(0, y, width, 1))
	}
	d.fresh = false
	if n := countTrue(d.drawn); n >= wholeFrom && n < height {
		// Many rows changed: likely rows moved (a poll of a live table).
		// The scroll optimization chooses as for a frame given whole only
		// when it may repaint every row, so every row is touched.
		for y := range height {
			d.buf.TouchLine(0, y, width)
			d.drawn[y] = true
		}
	}
	d.r.Render(d.buf.RenderBuffer)
	// Render leaves a record for every row it ever drew, marked
	// untouched, and the scroll optimization hashes again (old and new)
	// every row with a record: every row, at every frame. A row that
	// changed in this frame keeps its record, so that the next frame
	// hashes its old text anew (the renderer keeps the hash from before
	// this frame); the others' hashes are right, and drop theirs.
	for y := range d.buf.Touched {
		if y >= len(d.drawn) || !d.drawn[y] {
			d.buf.Touched[y] = nil
		}
	}
	_ = d.r.Flush()
	if sync && d.out.Len() > 0 { // the modes and the cells, as one update
		framed := make([]byte, 0, d.out.Len()+len(ansi.SetModeSynchronizedOutput)+len(ansi.ResetModeSynchronizedOutput))
		framed = append(framed, ansi.SetModeSynchronizedOutput...)
		framed = append(framed, d.out.Bytes()...)
		return append(framed, ansi.ResetModeSynchronizedOutput...)
	}
	return d.out.Bytes()
}

// start sets what a program's renderer sets on its first frame: the
// alternate screen with the cursor hidden, key disambiguation, and asks
// whether the terminal has synchronized output.
func (d *drawer) start() {
	d.started = true
	d.r.EnterAltScreen()
	_, _ = d.r.WriteString(ansi.ResetModeTextCursorEnable)
	_, _ = d.r.WriteString(ansi.SetModifyOtherKeys2)
	_, _ = d.r.WriteString(ansi.PushKittyKeyboard(1)) // disambiguate keys
	_, _ = d.r.WriteString(ansi.RequestModeSynchronizedOutput)
}

// modes sets the mouse and bracketed paste modes as v asks.
func (d *drawer) modes(v tea.View) {
	if paste := !v.DisableBracketedPasteMode; paste != d.paste {
		d.paste = paste
		if paste {
			_, _ = d.r.WriteString(ansi.SetModeBracketedPaste)
		} else {
			_, _ = d.r.WriteString(ansi.ResetModeBracketedPaste)
		}
	}
	if v.MouseMode == d.mouse {
		return
	}
	switch v.MouseMode {
	case tea.MouseModeNone:
		_, _ = d.r.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	case tea.MouseModeCellMotion:
		_, _ = d.r.WriteString(ansi.ResetModeMouseAnyEvent + ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
	case tea.MouseModeAllMotion:
		_, _ = d.r.WriteString(ansi.ResetModeMouseButtonEvent + ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
	}
	d.mouse = v.MouseMode
}

// restore is what puts the terminal back as the first frame found it.
func (d *drawer) restore() []byte {
	if !d.started {
		return nil
	}
	d.out.Reset()
	d.started = false
	_, _ = d.r.WriteString(ansi.ResetModifyOtherKeys)
	_, _ = d.r.WriteString(ansi.PopKittyKeyboard(1))
	if d.mouse != tea.MouseModeNone {
		_, _ = d.r.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	}
	if d.paste {
		_, _ = d.r.WriteString(ansi.ResetModeBracketedPaste)
	}
	d.r.ExitAltScreen()
	_, _ = d.r.WriteString(ansi.SetModeTextCursorEnable)
	_ = d.r.Flush()
	return d.out.Bytes()
}
