package ui

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/charmbracelet/colorprofile"
)

type testChart struct{ pair string }

// TestChartsAreDrawnOncePerVersionAndStyles: sessions of one process
// asking at once for one chart at one version, size and styles get one
// drawing; a new version, another size or other styles are drawn again;
// a session without the process's registry draws its own.
func TestChartsAreDrawnOncePerVersionAndStyles(t *testing.T) {
	kept := NewKept()
	var draws atomic.Int32
	draw := func(s string) func() string {
		return func() string { draws.Add(1); return s }
	}
	session := func(colors int, dark bool) *Context {
		c := &Context{Shared: &Shared{Kept: kept}}
		c.Colors, c.Dark = colorprofile.Profile(colors), dark
		return c
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := Chart(session(3, true), testChart{"USD/MXN"}, 1, 80, 10, draw("v1")); got != "v1" {
				t.Errorf("got %q", got)
			}
		}()
	}
	wg.Wait()
	if n := draws.Load(); n != 1 {
		t.Fatalf("20 sessions drew %d times", n)
	}
	dark := session(3, true)
	if got := Chart(dark, testChart{"USD/MXN"}, 2, 80, 10, draw("v2")); got != "v2" || draws.Load() != 2 {
		t.Errorf("a new version: %q after %d draws", got, draws.Load())
	}
	Chart(dark, testChart{"USD/MXN"}, 2, 120, 10, draw("wide"))
	Chart(session(0, true), testChart{"USD/MXN"}, 2, 80, 10, draw("plain"))
	Chart(session(3, false), testChart{"USD/MXN"}, 2, 80, 10, draw("light"))
	Chart(dark, testChart{"EUR/MXN"}, 2, 80, 10, draw("another pair"))
	if draws.Load() != 6 || kept.Len() != 5 {
		t.Errorf("%d draws, %d kept; want 6 and 5 (the old version replaced)", draws.Load(), kept.Len())
	}
	alone := &Context{Shared: &Shared{}}
	Chart(alone, testChart{"USD/MXN"}, 2, 80, 10, draw("alone"))
	Chart(alone, testChart{"USD/MXN"}, 2, 80, 10, draw("alone"))
	if draws.Load() != 8 {
		t.Errorf("a session without the registry drew %d times, want 2", draws.Load()-6)
	}
}
