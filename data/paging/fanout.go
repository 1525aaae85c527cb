package paging

import (
	"context"
	"sync"
)

// fanOut fetches pages from to end-1 with at most concurrency in flight or
// waiting, and hands them to use in page order. It stops when use returns
// false, cancelling the pages in flight, and reports whether every page was
// used.
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
	slots := make(chan struct{}, concurrency) // a slot is held until the page is used
	results := make([]chan result, end-from)
	for i := range results {
		results[i] = make(chan result, 1)
	}
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	wg.Add(1)
	go func() { // launcher
		defer wg.Done()
		for i := from; i < end; i++ {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				p, err := fetch(ctx, i)
				results[i-from] <- result{p, err}
			}(i)
		}
	}()
	for i := from; i < end; i++ {
		var r result
		select {
		case r = <-results[i-from]:
		case <-ctx.Done():
			use(*new(P), ctx.Err())
			return false
		}
		<-slots
		if !use(r.p, r.err) || r.err != nil {
			return false
		}
	}
	return true
}
