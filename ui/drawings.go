package ui

import (
	"reflect"
	"sync"
	"time"
)

// Drawings holds the charts drawn for display, shared by every session of
// a process: a chart of one thing, at one version of its data, one size
// and one colour profile, is drawn once, by the first session that shows
// it, and the other sessions read the same string. A chart redraw costs
// milliseconds and megabytes (the line chart), so twenty sessions on the
// quotes view would otherwise draw it twenty times per poll.
//
// A new version replaces the old one of the same chart, size and profile;
// at most maxDrawings are kept, the least recently used going first.
type Drawings struct {
	mu   sync.Mutex
	m    map[drawingSlot]*drawing
	tick uint64
	// kept are the views' own shared sets of drawn parts, by type
	// (SharedOf).
	kept map[reflect.Type]any
}

// maxDrawings bounds what Drawings keeps (each a few kilobytes).
const maxDrawings = 512

// drawingSlot is one chart at one size and profile; its drawing is of one
// version.
type drawingSlot struct {
	what    any // a comparable key of the caller's own type (Chart)
	w, h    int
	profile string
}

type drawing struct {
	version uint64
	once    sync.Once
	out     string
	used    uint64
	at      time.Time // when it was last asked for (Sweep)
}

// NewDrawings returns an empty shared set of drawings.
func NewDrawings() *Drawings { return &Drawings{m: map[drawingSlot]*drawing{}} }

// Get returns the drawing of what at version, w x h, in profile, drawing
// it with draw when no session has yet. Sessions asking at once for a
// drawing not yet made wait for the one that draws it.
func (d *Drawings) Get(what any, version uint64, w, h int, profile string, draw func() string) string {
	k := drawingSlot{what, w, h, profile}
	d.mu.Lock()
	d.tick++
	e := d.m[k]
	if e == nil || e.version != version {
		e = &drawing{version: version}
		d.m[k] = e
		if len(d.m) > maxDrawings {
			d.evict()
		}
	}
	e.used, e.at = d.tick, time.Now()
	d.mu.Unlock()
	e.once.Do(func() { e.out = draw() })
	return e.out
}

// evict drops the least recently used quarter; d.mu is held.
func (d *Drawings) evict() {
	var cut uint64
	if d.tick > maxDrawings/4*3 {
		cut = d.tick - maxDrawings/4*3
	}
	for k, e := range d.m {
		if e.used < cut {
			delete(d.m, k)
		}
	}
}

// Sweep drops the drawings nobody asked for since idle before now, and
// the shared sets (SharedOf) that can sweep themselves sweep theirs: what
// was drawn for sessions that have left ends with them, not only when
// the bound is reached. The process calls it periodically.
func (d *Drawings) Sweep(now time.Time, idle time.Duration) (dropped int) {
	d.mu.Lock()
	for k, e := range d.m {
		if now.Sub(e.at) > idle {
			delete(d.m, k)
			dropped++
		}
	}
	kept := make([]any, 0, len(d.kept))
	for _, x := range d.kept {
		kept = append(kept, x)
	}
	d.mu.Unlock()
	for _, x := range kept {
		if s, ok := x.(interface {
			Sweep(time.Time, time.Duration)
		}); ok {
			s.Sweep(now, idle)
		}
	}
	return dropped
}

// Len is the number of drawings kept.
func (d *Drawings) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.m)
}

// Chart returns what draw draws (the chart key names, at version, w x h),
// shared with every session of the same colour profile through
// c.Drawings; drawn here when the context has none. The key is a value
// of a type of the caller's own (a struct of what makes the chart
// distinct: its pair and window), never a string built by hand: two
// views' keys cannot collide, and a key the compiler cannot compare does
// not compile.
func Chart[K comparable](c *Context, key K, version uint64, w, h int, draw func() string) string {
	if c.Drawings == nil {
		return draw()
	}
	return c.Drawings.Get(key, version, w, h, c.StylesName(), draw)
}

// StylesName names the session's styles: sessions of one name draw alike
// (the same colour profile and background).
func (c *Context) StylesName() string {
	profile := "light"
	if c.Dark {
		profile = "dark"
	}
	return profile + string(rune('0'+c.Colors))
}

// SharedOf is the process's one *T (made by make the first time), through
// c.Drawings: what a view keeps of what it drew for every session (its
// parts drawn once, as charts are), guarding it itself. Its key is its
// type: a package that keeps such a set declares a type of its own for
// it. Nil when the context has no Drawings: the view keeps its own.
func SharedOf[T any](c *Context, make func() *T) *T {
	d := c.Drawings
	if d == nil {
		return nil
	}
	k := reflect.TypeFor[T]()
	d.mu.Lock()
	defer d.mu.Unlock()
	if x, ok := d.kept[k].(*T); ok {
		return x
	}
	if d.kept == nil {
		d.kept = map[reflect.Type]any{}
	}
	x := make()
	d.kept[k] = x
	return x
}
