package liquidity

import "time"

// Window is a time window, both ends inclusive; a zero end is open.
type Window struct {
	Start, End time.Time
}

// Last returns the window of the d before now.
func Last(d time.Duration, now time.Time) Window { return Window{Start: now.Add(-d), End: now} }

// Contains reports whether t is inside the window.
func (w Window) Contains(t time.Time) bool {
	return (w.Start.IsZero() || !t.Before(w.Start)) && (w.End.IsZero() || !t.After(w.End))
}
