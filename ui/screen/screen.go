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
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

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
	failed  bool // a draw failed: no frame is drawn after it
	fault   func(error)
	timer   *time.Timer

	d drawer // the drawing state, under draw
	// draw is held by the one drawing; Close takes it to restore the
	// terminal after the last draw.
	draw sync.Mutex
}

// drawer is what a draw works with, held under Screen.draw.
type drawer struct {
	frames  *Frames
	profile colorprofile.Profile
	term    string
	state   *state // the terminal's state; nil once closed
	out     bytes.Buffer
	started bool // the modes are set
	mouse   tea.MouseMode
	paste   bool // bracketed paste is on
}

// New is the screen of a terminal of width x height cells, written to w,
// its TERM and the rest of its environment in env, its colours
// downsampled to profile. Screens of one Frames share their draws (nil:
// this screen's own).
func New(w io.Writer, env []string, profile colorprofile.Profile, width, height int, frames *Frames) *Screen {
	if frames == nil {
		frames = NewFrames()
	}
	s := &Screen{w: &lockedWriter{w: w}, width: width, height: height}
	s.d = drawer{frames: frames, profile: profile, term: uv.Environ(env).Getenv("TERM")}
	// In its fresh state from now: screens that start together draw
	// their first frame once.
	s.d.state = frames.fresh(s.d.kind(width, height))
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

// OnFault has f called, once, with why a frame could not be drawn (the
// renderer panicked on it): the screen draws nothing after it, and its
// owner ends the session (a terminal whose state is unknown shows
// nothing true). Other screens, even those waiting for the same draw,
// go on or get the same fault; none waits for ever.
func (s *Screen) OnFault(f func(error)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault = f
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

// drawPending draws the latest frame shown, if any, and writes it. It
// runs on a timer's goroutine: a fault there is the screen's, told to
// its owner, never the process's.
func (s *Screen) drawPending() {
	s.draw.Lock()
	defer s.draw.Unlock()
	s.mu.Lock()
	v, width, height, resized, sync := s.pending, s.width, s.height, s.resized, s.sync
	s.pending, s.queued, s.resized = nil, false, false
	s.last = time.Now()
	stop := s.closed || s.failed
	s.mu.Unlock()
	if v == nil || stop {
		return
	}
	out, err := s.d.safeFrame(*v, width, height, resized, sync)
	if err != nil {
		s.mu.Lock()
		s.failed = true
		fault := s.fault
		s.mu.Unlock()
		if fault != nil {
			fault(err)
		}
		return
	}
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

// safeFrame is frame with a panic returned as an error.
func (d *drawer) safeFrame(v tea.View, width, height int, resized, sync bool) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("drawing a frame: panic: %v", p)
		}
	}()
	return d.frame(v, width, height, resized, sync)
}

// frame is what to write to show v at width x height: the modes on the
// first frame and as the view changes them, then the cells of the lines
// that differ from the lines on screen (every line after a resize).
func (d *drawer) frame(v tea.View, width, height int, resized, sync bool) ([]byte, error) {
	d.out.Reset()
	if !d.started {
		d.start()
	}
	if k := d.kind(width, height); d.state == nil || resized || d.state.key.kind != k {
		d.frames.leave(d.state)
		d.state = d.frames.fresh(k)
	}
	d.modes(v)
	lines := strings.Split(v.Content, "\n")
	if len(lines) > height { // as bubbletea: the bottom of a frame too tall shows
		lines = lines[len(lines)-height:]
	}
	cells, next, err := d.frames.move(d.state, lines)
	if err != nil {
		return nil, err
	}
	d.state = next
	if sync && d.out.Len()+len(cells) > 0 { // the modes and the cells, as one update
		framed := make([]byte, 0, d.out.Len()+len(cells)+len(ansi.SetModeSynchronizedOutput)+len(ansi.ResetModeSynchronizedOutput))
		framed = append(framed, ansi.SetModeSynchronizedOutput...)
		framed = append(framed, d.out.Bytes()...)
		framed = append(framed, cells...)
		return append(framed, ansi.ResetModeSynchronizedOutput...), nil
	}
	if d.out.Len() == 0 {
		return cells, nil
	}
	return append(d.out.Bytes(), cells...), nil
}

// kind is the kind of the screen's terminal at width x height.
func (d *drawer) kind(width, height int) kind {
	return kind{width: width, height: height, profile: d.profile, term: d.term}
}

// start sets what a program's renderer sets on its first frame: the
// alternate screen with the cursor hidden, key disambiguation, and asks
// whether the terminal has synchronized output.
func (d *drawer) start() {
	d.started = true
	d.out.WriteString(ansi.SetModeAltScreenSaveCursor)
	d.out.WriteString(ansi.ResetModeTextCursorEnable)
	d.out.WriteString(ansi.SetModifyOtherKeys2)
	d.out.WriteString(ansi.PushKittyKeyboard(1)) // disambiguate keys
	d.out.WriteString(ansi.RequestModeSynchronizedOutput)
}

// modes sets the mouse and bracketed paste modes as v asks.
func (d *drawer) modes(v tea.View) {
	if paste := !v.DisableBracketedPasteMode; paste != d.paste {
		d.paste = paste
		if paste {
			d.out.WriteString(ansi.SetModeBracketedPaste)
		} else {
			d.out.WriteString(ansi.ResetModeBracketedPaste)
		}
	}
	if v.MouseMode == d.mouse {
		return
	}
	switch v.MouseMode {
	case tea.MouseModeNone:
		d.out.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	case tea.MouseModeCellMotion:
		d.out.WriteString(ansi.ResetModeMouseAnyEvent + ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr)
	case tea.MouseModeAllMotion:
		d.out.WriteString(ansi.ResetModeMouseButtonEvent + ansi.SetModeMouseAnyEvent + ansi.SetModeMouseExtSgr)
	}
	d.mouse = v.MouseMode
}

// restore is what puts the terminal back as the first frame found it;
// the screen leaves its state.
func (d *drawer) restore() []byte {
	d.frames.leave(d.state)
	d.state = nil
	if !d.started {
		return nil
	}
	d.out.Reset()
	d.started = false
	d.out.WriteString(ansi.ResetModifyOtherKeys)
	d.out.WriteString(ansi.PopKittyKeyboard(1))
	if d.mouse != tea.MouseModeNone {
		d.out.WriteString(ansi.ResetModeMouseButtonEvent + ansi.ResetModeMouseAnyEvent + ansi.ResetModeMouseExtSgr)
	}
	if d.paste {
		d.out.WriteString(ansi.ResetModeBracketedPaste)
	}
	d.out.WriteString(ansi.ResetModeAltScreenSaveCursor)
	d.out.WriteString(ansi.SetModeTextCursorEnable)
	return d.out.Bytes()
}
