package simkit

import (
	"sync"
	"time"
)

// Clock is the sandbox's clock. It runs Speed times faster than real time
// from Start, or stands still when frozen; Advance moves it forward either
// way. All sandbox times are UTC.
type Clock struct {
	mu        sync.Mutex
	start     time.Time // sandbox time at realStart
	realStart time.Time
	speed     float64
	frozen    bool
	offset    time.Duration
	real      func() time.Time
}

// NewClock starts a clock at start (now when zero) running speed times
// faster than real time (1 when speed <= 0).
func NewClock(start time.Time, speed float64) *Clock {
	return newClock(start, speed, false, time.Now)
}

// NewFrozenClock returns a clock that stays at at until Advance moves it.
func NewFrozenClock(at time.Time) *Clock {
	return newClock(at, 1, true, time.Now)
}

func newClock(start time.Time, speed float64, frozen bool, real func() time.Time) *Clock {
	if speed <= 0 {
		speed = 1
	}
	now := real()
	if start.IsZero() {
		start = now
	}
	return &Clock{start: start.UTC(), realStart: now, speed: speed, frozen: frozen, real: real}
}

// Now is the current sandbox time, in UTC, at millisecond precision so that
// it survives a round trip through JSON unchanged.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.start.Add(c.offset)
	if !c.frozen {
		t = t.Add(time.Duration(float64(c.real().Sub(c.realStart)) * c.speed))
	}
	return t.Truncate(time.Millisecond)
}

// Advance moves the clock forward by d (frozen or not).
func (c *Clock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.offset += d
	c.mu.Unlock()
}

// Frozen reports whether the clock stands still.
func (c *Clock) Frozen() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frozen
}

// Speed is the clock's acceleration over real time.
func (c *Clock) Speed() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.speed
}

// Real converts a span of sandbox time into the real time it takes to pass
// (for timers). It is never below a millisecond.
func (c *Clock) Real(d time.Duration) time.Duration {
	r := time.Duration(float64(d) / c.Speed())
	if r < time.Millisecond {
		r = time.Millisecond
	}
	return r
}
