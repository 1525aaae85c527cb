package ratelog

import (
	"sync"
	"testing"
	"time"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// The first event of a key is logged, the others of the interval counted;
// the next one after the interval is logged with that count; keys are
// independent.
func TestAllowLogsOncePerIntervalPerKey(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)}
	l := New(10*time.Second, c.now)
	logged := 0
	for range 1000 {
		if ok, _ := l.Allow("handshake 10.0.0.1"); ok {
			logged++
		}
		c.add(time.Millisecond)
	}
	if logged != 1 || l.Events() != 1000 {
		t.Fatalf("%d lines for %d events in 1 s, want 1 for 1000", logged, l.Events())
	}
	if ok, _ := l.Allow("handshake 10.0.0.2"); !ok {
		t.Fatal("another source's first event not logged")
	}
	c.add(9 * time.Second)
	ok, n := l.Allow("handshake 10.0.0.1")
	if !ok || n != 999 {
		t.Fatalf("after the interval: log %v, suppressed %d, want true, 999", ok, n)
	}
}

// Flush sums up the keys that fell quiet with events not logged, once,
// and forgets the keys idle for an interval.
func TestFlushSumsUpAndForgets(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)}
	l := New(10*time.Second, c.now)
	for range 5 {
		l.Allow("a")
	}
	l.Allow("b")
	if q := l.Flush(); len(q) != 0 {
		t.Fatalf("flushed within the interval: %+v", q)
	}
	c.add(10 * time.Second)
	q := l.Flush()
	if len(q) != 1 || q[0].Key != "a" || q[0].Count != 4 {
		t.Fatalf("flush %+v, want a: 4", q)
	}
	if l.Len() != 1 {
		t.Fatalf("%d keys held, want a's alone (b forgotten)", l.Len())
	}
	c.add(10 * time.Second)
	if q := l.Flush(); len(q) != 0 || l.Len() != 0 {
		t.Fatalf("second flush %+v, %d keys", q, l.Len())
	}
}
