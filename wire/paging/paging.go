// Package paging reads every page of a list in the four pagination styles
// of spec 2.1, as iterators of records (iter.Seq2[T, error]): by page
// number (liquidity), by a token in the query (identities, financial
// instruments), by a token in the body (payment search) and by record
// offset (ledger transactions).
//
// The offset styles know the size of the list after the first page, so
// they fetch the rest concurrently, with a bound, and still yield records in
// order; at most Concurrency pages are in flight or waiting to be yielded.
// The token styles are sequential by nature: a token that repeats is an
// error, never an endless loop. Stopping the iteration early cancels the
// pages in flight.
//
// An error is yielded once, as (zero, err), and ends the iteration.
package paging

import (
	"context"
	"errors"
	"fmt"
	"iter"
)

// DefaultConcurrency bounds the pages fetched at once when a caller gives
// no bound.
const DefaultConcurrency = 4

// MaxPages stops a list that never ends (a server that keeps saying "more").
const MaxPages = 100_000

// Clamp returns size, or def when size is not positive, or max when size is
// above it: a page size above the maximum is an invalid request (spec 4.3).
func Clamp(size, def, max int) int {
	switch {
	case size <= 0:
		return def
	case size > max:
		return max
	}
	return size
}

// Collect gathers every record of seq, or the first error.
func Collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// ErrRepeatedToken is returned when a server hands back a page token it
// gave before.
var ErrRepeatedToken = errors.New("paging: the server repeated a page token")

// TokenPage is one page of a token-paginated list; Next is empty on the last
// page.
type TokenPage[T any] struct {
	Items []T
	Next  string
}

// ByQueryToken reads a list paginated by a token in the query (limit,
// next-token -> nextToken). fetch gets "" for the first page.
func ByQueryToken[T any](ctx context.Context, fetch func(ctx context.Context, token string) (TokenPage[T], error)) iter.Seq2[T, error] {
	return byToken(ctx, fetch)
}

// ByBodyToken reads a list paginated by a token in the request body
// (page.size, page.lastPageToken). fetch gets "" for the first page.
func ByBodyToken[T any](ctx context.Context, fetch func(ctx context.Context, token string) (TokenPage[T], error)) iter.Seq2[T, error] {
	return byToken(ctx, fetch)
}

func byToken[T any](ctx context.Context, fetch func(ctx context.Context, token string) (TokenPage[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		seen := map[string]bool{}
		token := ""
		for page := 0; ; page++ {
			if page >= MaxPages {
				yield(zero, fmt.Errorf("paging: more than %d pages", MaxPages))
				return
			}
			if err := ctx.Err(); err != nil {
				yield(zero, err)
				return
			}
			p, err := fetch(ctx, token)
			if !emit(yield, p.Items, err) || p.Next == "" {
				return
			}
			if seen[p.Next] {
				yield(zero, fmt.Errorf("%w after page %d", ErrRepeatedToken, page+1))
				return
			}
			seen[p.Next] = true
			token = p.Next
		}
	}
}
