package paystats

import (
	"slices"
	"sort"
	"time"

	"treasury/desk/live"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// StateHistory is how many payments initiated in a window were in each
// state, counted at every poll of the payments (a QUOTED payment, never
// initiated, by its last change, as the scope counts do), over the store's
// chart history window. Each window has a history of its own: a count is
// taken only while the payments held reach back over the whole window (a
// session watches it), and a time it was not shows as a gap, so that the
// counts of another window are never joined to its line.
type StateHistory struct {
	// States are the states counted so far, in the order first counted
	// (of those first counted together, by name);
	// Counts of a point are parallel to them (a shorter one: zeros).
	States []payments.State
	// Points are one count per bucket of the history (its first), oldest
	// first; Latest is the newest count, the right edge of a chart.
	Points []StatePoint
	Latest StatePoint

	set  *live.PaymentSet // the set Latest was counted from
	edge int              // the index in set of the window's first payment
}

// StatePoint is the counts at one time; Gap marks a time the window was
// not held (nothing was counted).
type StatePoint struct {
	At     time.Time
	Counts []int32
	Gap    bool
}

// Count is the count of st at the point (0 for a state not seen then).
func (h StateHistory) Count(p StatePoint, st payments.State) int {
	i := slices.Index(h.States, st)
	if i < 0 || i >= len(p.Counts) {
		return 0
	}
	return int(p.Counts[i])
}

// Span is the time of the oldest and the newest count, zero without any.
func (h StateHistory) Span() (first, last time.Time) {
	if h.Latest.At.IsZero() {
		return time.Time{}, time.Time{}
	}
	if len(h.Points) > 0 {
		return h.Points[0].At, h.Latest.At
	}
	return h.Latest.At, h.Latest.At
}

// historyBuckets is how many points a history keeps over the store's
// history window (a minute each over a day).
const historyBuckets = 1440

// stateHistoryName names the state history of a window.
type stateHistoryName struct{ win time.Duration }

// StateHistories is the state history of the window win, counted at every
// fetch of the payments once for every session (a timed derivation, on
// the payments interface's clock). Its points are appended, never changed:
// a version shares them with the one before.
//
// It ends with its last watcher, as every derivation does, whether a
// history file keeps the counts (the chart is then drawn from the file:
// InitiatedHistory) or not: without one, the points counted while it was
// watched go with it, and the next watcher's chart starts from its first
// poll. Kept running for nobody, it held an older payment set (the one
// its last count was of) and a point a minute for as long as the process
// ran.
func StateHistories(s *live.Store, win time.Duration) live.Key[StateHistory] {
	span := s.HistoryWindow()
	bucket := max(span/historyBuckets, time.Second)
	return live.DeriveTimed(s, live.PaymentsKey, nil, stateHistoryName{win},
		func(prev StateHistory, in live.Snap[*live.PaymentSet]) (StateHistory, bool) {
			at := s.PlatformTime(apierr.Payments, in.FetchedAt)
			return prev.next(in.Data, at, win, span, bucket)
		})
}

// next is the history with the count at at: the previous point's bucket
// keeps its first count, a new bucket gets one, points older than span
// leave; a set that does not hold the window gives a gap.
func (h StateHistory) next(ps *live.PaymentSet, at time.Time, win, span, bucket time.Duration) (StateHistory, bool) {
	if !at.After(h.Latest.At) {
		return h, false // a fetch no newer than the last count
	}
	since := at.Add(-win)
	held := !ps.Since().IsZero() && !ps.Since().After(since)
	next := h
	next.Latest = StatePoint{At: at, Gap: !held}
	if held {
		edge := sort.Search(ps.Len(), func(i int) bool { return !ps.At(i).When().Before(since) })
		if ps == h.set && edge == h.edge && !h.Latest.Gap {
			next.Latest.Counts = h.Latest.Counts // the same payments: the same counts
		} else {
			next.States = slices.Clip(h.States) // appended to: a copy of its own
			next.Latest.Counts = next.count(ps, edge)
		}
		next.set, next.edge = ps, edge
	}
	last := h.Latest
	if len(h.Points) > 0 {
		last = h.Points[len(h.Points)-1]
	}
	switch {
	case len(h.Points) == 0 || !at.Truncate(bucket).Equal(last.At.Truncate(bucket)):
		if !(next.Latest.Gap && last.Gap && len(h.Points) > 0) { // one gap stands for many
			next.Points = append(h.Points, next.Latest)
		}
	}
	cut := at.Add(-span)
	drop := 0
	for drop < len(next.Points) && (next.Points[drop].At.Before(cut) || next.Points[drop].Gap) {
		drop++ // too old, or a gap before any count
	}
	next.Points = next.Points[drop:]
	return next, true
}

// count counts the payments of ps from index edge per state, adding the
// states not seen before to h.States.
func (h *StateHistory) count(ps *live.PaymentSet, edge int) []int32 {
	by := countFrom(ps, edge)
	var seen []payments.State
	for st, n := range by {
		if n > 0 && !slices.Contains(h.States, st) {
			seen = append(seen, st)
		}
	}
	slices.Sort(seen) // in the order of their names, not of the map's
	h.States = append(h.States, seen...)
	out := make([]int32, len(h.States))
	for i, st := range h.States {
		out[i] = by[st]
	}
	return out
}
