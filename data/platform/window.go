package platform

import (
	"context"
	"slices"
	"sync"
	"time"

	"treasury/data/liquidity"
	"treasury/data/live"
)

// windowOverlap is how far before the newest record held a poll reads
// again, so a record published late within the last poll's second is not
// missed.
const windowOverlap = 5 * time.Second

// windowFeed keeps the records of a moving time window (the quotes of the
// last 30 minutes, the trades of the last 24 hours) by reading, at each
// poll, only what is new since the newest record held: a 2 s poll of a
// window would otherwise read the whole window every time. The first poll
// reads the last first of it only, so the first frame comes quickly; the
// next one also reads the older part (the backfill).
type windowFeed[E any] struct {
	read   func(ctx context.Context, w liquidity.Window) ([]E, error)
	at     func(E) time.Time
	id     func(E) string
	now    func() time.Time
	window time.Duration
	first  time.Duration
	max    int // bound on the records held, whatever the rate

	mu     sync.Mutex
	newest time.Time
	filled time.Time // the oldest time the records held reach back to
}

func (f *windowFeed[E]) fetch(ctx context.Context) ([]E, error) {
	now := f.now()
	f.mu.Lock()
	start := now.Add(-f.window)
	since, filled := start, f.filled
	switch {
	case filled.IsZero():
		since = now.Add(-min(f.first, f.window))
	case f.newest.Add(-windowOverlap).After(since):
		since = f.newest.Add(-windowOverlap)
	}
	f.mu.Unlock()
	got, err := f.read(ctx, liquidity.Window{Start: since, End: now})
	if err != nil {
		return nil, err
	}
	if !filled.IsZero() && filled.After(start) {
		older, err := f.read(ctx, liquidity.Window{Start: start, End: filled})
		if err != nil {
			return nil, err
		}
		got = append(got, older...)
		since = start
	}
	f.mu.Lock()
	if f.filled.IsZero() || since.Before(f.filled) {
		f.filled = since
	}
	for _, x := range got {
		if f.at(x).After(f.newest) {
			f.newest = f.at(x)
		}
	}
	f.mu.Unlock()
	return got, nil
}

// fold merges fetched records into the held ones by id, newest first, and
// drops those older than the window: the changes are the records added and
// the records gone (a record read again unchanged is no change).
func (f *windowFeed[E]) fold(old []E, fresh []E, at time.Time) ([]E, live.Changes) {
	var ch live.Changes
	held := make(map[string]struct{}, len(old))
	for _, x := range old {
		held[f.id(x)] = struct{}{}
	}
	cut := at.Add(-f.window)
	seen := make(map[string]struct{}, len(fresh))
	var added []E
	for _, x := range fresh {
		k := f.id(x)
		if _, dup := seen[k]; dup || f.at(x).Before(cut) {
			continue
		}
		seen[k] = struct{}{}
		if _, ok := held[k]; !ok {
			added = append(added, x)
			ch.Added = append(ch.Added, k)
		}
	}
	out := make([]E, 0, len(old)+len(added))
	out = append(out, added...)
	for _, x := range old {
		if f.at(x).Before(cut) {
			ch.Removed = append(ch.Removed, f.id(x))
			continue
		}
		out = append(out, x)
	}
	if ch.Empty() {
		return old, ch
	}
	slices.SortStableFunc(out, func(a, b E) int { return f.at(b).Compare(f.at(a)) })
	if len(out) > f.max {
		for _, x := range out[f.max:] {
			ch.Removed = append(ch.Removed, f.id(x))
		}
		out = out[:f.max:f.max]
	}
	return out, ch
}
