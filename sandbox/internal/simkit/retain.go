package simkit

import "time"

// PruneEvery is how often, in sandbox time, a simulator drops what it no
// longer keeps.
const PruneEvery = time.Hour

// KeepFrom is the time from which a simulator keeps its settled records at
// t, and whether it prunes at all: retain back from t when positive;
// when zero, the first instant of the month two months before t (the span
// the reports cover, spec area C: the previous two months and the month
// to date); never when negative.
func KeepFrom(retain time.Duration, t time.Time) (time.Time, bool) {
	switch {
	case retain < 0:
		return time.Time{}, false
	case retain == 0:
		y, m, _ := t.UTC().Date()
		return time.Date(y, m-2, 1, 0, 0, 0, 0, time.UTC), true
	}
	return t.Add(-retain), true
}
