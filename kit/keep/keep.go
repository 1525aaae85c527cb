// Package keep is the process's one registry of what is made for display
// and shared by every session: a chart drawn at one size, a table's row
// formatted in one layout, a line fitted to a width, an overview panel.
// The first session that needs a value makes it; the others read it.
//
// A value is kept under a typed key: a value of a type of its maker's own
// (a struct of what makes it distinct: a chart's pair and window, a row
// and its layout), never a string built by hand. Keys of two types never
// meet, and a key type the compiler cannot compare does not compile. One
// key type holds one type of value: asking a key type for another is a
// programming error, and panics at its first use rather than answering
// wrong.
//
// Every value has one lifetime: it ends when no session asked for it
// within the idle time given to Sweep (its last watcher left), or, past
// the registry's bound, when it is among the least recently asked.
package keep

import (
	"fmt"
	"reflect"
	"sync"
	"time"
)

// Registry holds the values made for display, by key. Safe for
// concurrent use; a nil *Registry keeps nothing (each asker makes its
// own), so a view can run without one.
type Registry struct {
	mu   sync.Mutex
	m    map[any]*entry
	max  int
	tick uint64
	// kinds is the value type of each key type stored.
	kinds map[reflect.Type]reflect.Type
	// marks are the ticks of the sweeps: what was last asked for before
	// the mark of idle ago is idle.
	marks []mark
}

// mark is the registry's tick at a sweep.
type mark struct {
	at   time.Time
	tick uint64
}

type entry struct {
	version uint64
	// ready is closed once v is made.
	ready chan struct{}
	v     any
	used  uint64 // the registry's tick when last asked for
}

// New returns an empty registry of at most max values.
func New(max int) *Registry {
	return &Registry{m: map[any]*entry{}, max: max, kinds: map[reflect.Type]reflect.Type{}}
}

// Get returns the value kept for k.
func Get[K comparable, V any](r *Registry, k K) (V, bool) {
	var zero V
	if r == nil {
		return zero, false
	}
	r.mu.Lock()
	e := r.m[k]
	if e != nil {
		r.ask(e)
	}
	r.mu.Unlock()
	if e == nil {
		return zero, false
	}
	<-e.ready
	v, ok := e.v.(V)
	if !ok { // a value stored for K is not a V: say which
		r.mu.Lock()
		kind[K, V](r) // unlocks before it panics
		r.mu.Unlock()
	}
	return v, ok
}

// Put keeps v for k, replacing what was kept.
func Put[K comparable, V any](r *Registry, k K, v V) {
	if r == nil {
		return
	}
	e := &entry{v: v, ready: make(chan struct{})}
	close(e.ready)
	r.mu.Lock()
	kind[K, V](r) // unlocks before a panic
	r.ask(e)
	r.m[k] = e
	r.bound()
	r.mu.Unlock()
}

// Make returns the value of k at version, made with build by the first
// session that asks for it: sessions asking at once for a value not yet
// made wait for the one making it. A new version replaces the old one.
func Make[K comparable, V any](r *Registry, k K, version uint64, build func() V) V {
	if r == nil {
		return build()
	}
	r.mu.Lock()
	kind[K, V](r) // unlocks before a panic
	e := r.m[k]
	maker := e == nil || e.version != version
	if maker {
		e = &entry{version: version, ready: make(chan struct{})}
		r.m[k] = e
		r.bound()
	}
	r.ask(e)
	r.mu.Unlock()
	if maker {
		func() {
			defer close(e.ready)
			e.v = build()
		}()
	}
	<-e.ready
	v, _ := e.v.(V)
	return v
}

// kind checks that K's keys hold V's values; r.mu is held, and released
// before it panics on a key type asked for another value type.
func kind[K comparable, V any](r *Registry) {
	kt, vt := reflect.TypeFor[K](), reflect.TypeFor[V]()
	was, ok := r.kinds[kt]
	if !ok {
		r.kinds[kt] = vt
		return
	}
	if was != vt {
		r.mu.Unlock()
		panic(fmt.Sprintf("keep: key type %v holds %v, asked for %v", kt, was, vt))
	}
}

// ask notes that e was asked for; r.mu is held.
func (r *Registry) ask(e *entry) {
	r.tick++
	e.used = r.tick
}

// bound drops the least recently asked quarter when past the bound; r.mu
// is held.
func (r *Registry) bound() {
	if len(r.m) <= r.max {
		return
	}
	var cut uint64
	if keep := uint64(r.max / 4 * 3); r.tick > keep {
		cut = r.tick - keep
	}
	for k, e := range r.m {
		if e.used < cut {
			delete(r.m, k)
		}
	}
}

// Sweep drops what no session asked for since idle before now (to the
// period of the sweeps: a value is asked for before or after a sweep,
// whose time is noted): what was made for sessions that have left ends
// with them, not only when the bound is reached. The process calls it
// periodically.
func (r *Registry) Sweep(now time.Time, idle time.Duration) (dropped int) {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.marks = append(r.marks, mark{now, r.tick})
	since := now.Add(-idle)
	last := -1 // the newest sweep at or before since
	for i, m := range r.marks {
		if !m.at.After(since) {
			last = i
		}
	}
	if last < 0 {
		return 0
	}
	cut := r.marks[last].tick
	r.marks = append(r.marks[:0], r.marks[last:]...)
	for k, e := range r.m {
		if e.used <= cut {
			delete(r.m, k)
			dropped++
		}
	}
	return dropped
}

// Len is the number of values kept.
func (r *Registry) Len() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.m)
}

// Count is the number of values kept under keys of K's type.
func Count[K comparable](r *Registry) int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for k := range r.m {
		if _, ok := k.(K); ok {
			n++
		}
	}
	return n
}
