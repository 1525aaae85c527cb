package live

import (
	"context"
)

// A feed's fetch may publish what it has read before it ends: the newest
// page of a window read is shown at once, not after the pages behind it
// (and their retries) are read too.

type commitKey struct{}

// Commit folds part of what a feed's fetch is reading (of the fetch's type
// F: what the feed's fold takes) into its topic at once, as a fetch's
// answer is folded, and publishes it. What was committed is not to be
// returned again by the fetch. It reports false, and does nothing, outside
// a fetch of the store (a test calling the fetch directly).
func Commit[F any](ctx context.Context, part F) bool {
	c, _ := ctx.Value(commitKey{}).(func(any))
	if c == nil {
		return false
	}
	c(part)
	return true
}

// withCommit is the context of one fetch of p, through which it may
// commit parts of its answer.
func (s *Store) withCommit(ctx context.Context, p *poller) context.Context {
	f := p.feed
	return context.WithValue(ctx, commitKey{}, func(part any) {
		at := s.now()
		// Held here before it is published: a whole asked for between the
		// two (its sequence after this part's) must hold the part, or a
		// follower that takes that whole lacks it for good.
		s.update(f.Topic, part, at, ownRead, func(snap *Snapshot) {
			snap.Interval = s.onClock(f.Interval)
			if snap.NextTry.Before(at) {
				snap.NextTry = at.Add(s.onClock(f.Interval))
			}
		})
		s.publish(p, Polled{Part: true, At: at}, part)
	})
}
