package platform

import (
	"context"
	"slices"
	"sync"
	"time"

	"treasury/data/liquidity"
	"treasury/data/live"
)

// quoteOverlap is how far before the newest quote held a poll reads again,
// so a quote published late within the last poll's second is not missed.
const quoteOverlap = 5 * time.Second

// maxQuotes bounds the quotes held whatever the publishing rate.
const maxQuotes = 20_000

// QuoteFirstWindow is what the first poll reads, so the first frame comes
// quickly; the second poll reads the rest of QuoteWindow.
const QuoteFirstWindow = 5 * time.Minute

// quoteFeed polls only the quotes published since the last poll and folds
// them into the window held: a 2 s poll of a 30 minute window would
// otherwise read the whole window every time. The first poll reads the
// last QuoteFirstWindow only; the next one also reads the older part of
// the window (the backfill).
type quoteFeed struct {
	c      *liquidity.Client
	now    func() time.Time
	window time.Duration

	mu     sync.Mutex
	newest time.Time
	// filled is the oldest time the quotes held reach back to; zero
	// before the first poll.
	filled time.Time
}

func (q *quoteFeed) fetch(ctx context.Context) (any, error) {
	now := q.now()
	q.mu.Lock()
	start := now.Add(-q.window)
	since, filled := start, q.filled
	switch {
	case filled.IsZero():
		since = now.Add(-min(QuoteFirstWindow, q.window))
	case q.newest.Add(-quoteOverlap).After(since):
		since = q.newest.Add(-quoteOverlap)
	}
	q.mu.Unlock()
	got, err := q.c.AllQuotes(ctx, liquidity.Window{Start: since, End: now})
	if err != nil {
		return nil, err
	}
	if !filled.IsZero() && filled.After(start) {
		older, err := q.c.AllQuotes(ctx, liquidity.Window{Start: start, End: filled})
		if err != nil {
			return nil, err
		}
		got = append(got, older...)
		since = start
	}
	q.mu.Lock()
	if q.filled.IsZero() || since.Before(q.filled) {
		q.filled = since
	}
	for _, x := range got {
		if x.CreatedAt.After(q.newest) {
			q.newest = x.CreatedAt
		}
	}
	q.mu.Unlock()
	return got, nil
}

// reduce merges fetched quotes into the held ones by quote id, newest
// first, and drops those older than the window.
func (q *quoteFeed) reduce(prev, fetched any, at time.Time) any {
	old, _ := prev.([]liquidity.Quote)
	fresh := fetched.([]liquidity.Quote)
	seen := make(map[string]struct{}, len(fresh))
	out := make([]liquidity.Quote, 0, len(old)+len(fresh))
	for _, x := range fresh {
		if _, dup := seen[x.QuoteID]; !dup {
			seen[x.QuoteID] = struct{}{}
			out = append(out, x)
		}
	}
	cut := at.Add(-q.window)
	for _, x := range old {
		if _, dup := seen[x.QuoteID]; dup || x.CreatedAt.Before(cut) {
			continue
		}
		out = append(out, x)
	}
	slices.SortStableFunc(out, func(a, b liquidity.Quote) int { return b.CreatedAt.Compare(a.CreatedAt) })
	if len(out) > maxQuotes {
		out = out[:maxQuotes]
	}
	return out
}

// quoteSamples charts each pair's mid rate at every quote fetched (not
// the whole window held, again at each poll).
func quoteSamples(fetched, _ any) []live.Sample {
	qs := fetched.([]liquidity.Quote)
	out := make([]live.Sample, 0, len(qs))
	for i := len(qs) - 1; i >= 0; i-- { // oldest first
		x := qs[i]
		f, _ := x.Mid().Float64()
		out = append(out, live.Sample{Series: live.SeriesRate + x.Pair(), At: x.CreatedAt, Value: f})
	}
	return out
}
