// Package persist holds persistent (immutable, structurally shared)
// collections for values many readers share while one writer makes new
// versions: a map whose new version copies only the shard a change
// touches, so a change to one record of 100,000 costs little and every
// reader keeps a consistent version without a lock.
package persist

// shards is the number of shards of a Map: a change copies 1/shards of it.
const shards = 256

// Map is an immutable map from string keys; the zero value is empty. Set
// and Delete return a new Map and leave the receiver as it was.
type Map[V any] struct {
	s *[shards]map[string]V
	n int
}

func shardOf(k string) int {
	h := uint32(2166136261)
	for i := 0; i < len(k); i++ {
		h = (h ^ uint32(k[i])) * 16777619
	}
	return int(h % shards)
}

// Get returns the value of k.
func (m Map[V]) Get(k string) (V, bool) {
	if m.s == nil {
		var zero V
		return zero, false
	}
	v, ok := m.s[shardOf(k)][k]
	return v, ok
}

// Len counts the keys.
func (m Map[V]) Len() int { return m.n }

// Edit starts a batch of changes to m; Done returns the new Map. Each
// shard is copied once, on its first change in the batch.
func (m Map[V]) Edit() *Editor[V] { return &Editor[V]{from: m, to: m} }

// Editor makes a new version of a Map: changes in a batch share the
// copies of the shards they touch.
type Editor[V any] struct {
	from, to Map[V]
	copied   [shards]bool
}

func (e *Editor[V]) shard(k string) map[string]V {
	i := shardOf(k)
	if !e.copied[i] {
		if e.to.s == e.from.s {
			var sh [shards]map[string]V
			if e.from.s != nil {
				sh = *e.from.s
			}
			e.to.s = &sh
		}
		old := e.to.s[i]
		cp := make(map[string]V, len(old)+1)
		for k, v := range old {
			cp[k] = v
		}
		e.to.s[i] = cp
		e.copied[i] = true
	}
	return e.to.s[i]
}

// Set sets k to v.
func (e *Editor[V]) Set(k string, v V) {
	sh := e.shard(k)
	if _, ok := sh[k]; !ok {
		e.to.n++
	}
	sh[k] = v
}

// Delete removes k.
func (e *Editor[V]) Delete(k string) {
	if _, ok := e.to.Get(k); !ok {
		return
	}
	delete(e.shard(k), k)
	e.to.n--
}

// Done returns the new Map; the Editor must not be used after.
func (e *Editor[V]) Done() Map[V] { return e.to }
