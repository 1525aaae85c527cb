// Package parallel is the one way the project bounds parallel work: an
// errgroup (golang.org/x/sync/errgroup) with a limit. Each runs a call per
// index and waits for them all; InOrder runs calls ahead and hands their
// results back in order, each holding its place in the limit until it is
// used; Group is the errgroup itself, for work of another shape. No other
// package makes its own semaphore (a buffered channel of slots) or starts
// a goroutine per item by hand.
package parallel

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// Group is an errgroup.Group, made by New or WithContext, which set its
// limit.
type Group = errgroup.Group

// New is a Group that runs at most limit functions at once (no bound
// when limit <= 0): Go waits for a place.
func New(limit int) *Group {
	g := new(Group)
	if limit > 0 {
		g.SetLimit(limit)
	}
	return g
}

// WithContext is New with errgroup's context: ended by the first function
// that fails, or when Wait returns.
func WithContext(ctx context.Context, limit int) (*Group, context.Context) {
	g, gctx := errgroup.WithContext(ctx)
	if limit > 0 {
		g.SetLimit(limit)
	}
	return g, gctx
}

// Each calls f(i) for every i in [0, n), at most limit at once (no bound
// when limit <= 0; in line when n is 1), and returns when every call has.
// Each call keeps its own outcome (f writes it at its index).
func Each(n, limit int, f func(i int)) {
	if n == 1 {
		f(0)
		return
	}
	g := New(limit)
	for i := range n {
		g.Go(func() error { f(i); return nil })
	}
	_ = g.Wait() // every outcome is f's to keep
}

// InOrder calls do(ctx, i) for i from from to end-1, at most limit at
// once (no bound when limit <= 0), and hands each result to use in the
// order of i, on the caller's goroutine, as soon as it and those before it
// are done. A call holds its place in the limit until its result is used,
// so what is held is bounded by limit, not by end: end may come from a
// server's claim, and a call is only set up once a place frees for it.
//
// It stops when use returns false, cancelling the context of the calls
// still running and starting no more, and reports whether every result
// was used. When ctx ends first it stops too, and returns ctx's error
// (use is not called for what was not done).
func InOrder[R any](ctx context.Context, limit, from, end int, do func(ctx context.Context, i int) R, use func(R) bool) (bool, error) {
	if from >= end {
		return true, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	type call struct {
		r    R
		ran  bool          // do ran (not skipped for a context ended first)
		done chan struct{} // closed when r is set
		used chan struct{} // closed once use has r: its place frees
	}
	ahead := limit
	if ahead <= 0 {
		ahead = end - from
	}
	g := New(limit)
	queue := make(chan *call, ahead) // the calls started, in order
	launched := make(chan struct{})
	defer func() {
		cancel()
		<-launched
		_ = g.Wait()
	}()
	go func() { // the launcher: Go waits for a place
		defer close(launched)
		defer close(queue)
		for i := from; i < end && ctx.Err() == nil; i++ {
			c := &call{done: make(chan struct{}), used: make(chan struct{})}
			g.Go(func() error {
				if ctx.Err() == nil {
					c.r, c.ran = do(ctx, i), true
				}
				close(c.done)
				select { // the place is held until the result is used
				case <-c.used:
				case <-ctx.Done():
				}
				return nil
			})
			queue <- c // never blocks: a call is queued only while it holds a place
		}
	}()
	for range end - from {
		c, ok := <-queue
		if ok {
			select {
			case <-c.done:
				ok = c.ran
			case <-ctx.Done():
				ok = false
			}
		}
		if !ok { // the caller's context ended (ours ends only at return)
			return false, ctx.Err()
		}
		if !use(c.r) {
			return false, nil // its place is never freed: nothing more starts
		}
		close(c.used)
	}
	return true, nil
}
