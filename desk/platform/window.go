package platform

import (
	"context"
	"encoding/json"
	"iter"
	"slices"
	"sync"
	"time"

	"treasury/desk/live"
	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/liquidity"
)

// windowOverlap is how far before the newest record held a poll reads
// again, so a record published late within the last poll's second is not
// missed.
const windowOverlap = 5 * time.Second

// Budgets of one poll of a window (see windowFeed).
const (
	// freshBudget bounds the fresh read in poll intervals: a page that
	// keeps failing costs at most this, not every retry of the backoff;
	// the next poll reads it again.
	freshBudget = 3
	// backfillShare bounds the backfill of one poll, in poll intervals
	// divided by it: the backfill must not hold back the next poll's
	// fresh read; what it did not reach is read at the next poll.
	backfillShare = 2
	// commitIdle is how long a read waits for its next record before it
	// shows what it has read (a page has come and the next is on its
	// way, or being retried): a page's records come together, so a few
	// milliseconds tell; the first quote row of a start waited 15.
	commitIdle = 5 * time.Millisecond
	// freshAhead is how far past the platform's estimated now the fresh
	// read asks for records.
	freshAhead = time.Minute
)

// windowFeed keeps the records of a moving time window (the quotes of the
// last 30 minutes, the trades of the last 24 hours) by reading, at each
// poll, only what is new since the newest record held: a 2 s poll of a
// window would otherwise read the whole window every time.
//
// Each poll reads, newest first:
//  1. the fresh part, from the newest record held (less the overlap) to
//     now, within freshBudget poll intervals;
//  2. then, from the second poll on, the gaps, newest first, within
//     backfillBudget: the rest of the window (the first poll reads only
//     the last `first` of it, so the first frame comes quickly), and any
//     range a read could not finish.
//
// What a read gets is shown as it comes (live.Commit), page by page, the
// newest first: the newest quotes do not wait for the pages behind them,
// their retries, or the backfill. What a read got is kept even when a
// later page of it fails: a failed page costs the range it covered (a
// gap, read again at the next poll), not the poll. A poll that read something but not all of it is partial:
// the ranges still missing are named (live.Snapshot.Partial, and the
// errors view through the failures), with their times.
type windowFeed[E any] struct {
	read     func(ctx context.Context, w liquidity.Window) iter.Seq2[E, error]
	at       func(E) time.Time
	id       func(E) string
	now      func() time.Time // the platform's clock
	seen     func(time.Time)  // told the newest record time of each read
	what     string           // the records' name ("quotes")
	window   time.Duration
	first    time.Duration
	interval time.Duration // the poll's; zero means 2 s
	// backfill bounds the backfill of one poll; zero means the interval
	// divided by backfillShare.
	backfill time.Duration
	max      int // bound on the records held, whatever the rate
	// expires, when set, is a record's expiry: a fold says a record
	// changed when its expiry passed since the last fold (on the
	// platform's clock), so what shows its status shows it expired.
	expires func(E) time.Time
	// status, when set, is a record's status: a record read again in
	// another status replaces the one held (a trade settled since).
	status func(E) string

	mu     sync.Mutex
	newest time.Time
	// started says the first poll happened (the gaps then hold what is
	// left of the window).
	started bool
	// gaps are the ranges of the window not read yet, newest first.
	gaps []liquidity.Window
	// folded is the platform's time of the last fold.
	folded time.Time
	// last is where the last finished read left the feed (cursor.go).
	last json.RawMessage
}

// whole reports whether the reads so far hold the whole window: the
// first poll happened and no range is left to read.
func (f *windowFeed[E]) whole() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.started && len(f.gaps) == 0
}

// rangeFailure is a range a poll could not read.
type rangeFailure struct {
	w   liquidity.Window
	err error
}

func (f *windowFeed[E]) budget(n int) time.Duration {
	iv := f.interval
	if iv <= 0 {
		iv = 2 * time.Second
	}
	return time.Duration(n) * iv
}

func (f *windowFeed[E]) fetch(ctx context.Context) ([]E, error) {
	now := f.now()
	start := now.Add(-f.window)
	f.mu.Lock()
	since, backfill := start, f.started
	switch {
	case !f.started:
		since = now.Add(-min(f.first, f.window))
	case f.newest.Add(-windowOverlap).After(since):
		since = f.newest.Add(-windowOverlap)
	}
	gaps := trimGaps(f.gaps, start)
	if !f.started && since.After(start) {
		gaps = append(gaps, liquidity.Window{Start: start, End: since})
	}
	f.mu.Unlock()

	var got []E // read and not committed (outside a store's fetch)
	var failed []rangeFailure
	var left []liquidity.Window
	read := 0
	keep := func(batch []E) {
		read += len(batch)
		f.mu.Lock()
		for _, x := range batch {
			if f.at(x).After(f.newest) {
				f.newest = f.at(x)
			}
		}
		newest := f.newest
		f.mu.Unlock()
		if f.seen != nil && !newest.IsZero() {
			f.seen(newest)
		}
		if !live.Commit(ctx, batch) {
			got = append(got, batch...)
		}
	}
	readRange := func(budget time.Duration, w liquidity.Window, fresh bool) {
		rctx, cancel := context.WithTimeout(ctx, budget)
		oldest, err := stream(rctx, f.read(rctx, w), f.at, keep)
		cut := err != nil && rctx.Err() != nil && ctx.Err() == nil
		cancel()
		if err == nil {
			return
		}
		_, platform := apierr.As(err)
		// Newest first: what was read reaches down to its oldest record;
		// the rest of the range is left for the next poll.
		rest := w
		if !oldest.IsZero() {
			rest.End = oldest.Add(time.Millisecond)
		}
		if !rest.End.After(rest.Start) {
			return
		}
		left = append(left, rest)
		if cut && !platform && !fresh {
			return // the backfill's share of the poll ran out, nothing failed
		}
		failed = append(failed, rangeFailure{w: rest, err: err})
	}
	// The fresh read reaches past the estimated clock: a record stamped
	// ahead of it (a clock estimate that lags, a server ahead) is read
	// and kept, never left for a later poll or dropped.
	end := now.Add(freshAhead)
	readRange(f.budget(freshBudget), liquidity.Window{Start: since, End: end}, true)
	// The backfill, behind the fresh read (from the second poll on, so
	// the first frame comes quickly), while its budget lasts.
	share := f.backfill
	if share <= 0 {
		share = f.budget(1) / backfillShare
	}
	deadline := time.Now().Add(share)
	for i, g := range gaps {
		if !backfill || ctx.Err() != nil || !time.Now().Before(deadline) {
			left = append(left, gaps[i:]...)
			break
		}
		readRange(time.Until(deadline), g, false)
	}

	f.mu.Lock()
	f.started = true
	f.gaps = mergeGaps(left)
	f.finishedLocked()
	f.mu.Unlock()
	if got == nil {
		got = []E{}
	}
	switch {
	case len(failed) == 0:
		return got, nil
	case read == 0 && failed[0].w.End.Equal(end):
		return nil, failed[0].err // the fresh read got nothing: the poll failed
	}
	part := &wire.Partial{What: f.what + " of the window", Of: len(failed) + 1}
	for _, rf := range failed {
		part.Failed = append(part.Failed, wire.Failure{Name: rangeName(rf.w), Err: rf.err})
	}
	return got, part
}

// stream reads seq to its end or first error, handing keep what it read
// in batches: whenever the next record is slow to come (the next page is
// on its way), what came before is kept, so a page shows before the one
// after it is read. It returns the oldest record time read (records come
// newest first) and the error that ended the read.
func stream[E any](ctx context.Context, seq iter.Seq2[E, error], at func(E) time.Time, keep func([]E)) (time.Time, error) {
	type item struct {
		x   E
		err error
	}
	items := make(chan item, 64)
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(items)
		for x, err := range seq {
			select {
			case items <- item{x, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	var batch []E
	var oldest time.Time
	flush := func() {
		if len(batch) > 0 {
			oldest = at(batch[len(batch)-1])
			keep(batch)
			batch = nil
		}
	}
	idle := time.NewTimer(commitIdle)
	defer idle.Stop()
	for {
		select {
		case it, ok := <-items:
			if !ok {
				flush()
				return oldest, nil
			}
			if it.err != nil {
				flush()
				return oldest, it.err
			}
			batch = append(batch, it.x)
			idle.Reset(commitIdle)
		case <-idle.C:
			flush()
		case <-ctx.Done():
			// The read ends with its context (seq says so with its error,
			// which may still be on its way): what came is kept.
			flush()
			for it := range items {
				if it.err != nil {
					return oldest, it.err
				}
				batch = append(batch, it.x)
			}
			flush()
			return oldest, ctx.Err()
		}
	}
}

// rangeName names a range of time for a person: "10:02:05–10:07:00 UTC",
// with the date when it spans days.
func rangeName(w liquidity.Window) string {
	layout := "15:04:05"
	if w.Start.UTC().YearDay() != w.End.UTC().YearDay() {
		layout = "2006-01-02 15:04:05"
	}
	return w.Start.UTC().Format(layout) + "–" + w.End.UTC().Format(layout) + " UTC"
}

// trimGaps drops the parts of gaps older than start.
func trimGaps(gaps []liquidity.Window, start time.Time) []liquidity.Window {
	out := make([]liquidity.Window, 0, len(gaps))
	for _, g := range gaps {
		if !g.End.After(start) {
			continue
		}
		if g.Start.Before(start) {
			g.Start = start
		}
		out = append(out, g)
	}
	return out
}

// mergeGaps orders gaps newest first and joins those that overlap.
func mergeGaps(gaps []liquidity.Window) []liquidity.Window {
	if len(gaps) == 0 {
		return nil
	}
	gs := slices.Clone(gaps)
	slices.SortFunc(gs, func(a, b liquidity.Window) int { return b.End.Compare(a.End) })
	out := gs[:1]
	for _, g := range gs[1:] {
		last := &out[len(out)-1]
		if !g.End.Before(last.Start) {
			if g.Start.Before(last.Start) {
				last.Start = g.Start
			}
			continue
		}
		out = append(out, g)
	}
	return out
}

// fold merges fetched records into the held ones by id, newest first, and
// drops those older than the window: the changes are the records added,
// the records gone, the records read again in another status (a record
// read again unchanged is no change) and, with
// expires, the records whose expiry passed since the last fold. A record
// stamped ahead of the platform's clock is kept (the window is cut at its
// start only).
func (f *windowFeed[E]) fold(old []E, fresh []E, at time.Time) ([]E, live.Changes) {
	var ch live.Changes
	held := make(map[string]int, len(old))
	for i, x := range old {
		held[f.id(x)] = i
	}
	var moved map[string]E // held records read again in another status
	cut := f.now().Add(-f.window)
	seen := make(map[string]struct{}, len(fresh))
	var added []E
	for _, x := range fresh {
		k := f.id(x)
		if _, dup := seen[k]; dup || f.at(x).Before(cut) {
			continue
		}
		seen[k] = struct{}{}
		i, ok := held[k]
		switch {
		case !ok:
			added = append(added, x)
			ch.Added = append(ch.Added, k)
		case f.status != nil && f.status(old[i]) != f.status(x):
			if moved == nil {
				moved = map[string]E{}
			}
			moved[k] = x
			ch.Changed = append(ch.Changed, k)
		}
	}
	now := f.now()
	f.mu.Lock()
	last := f.folded
	f.folded = now
	f.mu.Unlock()
	out := make([]E, 0, len(old)+len(added))
	out = append(out, added...)
	for _, x := range old {
		if f.at(x).Before(cut) {
			ch.Removed = append(ch.Removed, f.id(x))
			continue
		}
		if y, ok := moved[f.id(x)]; ok {
			out = append(out, y)
			continue
		}
		if f.expires != nil && !last.IsZero() {
			if e := f.expires(x); e.After(last) && !e.After(now) {
				ch.Changed = append(ch.Changed, f.id(x)) // expired since the last fold
			}
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
