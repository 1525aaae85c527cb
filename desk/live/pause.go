package live

import (
	"slices"
	"time"
)

// A derivation nobody uses is paused: the rows of a table no session
// shows, the chart of a window nobody looks at. Its value is dropped and
// it is no longer built at each change of its sources, so that what a
// closed session, or a tab left long ago, asked for costs neither memory
// nor CPU for as long as the process runs. Its key stays valid: the first
// session that watches it again (or reads it) resumes it, and it is built
// whole from its sources' latest data, off that session's goroutine.
//
// A derivation is in use while a subscription watches it (or watches a
// value built from it), while it was read (Get) within Options.Idle,
// while it raises alerts (a combination with Alerts is judged whether
// anyone looks or not), and while it is pinned (Pin: the history
// recorder's runway).

// DefaultIdle is how long a derivation nobody watches is still built
// (Options.Idle): longer than a minute, since a shown view reads its
// values at least at every turn of the header's clock.
const DefaultIdle = 90 * time.Second

// idle is how long an unused derivation is kept built.
func (s *Store) idleFor() time.Duration {
	if s.opts.Idle > 0 {
		return s.opts.Idle
	}
	return DefaultIdle
}

// Pin keeps the derivation of t built whoever watches it: for a reader
// that is not a session (the history recorder).
func (s *Store) Pin(t Topic) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.derivedBy[t]; ok {
		d.pinned = true
		s.resumeLocked(d, false)
	}
}

// usedLocked notes that t was read now and resumes it if it was paused:
// its build then tells every subscriber, since the reader may watch
// nothing that would tell it.
func (s *Store) usedLocked(t Topic) {
	d, ok := s.derivedBy[t]
	if !ok {
		return
	}
	d.used = time.Now()
	if d.paused {
		s.resumeLocked(d, true)
	}
}

// resumeLocked builds a paused derivation again, and first the paused
// derivations it is built from. tell makes its build tell every
// subscriber.
func (s *Store) resumeLocked(d *deriver, tell bool) {
	if !d.paused {
		return
	}
	d.paused, d.used = false, time.Now()
	d.tellAll = d.tellAll || tell
	for _, in := range d.inputs() {
		if up, ok := s.derivedBy[in]; ok {
			s.resumeLocked(up, false)
		}
	}
	d.acc = Changes{Reset: true}
	s.signalLocked(d)
}

// inputs are the topics d is built from.
func (d *deriver) inputs() []Topic {
	if d.combine != nil {
		return d.srcs
	}
	return append([]Topic{d.src}, d.also...)
}

// PauseUnused pauses the derivations not in use at now, and returns how
// many it paused. The store calls it periodically (Start); tests call it
// with a time of their own (an hour ahead pauses all that nobody holds).
func (s *Store) PauseUnused(now time.Time) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	inUse := map[Topic]bool{}
	var mark func(t Topic)
	mark = func(t Topic) {
		if inUse[t] {
			return
		}
		inUse[t] = true
		if d, ok := s.derivedBy[t]; ok {
			for _, in := range d.inputs() {
				mark(in)
			}
		}
	}
	for sub := range s.subs {
		for t := range sub.watching {
			mark(t)
		}
	}
	idle := s.idleFor()
	for t, d := range s.derivedBy {
		if d.pinned || d.alerts != nil || now.Sub(d.used) < idle {
			mark(t)
		}
	}
	n := 0
	for t, d := range s.derivedBy {
		if inUse[t] || d.paused {
			continue
		}
		d.paused, d.tellAll = true, false
		d.acc, d.dirty = Changes{}, false
		prev := s.snaps[t]
		// The value is dropped; its version is kept, so that the next
		// one, built on resuming, is never taken for one seen before.
		s.snaps[t] = Snapshot{Topic: t, Version: prev.Version, Seq: prev.Seq}
		// Its goroutine ends: woken, it finds the derivation paused.
		if d.running {
			select {
			case d.signal <- struct{}{}:
				s.pending++
			default:
			}
		}
		n++
	}
	return n
}

// pauseLoop pauses unused derivations until the store closes.
func (s *Store) pauseLoop() {
	defer s.wg.Done()
	every := max(s.idleFor()/4, time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.life.Done():
			return
		case now := <-t.C:
			s.PauseUnused(now)
		}
	}
}

// Running counts the derivations whose goroutine runs (a paused one
// holds none).
func (s *Store) Running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, d := range s.derivedBy {
		if d.running {
			n++
		}
	}
	return n
}

// Derivations counts the registered derivations, and names those built
// now (not paused), sorted (the serve command's stats).
func (s *Store) Derivations() (all int, active []Topic) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t, d := range s.derivedBy {
		if !d.paused {
			active = append(active, t)
		}
	}
	slices.Sort(active)
	return len(s.derivedBy), active
}
