package live

import (
	"reflect"

	"treasury/wire"
)

// Key is a topic and the type of its data: a view reads a topic through
// its key (Get), so reading it as another type does not compile.
type Key[T any] struct{ topic Topic }

// KeyOf declares the key of topic t holding a T. Declare each key once,
// beside its topic (topics.go), and use it everywhere.
func KeyOf[T any](t Topic) Key[T] { return Key[T]{topic: t} }

// Topic is the key's topic.
func (k Key[T]) Topic() Topic { return k.topic }

// Snap is a typed snapshot: the data of a topic with its state (when it
// was fetched, the last error, what changed).
type Snap[T any] struct {
	Snapshot
	// Data is the last good value; the zero T before the first success
	// (Loaded reports which).
	Data T
}

// Get returns the latest snapshot of the topic of k. The store holds each
// topic's data as the type its key declares: the one type assertion of
// the store's readers is here.
func Get[T any](s *Store, k Key[T]) Snap[T] {
	s.mu.Lock()
	s.usedLocked(k.topic)
	e := s.snaps[k.topic]
	s.mu.Unlock()
	out := Snap[T]{Snapshot: e}
	if v, ok := e.data.(T); ok {
		out.Data = v
	}
	return out
}

// Changes says what changed in a topic's data since its previous
// snapshot, by record id, so that what is built from the data (the rows of
// a table) is rebuilt only where it changed. Reset means anything may have
// changed (the first data, or a topic that does not track records):
// rebuild it all.
type Changes struct {
	Reset                   bool
	Added, Changed, Removed []string
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return !c.Reset && len(c.Added) == 0 && len(c.Changed) == 0 && len(c.Removed) == 0
}

// Count is how many records the changes touch (all: -1).
func (c Changes) Count() int {
	if c.Reset {
		return -1
	}
	return len(c.Added) + len(c.Changed) + len(c.Removed)
}

// merge adds the changes of a later step: a consumer that missed a
// version sees the union.
func (c Changes) merge(d Changes) Changes {
	if c.Reset || d.Reset {
		return Changes{Reset: true}
	}
	return Changes{Added: append(append([]string(nil), c.Added...), d.Added...),
		Changed: append(append([]string(nil), c.Changed...), d.Changed...),
		Removed: append(append([]string(nil), c.Removed...), d.Removed...)}
}

// DiffList compares two versions of a list of records by id: records that
// are new, gone, or whose content differs (their JSON as received when
// they kept it, else their values).
func DiffList[E any](prev, next []E, id func(E) string) Changes {
	old := make(map[string]int, len(prev))
	for i, e := range prev {
		old[id(e)] = i
	}
	var c Changes
	seen := make(map[string]struct{}, len(next))
	for _, e := range next {
		k := id(e)
		seen[k] = struct{}{}
		i, ok := old[k]
		switch {
		case !ok:
			c.Added = append(c.Added, k)
		case !same(prev[i], e):
			c.Changed = append(c.Changed, k)
		}
	}
	for k := range old {
		if _, ok := seen[k]; !ok {
			c.Removed = append(c.Removed, k)
		}
	}
	return c
}

// same reports whether two versions of a record hold the same content.
func same[E any](a, b E) bool {
	ra, aok := any(a).(wire.RawJSONer)
	rb, bok := any(b).(wire.RawJSONer)
	if aok && bok && len(ra.RawJSON()) > 0 && len(rb.RawJSON()) > 0 {
		return string(ra.RawJSON()) == string(rb.RawJSON())
	}
	return reflect.DeepEqual(a, b)
}
