// Package ratelog bounds what a flood of events can write to a log: the
// first event of each key (a reason, or a reason and a source address) is
// logged, then at most one per interval, that line saying how many of the
// key were not logged since; a key that falls quiet with events not
// logged has them summed up in one line (Flush) once its interval is
// over. A client that connects and disconnects as fast as it can thus
// writes a few lines per interval, not one per connection, and nothing it
// did goes uncounted.
package ratelog

import (
	"sort"
	"sync"
	"time"
)

// Limiter counts events per key. It is safe for concurrent use.
type Limiter struct {
	every time.Duration
	now   func() time.Time

	mu     sync.Mutex
	keys   map[string]*state
	events int
}

type state struct {
	last  time.Time // when a line of the key was last written
	quiet int       // events of the key not logged since
}

// New returns a limiter that logs at most one line per key per every; now
// is the clock (time.Now when nil).
func New(every time.Duration, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{every: every, now: now, keys: map[string]*state{}}
}

// Every is the interval.
func (l *Limiter) Every() time.Duration { return l.every }

// Allow counts one event of key. It reports whether to log it and, if so,
// how many events of key were not logged before it.
func (l *Limiter) Allow(key string) (log bool, suppressed int) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events++
	s := l.keys[key]
	if s == nil {
		s = &state{}
		l.keys[key] = s
	} else if d := now.Sub(s.last); d < l.every && d > -l.every {
		s.quiet++
		return false, 0
	}
	s.last, suppressed, s.quiet = now, s.quiet, 0
	return true, suppressed
}

// Quiet is a key whose events were not all logged: Count of them in the
// Over since its last line.
type Quiet struct {
	Key   string
	Count int
	Over  time.Duration
}

// Flush returns, sorted by key, the keys with events not logged whose
// last line is an interval old or more, and counts them as logged now;
// keys without any event for an interval are forgotten, so that the
// limiter holds only the keys of the last interval however many sources
// come and go. Call it every interval.
func (l *Limiter) Flush() []Quiet {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []Quiet
	for k, s := range l.keys {
		if now.Sub(s.last) < l.every {
			continue
		}
		if s.quiet > 0 {
			out = append(out, Quiet{Key: k, Count: s.quiet, Over: now.Sub(s.last)})
			s.last, s.quiet = now, 0
			continue
		}
		delete(l.keys, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Events is how many events Allow has counted, logged or not.
func (l *Limiter) Events() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.events
}

// Len is how many keys the limiter holds.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.keys)
}
