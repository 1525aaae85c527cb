package uitest

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/charmbracelet/x/vt"
)

// Screen is the text a terminal of w×h columns and lines shows once it has
// read out (a program's output from its start), lines joined by "\n".
// bubbletea draws only the cells that change, so text on the screen need
// not be anywhere in the output in one piece: tests look at the screen.
func Screen(out []byte, w, h int) string {
	s := NewScreen(w, h)
	s.Write(out)
	return s.String()
}

// A Scr is a terminal screen fed a program's output piece by piece.
type Scr struct {
	mu sync.Mutex
	em *vt.Emulator
}

// NewScreen is a w×h terminal. Its answers to a program's questions (the
// modes it supports) are read and dropped: they would block it otherwise.
func NewScreen(w, h int) *Scr {
	em := vt.NewEmulator(w, h)
	go func() { _, _ = io.Copy(io.Discard, em) }()
	s := &Scr{em: em}
	runtime.AddCleanup(s, func(em *vt.Emulator) { _ = em.Close() }, em) // ends the reader
	return s
}

// Write feeds out to the terminal, a line feed as a new line (what a
// terminal's line discipline makes of it, onlcr).
func (s *Scr) Write(out []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.em.Write(bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n")))
}

// Resize makes the terminal w×h, as a window resized.
func (s *Scr) Resize(w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.em.Resize(w, h)
}

// AltScreen reports whether the terminal shows its alternate screen.
func (s *Scr) AltScreen() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.em.IsAltScreen()
}

// String is the screen's text, trailing spaces of each line cut.
func (s *Scr) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	lines := strings.Split(s.em.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// Shows is a teatest.WaitFor condition: the screen, following the
// program's output from where the last condition left it, shows every
// one of want.
func (s *Scr) Shows(want ...string) func([]byte) bool {
	fed := 0 // teatest hands each WaitFor what it read since it began
	return func(all []byte) bool {
		if len(all) > fed {
			s.Write(all[fed:])
			fed = len(all)
		}
		scr := s.String()
		for _, x := range want {
			if !strings.Contains(scr, x) {
				return false
			}
		}
		return true
	}
}

// screens are the screens of the programs under test: the output a
// WaitFor read is gone from tm.Output() for the next one, but not from
// the screen.
var screens sync.Map // *teatest.TestModel → *Scr

// ScreenOf is the w×h screen of tm's program (made on the first call).
func ScreenOf(tm *teatest.TestModel, w, h int) *Scr {
	s, _ := screens.LoadOrStore(tm, NewScreen(w, h))
	return s.(*Scr)
}

// WaitFor waits (up to d) until the w×h screen of tm shows every one of
// want; it fails t with the screen it last saw.
func WaitFor(t testing.TB, tm *teatest.TestModel, w, h int, d time.Duration, want ...string) {
	t.Helper()
	scr := ScreenOf(tm, w, h)
	shows := scr.Shows(want...)
	out := tm.Output()
	var all []byte
	buf := make([]byte, 64<<10)
	for deadline := time.Now().Add(d); ; {
		for {
			n, _ := out.Read(buf)
			if n == 0 {
				break
			}
			all = append(all, buf[:n]...)
		}
		if shows(all) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q in %s; it shows:\n%s", want, d, scr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
