package screen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// newShared is a screen of 40x10 on term drawing through f.
func newShared(term *terminal, f *Frames) *Screen {
	return New(term, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, 40, 10, f)
}

// Screens shown the same frames write the same bytes, worked out once
// per change for all of them; each terminal shows every frame.
func TestScreensShownTheSameFramesDrawOnce(t *testing.T) {
	f := NewFrames()
	terms := make([]*terminal, 3)
	screens := make([]*Screen, 3)
	for i := range screens {
		terms[i] = newTerminal(40, 10)
		screens[i] = newShared(terms[i], f)
	}
	for n := 1; n <= 10; n++ {
		frame := frameOf(n/2, 8) // each frame twice: the second is no change
		var first string
		for i, s := range screens {
			show(s, tea.View{Content: frame})
			w := terms[i].written()
			if i == 0 {
				first = w
			} else if w != first {
				t.Fatalf("frame %d: screen %d wrote %q, screen 0 %q", n, i, w, first)
			}
			if got, want := terms[i].text(), plain(frame); got != want {
				t.Fatalf("frame %d: screen %d shows\n%s\nwant\n%s", n, i, got, want)
			}
		}
	}
	if states, paints := f.Len(); paints != 6 || states != 1 {
		t.Fatalf("6 different frames: %d draws worked out, %d states kept", paints, states)
	}
	for _, s := range screens {
		_ = s.Close()
	}
	if states, _ := f.Len(); states != 0 {
		t.Fatalf("%d states kept after every screen closed", states)
	}
}

// Screens that go their own ways (a key pressed in one session, a
// resize, a session that starts late) and meet again each show exactly
// their frames, drawn in any order from several goroutines.
func TestScreensGoingTheirOwnWaysShowTheirFrames(t *testing.T) {
	f := NewFrames()
	frames := []string{frameOf(1, 8), frameOf(2, 8), frameOf(3, 4), frameOf(1, 8) + "\nextra", frameOf(9, 9), ""}
	const n = 6
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			term := newTerminal(40, 10)
			s := newShared(term, f)
			w, h := 40, 10
			for step := range 300 {
				if rng.IntN(40) == 0 { // a resize, and back later
					if w == 40 {
						w, h = 30, 8
					} else {
						w, h = 40, 10
					}
					term.Resize(w, h)
					s.Update(tea.WindowSizeMsg{Width: w, Height: h})
				}
				// Mostly the frame of the step, as sessions in step are.
				frame := frames[(step/5)%len(frames)]
				if rng.IntN(4) == 0 {
					frame = frames[rng.IntN(len(frames))]
				}
				show(s, tea.View{Content: frame})
				want := plain(frame)
				if lines := strings.Split(want, "\n"); len(lines) > h {
					want = strings.Join(lines[len(lines)-h:], "\n")
				}
				if got := term.text(); got != fit(want, w) {
					errs <- fmt.Errorf("screen %d, step %d (%dx%d) shows\n%s\nwant\n%s", i, step, w, h, got, want)
					return
				}
			}
			_ = s.Close()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if states, paints := f.Len(); states != 0 || paints == 0 {
		t.Fatalf("%d states kept after every screen closed, %d draws", states, paints)
	}
}

// fit cuts each line of text to w cells, as the terminal does.
func fit(text string, w int) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if r := []rune(l); len(r) > w {
			lines[i] = strings.TrimRight(string(r[:w]), " ")
		}
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// A frame the renderer panics on ends the screens shown it, each told
// once, those that waited for another's draw included; the others go
// on from the state they shared, and every state is freed at the end.
func TestAFrameThatCannotBeDrawnFailsOnlyItsScreens(t *testing.T) {
	f := NewFrames()
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	f.beforePaint = func(lines []string) {
		if lines[0] != "boom" {
			return
		}
		once.Do(func() { close(started); <-release })
		panic("renderer bug")
	}
	terms := make([]*terminal, 4)
	screens := make([]*Screen, 4)
	faults := make([]chan error, 4)
	for i := range screens {
		terms[i] = newTerminal(40, 10)
		screens[i] = newShared(terms[i], f)
		faults[i] = make(chan error, 2)
		screens[i].OnFault(func(err error) { faults[i] <- err })
		show(screens[i], tea.View{Content: frameOf(1, 8)})
	}
	// Screens 0-2 are shown the frame; 1 and 2 find 0's draw under way.
	var wg sync.WaitGroup
	wg.Go(func() { show(screens[0], tea.View{Content: "boom"}) })
	<-started
	for _, s := range screens[1:3] {
		wg.Go(func() { show(s, tea.View{Content: "boom"}) })
	}
	time.Sleep(50 * time.Millisecond) // let them wait for it (either way, each must fail)
	close(release)
	wg.Wait()
	for i := range 3 {
		select {
		case err := <-faults[i]:
			if !strings.Contains(err.Error(), "renderer bug") {
				t.Errorf("screen %d: fault %v", i, err)
			}
		default:
			t.Fatalf("screen %d was not told its frame failed", i)
		}
		terms[i].written()
		show(screens[i], tea.View{Content: frameOf(2, 8)})
		if after := terms[i].written(); after != "" {
			t.Errorf("screen %d drew after its fault: %q", i, after)
		}
		if len(faults[i]) != 0 {
			t.Errorf("screen %d told of a fault twice", i)
		}
	}
	// Screen 3, in the state the others left, draws on.
	show(screens[3], tea.View{Content: frameOf(2, 8)})
	if got, want := terms[3].text(), plain(frameOf(2, 8)); got != want {
		t.Fatalf("screen 3 shows\n%s\nwant\n%s", got, want)
	}
	if len(faults[3]) != 0 {
		t.Fatal("screen 3 was told of a fault")
	}
	for i, s := range screens {
		terms[i].written()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(terms[i].written(), ansi.ResetModeAltScreenSaveCursor) {
			t.Errorf("screen %d: Close did not restore the terminal", i)
		}
	}
	if states, _ := f.Len(); states != 0 {
		t.Fatalf("%d states kept after every screen closed", states)
	}
}
