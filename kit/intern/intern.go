// Package intern shares the strings a program holds many copies of (a
// currency, a state, a rail, a beneficiary's name, in each of 100,000
// records): a Table hands back one copy of each text it was given, so
// that the records hold one string's bytes between them instead of one
// each. It is bounded: past its size it hands back what it is given, and
// a text too long to be a shared name is never kept.
package intern

import "sync"

// Table is a bounded set of shared strings, safe for concurrent use. The
// zero value is not usable: New makes one.
type Table struct {
	mu   sync.Mutex
	m    map[string]string
	max  int
	long int
}

// New is a table that shares at most max texts, each at most long bytes.
func New(max, long int) *Table {
	return &Table{m: make(map[string]string, min(max, 1024)), max: max, long: long}
}

// Of is the shared copy of s: s itself the first time (kept, while the
// table has room), and that one after. "" and texts longer than the
// table's bound are handed back as they are.
func (t *Table) Of(s string) string {
	if t == nil || s == "" || len(s) > t.long {
		return s
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.m[s]; ok {
		return c
	}
	if len(t.m) < t.max {
		t.m[s] = s
	}
	return s
}

// Len counts the texts shared.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.m)
}
