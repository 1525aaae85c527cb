package platform

import (
	"context"
	"sync"
	"time"

	"treasury/desk/live"
	"treasury/kit/parallel"
	"treasury/wire/payments"
)

// A view that asks for a wider window than the set holds (:payments all
// 90d over 100,000 payments: a thousand pages) has the part not held read
// in olderSlices spans of time at once (the filter's paging is one page
// after another: alone, a span is read no faster than the platform
// answers and the records decode one page at a time), and what is read is
// shown as it comes, newest first: each part is committed to the set
// (live.Commit) once every span newer than it is read, the set saying it
// holds back to the oldest payment so committed (never further than it
// does), so the scope fills in from the top while the older pages come.

// Bounds of the older read.
const (
	// olderSlices is how many spans of the part not held are read at
	// once.
	olderSlices = 4
	// olderCommit is how long read payments wait before they are shown,
	// and olderBatch how many make a part shown at once: a part is a fold
	// of the set and a build of what is made from it, for every session.
	olderCommit = 300 * time.Millisecond
	olderBatch  = 5000
)

// readOlder reads the payments initiated in [from, to), newest first,
// committing them in parts as they come; it returns what it could not
// commit (outside a store's fetch: all of it). now is the read's time and
// held the window the set holds before it.
func (f *paymentFeed) readOlder(ctx context.Context, from, to, now time.Time) ([]payments.Payment, error) {
	span := to.Sub(from) / olderSlices
	type slice struct {
		mu   sync.Mutex
		got  []payments.Payment
		done bool
	}
	slices := make([]*slice, olderSlices)
	for i := range slices {
		slices[i] = &slice{}
	}
	wake := make(chan struct{}, 1)
	g, gctx := parallel.WithContext(ctx, olderSlices)
	for i := range olderSlices {
		hi := to.Add(-time.Duration(i) * span)
		lo := hi.Add(-span)
		if i == olderSlices-1 {
			lo = from
		}
		s := slices[i]
		g.Go(func() error {
			defer func() {
				s.mu.Lock()
				s.done = true
				s.mu.Unlock()
				notify(wake)
			}()
			for p, err := range f.c.Filter(gctx, payments.Filter{AfterTimestamp: &lo, BeforeTimestamp: &hi}) {
				if err != nil {
					return err
				}
				s.mu.Lock()
				s.got = append(s.got, p)
				s.mu.Unlock()
				notify(wake)
			}
			return nil
		})
	}
	failed := make(chan error, 1)
	go func() { failed <- g.Wait() }()

	// The committer: the newest span's payments as they come, each older
	// span's once the ones before it are read whole.
	var left []payments.Payment // read, not committed
	oldest := to                // the set holds back to here once committed
	cur, last := 0, time.Now()
	tick := time.NewTicker(olderCommit / 3)
	defer tick.Stop()
	commit := func(force bool) {
		for cur < olderSlices {
			s := slices[cur]
			s.mu.Lock()
			left = append(left, s.got...)
			s.got = s.got[:0]
			done := s.done
			s.mu.Unlock()
			if !done {
				break
			}
			cur++
		}
		for _, p := range left {
			if w := p.When(); w.Before(oldest) {
				oldest = w
			}
		}
		if cur == olderSlices {
			oldest = from // every span read: the set holds from the window's start
		}
		if len(left) == 0 || !force && len(left) < olderBatch && time.Since(last) < olderCommit {
			return
		}
		part := paymentRead{Payments: left, ReadAt: now, Held: now.Sub(oldest)}
		if live.Commit(ctx, part) {
			left, last = nil, time.Now()
		}
	}
	for {
		select {
		case <-wake:
			commit(false)
		case <-tick.C:
			commit(false)
		case err := <-failed:
			commit(err == nil)
			if err != nil {
				return nil, err
			}
			return left, nil
		}
	}
}

// notify wakes whoever waits on c, once however many times it is called
// before they do.
func notify(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
