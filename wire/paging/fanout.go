package paging

import (
	"context"

	"treasury/kit/parallel"
)

// fanOut fetches pages from to end-1 with at most concurrency in flight or
// waiting, and hands them to use in page order. It stops when use returns
// false, cancelling the pages in flight, and reports whether every page was
// used; when the caller's context ends first, use is told (a zero page and
// the context's error). What it holds is bounded by concurrency, not by
// end: end comes from a server's claim (a total), and a page is only set
// up once a slot frees for it (parallel.InOrder).
func fanOut[P any](ctx context.Context, concurrency, from, end int, fetch func(ctx context.Context, page int) (P, error), use func(P, error) bool) bool {
	if concurrency <= 0 {
		concurrency = DefaultConcurrency
	}
	type result struct {
		p   P
		err error
	}
	all, err := parallel.InOrder(ctx, concurrency, from, end, func(ctx context.Context, page int) result {
		p, err := fetch(ctx, page)
		return result{p, err}
	}, func(r result) bool {
		return use(r.p, r.err) && r.err == nil // a failed page ends it
	})
	if err != nil {
		use(*new(P), err)
	}
	return all
}
