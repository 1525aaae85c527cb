// Package shelf keeps what was made for display once for every session
// of a process (a table's formatted row, a line fitted to a width), so
// that the other sessions read it instead of making it again. A shelf is
// bounded by two generations: a value is looked up in the current one,
// then in the last (and brought into the current); when the current is
// full it becomes the last and the last is dropped, so what no session
// asks for any more goes within two generations.
package shelf

import "sync"

// Shelf is a bounded set of values by key, safe for concurrent use.
type Shelf[K comparable, V any] struct {
	mu       sync.Mutex
	max      int
	cur, old map[K]V
}

// New returns an empty shelf of at most max values a generation.
func New[K comparable, V any](max int) *Shelf[K, V] {
	return &Shelf[K, V]{max: max, cur: map[K]V{}}
}

// Get returns the value kept for k.
func (s *Shelf[K, V]) Get(k K) (V, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.cur[k]; ok {
		return v, true
	}
	v, ok := s.old[k]
	if ok {
		s.keep(k, v)
	}
	return v, ok
}

// Put keeps v for k.
func (s *Shelf[K, V]) Put(k K, v V) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keep(k, v)
}

// keep puts v in the current generation; s.mu is held.
func (s *Shelf[K, V]) keep(k K, v V) {
	if len(s.cur) >= s.max {
		s.old, s.cur = s.cur, make(map[K]V, s.max)
	}
	s.cur[k] = v
}

// Turn makes the current generation the last and drops the last: called
// periodically, it drops what nobody asked for in two turns, though the
// bound was not reached (the sessions that asked for it left).
func (s *Shelf[K, V]) Turn() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.old, s.cur = s.cur, make(map[K]V, len(s.cur))
}

// Len is the number of values kept.
func (s *Shelf[K, V]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cur) + len(s.old)
}
