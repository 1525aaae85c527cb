package liquidity

import (
	"context"
	"iter"
	"net/url"
	"strconv"
	"time"

	"treasury/data/paging"
	"treasury/data/transport"
)

// Client reads quotes, trades and balances, every page of a window.
//
// Choices of the client where the spec is silent:
//   - a window with no end is closed at the client's clock (Options.Now;
//     in sandbox mode pass the sandbox clock) when the read starts, so the
//     concurrent pages after page 0 all see one stable set although new
//     quotes keep arriving; a window with no start sends no startTime (the
//     interface's whole history);
//   - times are sent as RFC 3339 UTC with milliseconds;
//   - pages are MaxPageSize records (the largest the interface accepts),
//     Options.Concurrency (default 4) fetched at once after page 0.
type Client struct {
	t    *transport.Client
	opts Options
}

// Options tune a Client; the zero value is the default.
type Options struct {
	// PageSize is clamped to 1..MaxPageSize; zero means MaxPageSize.
	PageSize int
	// Concurrency bounds the pages fetched at once; zero means
	// paging.DefaultConcurrency, 1 reads page by page.
	Concurrency int
	// Now closes open windows; nil means time.Now.
	Now func() time.Time
}

// New returns a client that sends through t (an apierr.Liquidity transport
// with the profile's static bearer token).
func New(t *transport.Client, opts Options) *Client {
	opts.PageSize = paging.Clamp(opts.PageSize, MaxPageSize, MaxPageSize)
	if opts.Concurrency <= 0 {
		opts.Concurrency = paging.DefaultConcurrency
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Client{t: t, opts: opts}
}

// Window is a time window, both ends inclusive; a zero end is open.
type Window struct {
	Start, End time.Time
}

// Last returns the window of the d before now.
func Last(d time.Duration, now time.Time) Window { return Window{Start: now.Add(-d), End: now} }

const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// windowQuery is the query of one page of a window.
func windowQuery(w Window, page, size int) url.Values {
	q := url.Values{}
	if !w.Start.IsZero() {
		q.Set("startTime", w.Start.UTC().Format(timeLayout))
	}
	if !w.End.IsZero() {
		q.Set("endTime", w.End.UTC().Format(timeLayout))
	}
	q.Set("pageSize", strconv.Itoa(size))
	q.Set("pageNumber", strconv.Itoa(page))
	return q
}

// fixed closes an open window at the client's clock.
func (c *Client) fixed(w Window) Window {
	if w.End.IsZero() {
		w.End = c.opts.Now()
	}
	return w
}

// QuotesPage reads one page of quotes, newest first.
func (c *Client) QuotesPage(ctx context.Context, w Window, page, size int) (QuotesPage, error) {
	return transport.Get[QuotesPage](ctx, c.t, PathQuotes, windowQuery(w, page, paging.Clamp(size, DefaultPageSize, MaxPageSize)))
}

// Quotes reads every quote of the window, newest first.
func (c *Client) Quotes(ctx context.Context, w Window) iter.Seq2[Quote, error] {
	return pages(ctx, c, PathQuotes, w, func(p QuotesPage) ([]Quote, PageInfo) { return p.Quotes, p.PageInfo })
}

// Trades reads every trade executed in the window.
func (c *Client) Trades(ctx context.Context, w Window) iter.Seq2[Trade, error] {
	return pages(ctx, c, PathTrades, w, func(p TradesPage) ([]Trade, PageInfo) { return p.Trades, p.PageInfo })
}

// Balances reads every balance (as of the window's end, now when open).
func (c *Client) Balances(ctx context.Context, w Window) iter.Seq2[Balance, error] {
	return pages(ctx, c, PathBalances, w, func(p BalancesPage) ([]Balance, PageInfo) { return p.Balances, p.PageInfo })
}

// pages reads every page of path in the window, closed first at the
// client's clock; items takes a decoded page apart.
func pages[P, T any](ctx context.Context, c *Client, path string, w Window, items func(P) ([]T, PageInfo)) iter.Seq2[T, error] {
	w = c.fixed(w)
	return paging.ByPageNumber(ctx, c.opts.Concurrency, func(ctx context.Context, n int) (paging.NumberPage[T], error) {
		p, err := transport.Get[P](ctx, c.t, path, windowQuery(w, n, c.opts.PageSize))
		its, info := items(p)
		return paging.NumberPage[T]{Items: its, Last: info.Last, TotalPages: info.TotalPages}, err
	})
}

// AllQuotes collects Quotes.
func (c *Client) AllQuotes(ctx context.Context, w Window) ([]Quote, error) {
	return paging.Collect(c.Quotes(ctx, w))
}

// AllTrades collects Trades.
func (c *Client) AllTrades(ctx context.Context, w Window) ([]Trade, error) {
	return paging.Collect(c.Trades(ctx, w))
}

// AllBalances collects Balances.
func (c *Client) AllBalances(ctx context.Context, w Window) ([]Balance, error) {
	return paging.Collect(c.Balances(ctx, w))
}
