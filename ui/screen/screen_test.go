package screen

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"treasury/ui/uitest"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// terminal is what a Screen writes to: the bytes, and a terminal
// emulator fed them as a client's terminal is (line feeds as new lines).
type terminal struct {
	*uitest.Scr
	mu     sync.Mutex
	out    bytes.Buffer
	writes int
}

func newTerminal(w, h int) *terminal { return &terminal{Scr: uitest.NewScreen(w, h)} }

func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.writes++
	t.out.Write(p)
	t.Scr.Write(p)
	return len(p), nil
}

// text is what the terminal shows, trailing spaces cut.
func (t *terminal) text() string { return strings.TrimRight(t.String(), "\n") }

// written is what was written since the last call.
func (t *terminal) written() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.out.String()
	t.out.Reset()
	return s
}

// plain is the text a frame shows: no styles, trailing spaces cut.
func plain(frame string) string {
	lines := strings.Split(ansi.Strip(frame), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// show shows the frame and draws it at once (the draw the timer would
// run; the timer's finds nothing left to draw).
func show(s *Screen, v tea.View) {
	s.Show(v)
	s.drawPending()
}

// frameOf is a 40x10 frame: a styled title, rows that name their
// number and n, a footer.
func frameOf(n int, rows int) string {
	title := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ff8700")).Render("Quotes")
	lines := []string{title + "  " + fmt.Sprint(n)}
	for i := range rows {
		lines = append(lines, fmt.Sprintf("row %d of frame %d · ✓", i, n-i))
	}
	lines = append(lines, lipgloss.NewStyle().Faint(true).Render(fmt.Sprint(rows, " rows")))
	return strings.Join(lines, "\n")
}

// Every frame shows on the terminal as drawn whole: frames whose lines
// all move, frames where one line changes, a shorter frame, a resize.
func TestTheTerminalShowsEachFrame(t *testing.T) {
	term := newTerminal(40, 10)
	s := New(term, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, 40, 10, nil)
	frames := []string{frameOf(1, 8), frameOf(2, 8), frameOf(2, 8) + "", frameOf(3, 3)}
	same := strings.Replace(frameOf(3, 3), "row 1 of", "row 1 OF", 1) // one line
	frames = append(frames, same, "", frameOf(4, 8))
	for i, f := range frames {
		show(s, tea.View{Content: f, AltScreen: true})
		if got, want := term.text(), plain(f); got != want {
			t.Fatalf("frame %d shows\n%s\nwant\n%s", i, got, want)
		}
	}
	term.Resize(30, 6)
	s.Resize(30, 6)
	show(s, tea.View{Content: frameOf(5, 4), AltScreen: true})
	want := plain(frameOf(5, 4))
	var cut []string
	for _, l := range strings.Split(want, "\n") {
		cut = append(cut, strings.TrimRight(ansi.Truncate(l, 30, ""), " "))
	}
	if got := term.text(); got != strings.Join(cut, "\n") {
		t.Fatalf("after a resize:\n%s\nwant\n%s", got, strings.Join(cut, "\n"))
	}
}

// A frame that changed in one line writes that line's change, not the
// frame; a frame that did not change writes nothing.
func TestOnlyWhatChangedIsWritten(t *testing.T) {
	term := newTerminal(40, 10)
	s := New(term, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, 40, 10, nil)
	first := frameOf(1, 8)
	show(s, tea.View{Content: first, AltScreen: true})
	if w := term.written(); !strings.Contains(w, "row 7 of frame") {
		t.Fatalf("the first frame was not written whole: %q", w)
	}
	show(s, tea.View{Content: first, AltScreen: true})
	if w := term.written(); w != "" {
		t.Fatalf("the same frame again wrote %q", w)
	}
	show(s, tea.View{Content: strings.Replace(first, "row 4 of frame -3", "row 4 of frame 99", 1), AltScreen: true})
	w := term.written()
	if !strings.Contains(w, "99") || strings.Contains(w, "row") || len(w) > 32 {
		t.Fatalf("one changed cell wrote %d bytes: %q", len(w), w)
	}
}

// The modes a program's renderer would set are set on the first frame
// and undone by Close: the alternate screen, the cursor, the mouse as
// the view asks, bracketed paste, key disambiguation; colours follow the
// session's profile.
func TestModesAndRestore(t *testing.T) {
	term := newTerminal(40, 10)
	s := New(term, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, 40, 10, nil)
	show(s, tea.View{Content: frameOf(1, 3), AltScreen: true})
	w := term.written()
	for _, seq := range []string{ansi.SetModeAltScreenSaveCursor, ansi.ResetModeTextCursorEnable,
		ansi.SetModeBracketedPaste, ansi.PushKittyKeyboard(1), "38;5;208"} {
		if !strings.Contains(w, seq) {
			t.Errorf("first frame lacks %q", seq)
		}
	}
	if strings.Contains(w, ansi.SetModeMouseButtonEvent) {
		t.Error("mouse reports asked for a view without the mouse")
	}
	show(s, tea.View{Content: frameOf(1, 3), AltScreen: true, MouseMode: tea.MouseModeCellMotion})
	if w := term.written(); !strings.Contains(w, ansi.SetModeMouseButtonEvent) {
		t.Errorf("the mouse is not asked for: %q", w)
	}
	if !term.AltScreen() {
		t.Fatal("not on the alternate screen")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	w = term.written()
	for _, seq := range []string{ansi.ResetModeAltScreenSaveCursor, ansi.SetModeTextCursorEnable,
		ansi.ResetModeBracketedPaste, ansi.PopKittyKeyboard(1), ansi.ResetModeMouseButtonEvent} {
		if !strings.Contains(w, seq) {
			t.Errorf("Close lacks %q", seq)
		}
	}
	if term.AltScreen() {
		t.Fatal("still on the alternate screen after Close")
	}
	show(s, tea.View{Content: frameOf(2, 3), AltScreen: true})
	if w := term.written(); w != "" {
		t.Fatalf("a frame after Close wrote %q", w)
	}

	mono := newTerminal(40, 10)
	show(New(mono, []string{"TERM=xterm"}, colorprofile.Ascii, 40, 10, nil), tea.View{Content: frameOf(1, 3)})
	if w := mono.written(); strings.Contains(w, "38;") {
		t.Fatalf("colours written with NO_COLOR's profile: %q", w)
	}
}

// A terminal that says it has synchronized output gets each frame as one
// synchronized update.
func TestSynchronizedOutput(t *testing.T) {
	term := newTerminal(40, 10)
	s := New(term, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, 40, 10, nil)
	show(s, tea.View{Content: frameOf(1, 3)})
	if w := term.written(); !strings.Contains(w, ansi.RequestModeSynchronizedOutput) || strings.Contains(w, ansi.SetModeSynchronizedOutput) {
		t.Fatalf("first frame: %q", w)
	}
	s.Update(tea.ModeReportMsg{Mode: ansi.ModeSynchronizedOutput, Value: ansi.ModeReset})
	show(s, tea.View{Content: frameOf(2, 3)})
	w := term.written()
	if !strings.HasPrefix(w, ansi.SetModeSynchronizedOutput) || !strings.HasSuffix(w, ansi.ResetModeSynchronizedOutput) {
		t.Fatalf("frame not synchronized: %q", w)
	}
}

// Frames shown faster than they are drawn are drawn as the latest: the
// terminal ends on the last frame shown.
func TestTheLatestFrameWins(t *testing.T) {
	term := newTerminal(40, 10)
	s := New(term, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, 40, 10, nil)
	for i := range 200 {
		s.Show(tea.View{Content: frameOf(i, 8)})
	}
	s.drawPending()
	if got, want := term.text(), plain(frameOf(199, 8)); got != want {
		t.Fatalf("shows\n%s\nwant\n%s", got, want)
	}
	if term.writes > 3 {
		t.Fatalf("200 frames shown at once took %d writes", term.writes)
	}
}

// A screen writes no more than a renderer given every frame whole (as
// bubbletea's is): over frames where rows move down as new ones arrive
// (a live table), lines change alone, and the two mix, the lines it does
// not hand over keep the scroll optimization right.
func TestWritesNoMoreThanTheWholeFrameRenderer(t *testing.T) {
	frames := []string{}
	rows := []string{}
	for i := range 30 {
		rows = append(rows, fmt.Sprintf("row %d · %s", i, strings.Repeat("x", 60)))
	}
	page := func(head string, rows []string) string {
		return strings.Join(append([]string{head, "column titles"}, append(rows[:20:20], "footer")...), "\n")
	}
	for i := range 24 {
		switch i % 3 {
		case 0: // a new row at the top, the rest moved down
			rows = append([]string{fmt.Sprintf("new %d · %s", i, strings.Repeat("y", 60))}, rows...)
		case 1: // one row changed
			rows[5] = fmt.Sprintf("changed %d · %s", i, strings.Repeat("z", 50))
		case 2: // the header only
		}
		frames = append(frames, page(fmt.Sprintf("header at %d", i), rows))
	}
	whole := newTerminal(80, 24)
	r := uvRenderer(whole, 80, 24)
	term := newTerminal(80, 24)
	s := New(term, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, 80, 24, nil)
	show(s, tea.View{Content: frames[0]})
	r(frames[0])
	term.written()
	whole.written()
	var got, want int
	for i, f := range frames[1:] {
		show(s, tea.View{Content: f})
		r(f)
		g, w := len(term.written()), len(whole.written())
		got, want = got+g, want+w
		if term.text() != whole.text() {
			t.Fatalf("frame %d shows\n%s\nwant\n%s", i+1, term.text(), whole.text())
		}
	}
	if got > want {
		t.Fatalf("wrote %d bytes for the frames, the whole-frame renderer %d", got, want)
	}
	t.Logf("%d bytes, the whole-frame renderer %d", got, want)
}
