package paging

import (
	"context"
	"fmt"
	"iter"
)

// NumberPage is one page of a list paginated by page number (spec 2.1,
// area A): pages count from 0; Last is true on the final page.
type NumberPage[T any] struct {
	Items      []T
	Last       bool
	TotalPages int
}

// ByPageNumber reads page 0, then pages 1 to TotalPages-1 concurrently (at
// most concurrency at once), yielding records in page order. The list ends
// at the first page that says Last or is empty, whatever the total said:
// the pages after it are not yielded, and no more are fetched (a claimed
// total costs at most concurrency pages it does not bear out). Should the
// page that was to be the last say more pages exist (the list grew), the
// following pages are read one by one until one says Last, or is empty.
func ByPageNumber[T any](ctx context.Context, concurrency int, fetch func(ctx context.Context, page int) (NumberPage[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		first, err := fetch(ctx, 0)
		if !emit(yield, first.Items, err) || first.Last || len(first.Items) == 0 {
			return
		}
		total := min(max(first.TotalPages, 1), MaxPages)
		last, ended := first, false
		fanOut(ctx, concurrency, 1, total, fetch, func(p NumberPage[T], err error) bool {
			last = p
			if !emit(yield, p.Items, err) || p.Last || len(p.Items) == 0 {
				ended = true
				return false
			}
			return true
		})
		if ended {
			return
		}
		for page := total; !last.Last && len(last.Items) > 0; page++ {
			if page >= MaxPages {
				yield(*new(T), fmt.Errorf("paging: more than %d pages", MaxPages))
				return
			}
			last, err = fetch(ctx, page)
			if !emit(yield, last.Items, err) {
				return
			}
		}
	}
}

// OffsetPage is one page of a list paginated by record offset (spec 2.1,
// ledger transactions).
type OffsetPage[T any] struct {
	Items        []T
	Offset       int
	PageElements int
	Total        int
}

// ByOffset reads the page at offset 0, then the pages at pageSize,
// 2*pageSize ... below Total concurrently, yielding records in order. All
// records are read when offset + pageElements >= total (spec 4.3 rule 2).
// The caller keeps the result set stable by fixing the time window of every
// request. A page that comes back empty before Total is reached is an error.
func ByOffset[T any](ctx context.Context, concurrency, pageSize int, fetch func(ctx context.Context, offset int) (OffsetPage[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		if pageSize <= 0 {
			yield(*new(T), fmt.Errorf("paging: page size must be positive, got %d", pageSize))
			return
		}
		first, err := fetch(ctx, 0)
		if !emit(yield, first.Items, err) || max(len(first.Items), first.PageElements) >= first.Total {
			return
		}
		pages := min((first.Total+pageSize-1)/pageSize, MaxPages)
		fanOut(ctx, concurrency, 1, pages, func(ctx context.Context, i int) (OffsetPage[T], error) {
			off := i * pageSize
			p, err := fetch(ctx, off)
			if err == nil && len(p.Items) == 0 && off < first.Total {
				err = fmt.Errorf("paging: empty page at offset %d of %d records", off, first.Total)
			}
			return p, err
		}, func(p OffsetPage[T], err error) bool {
			return emit(yield, p.Items, err)
		})
	}
}

// emit yields err as (zero, err), or else each of items, and reports
// whether the iteration goes on.
func emit[T any](yield func(T, error) bool, items []T, err error) bool {
	if err != nil {
		yield(*new(T), err)
		return false
	}
	for _, v := range items {
		if !yield(v, nil) {
			return false
		}
	}
	return true
}
