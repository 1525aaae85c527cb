package paging

import (
	"context"
	"sync"
)

// fanOut fetches pages from to end-1 with at most concurrency in flight or
// waiting, and hands them to use in page order. It stops when use returns
// false, cancelling the pages in flight, and reports whether every page was
// used. What it holds is bounded by concurrency, not by end: end comes
// from a server's claim (a total), and a page is only set up once a slot
// frees for it.
func fanOut[P any](ctx context.Context, concurrency, from, end int, fetch func(ctx context.Context, page int) (P, error), use func(P, error) bool) bool {
	if concurrency <= 0 {
		concurrency = DefaultConcurrency
	}
	if from >= end {
		return true
	}
	ctx, cancel := context.WithCancel(ctx)

	type result struct {
		p   P
		err error
	}
	slots := make(chan struct{}, concurrency)    // a slot is held until the page is used
	queue := make(chan chan result, concurrency) // the pages launched, in page order
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	wg.Add(1)
	go func() { // launcher
		defer wg.Done()
		defer close(queue)
		for i := from; i < end; i++ {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			ch := make(chan result, 1)
			queue <- ch // never blocks: a page is queued only while it holds a slot
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				p, err := fetch(ctx, i)
				ch <- result{p, err}
			}(i)
		}
	}()
	for range end - from {
		var r result
		ch, ok := <-queue
		if ok {
			select {
			case r = <-ch:
			case <-ctx.Done():
				ok = false
			}
		}
		if !ok { // the launcher stopped: the caller cancelled
			use(*new(P), ctx.Err())
			return false
		}
		if !use(r.p, r.err) || r.err != nil {
			return false // its slot is never freed: nothing more is launched
		}
		<-slots // only now: a page in use still holds its slot
	}
	return true
}
