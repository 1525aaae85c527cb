package webhook

import "container/list"

// lru is a bounded map that forgets its least recently used key when full.
// The receiver keeps seen notification ids and each payment's latest
// transition in one, so memory stays bounded however long it runs. Not safe
// for concurrent use: the receiver holds its lock.
type lru[V any] struct {
	max   int
	order *list.List // front: most recently used; values are *lruEntry[V]
	byKey map[string]*list.Element
}

type lruEntry[V any] struct {
	key string
	val V
}

func newLRU[V any](max int) *lru[V] {
	return &lru[V]{max: max, order: list.New(), byKey: make(map[string]*list.Element, min(max, 4096))}
}

// get returns the value of key and marks it used.
func (c *lru[V]) get(key string) (V, bool) {
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*lruEntry[V]).val, true
	}
	var zero V
	return zero, false
}

// put sets key, evicting the least recently used key when full.
func (c *lru[V]) put(key string, val V) {
	if el, ok := c.byKey[key]; ok {
		el.Value.(*lruEntry[V]).val = val
		c.order.MoveToFront(el)
		return
	}
	if c.order.Len() >= c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.byKey, old.Value.(*lruEntry[V]).key)
	}
	c.byKey[key] = c.order.PushFront(&lruEntry[V]{key: key, val: val})
}
