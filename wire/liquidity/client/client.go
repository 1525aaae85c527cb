// Package client reads the liquidity interface (spec area A): quotes,
// trades and balances under /api/v0, with page-number pagination, pages
// read in parallel and page sizes learnt from the server. The wire
// records are those of package liquidity, which the sandbox and the views
// use without a client.
package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"treasury/kit/intern"
	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/liquidity"
	"treasury/wire/paging"
	"treasury/wire/transport"
)

// Client reads quotes, trades and balances, every page of a window.
//
// Choices of the client where the spec is silent:
//   - a window with no end is closed at the client's clock (Options.Now;
//     in sandbox mode pass the sandbox clock) when the read starts, so the
//     concurrent pages after page 0 all see one stable set although new
//     quotes keep arriving; a window with no start sends no startTime;
//   - times are sent as RFC 3339 UTC with milliseconds;
//   - pages start at StartPageSize (or Options.PageSize, the profile's
//     page_size) and are halved on a 400 that names the page size, the
//     size that worked remembered per list for the life of the client;
//     Options.Concurrency (default 4) pages are fetched at once after page 0;
//   - only the query parameters the spec documents are sent where it
//     documents them: quotes take startTime and endTime (4.1); balances get
//     none beyond the page; trades get the window too (the spec shows only
//     the paging of /trades), a server that refuses it with a 400 naming it
//     is asked again without, and trades are kept to the window locally
//     whatever the server did.
type Client struct {
	t     *transport.Client
	opts  Options
	sizes paging.Sizes
	// noTradeWindow is set once a server refused the trades window.
	noTradeWindow atomic.Bool
	// keepRaw: the quotes read keep the JSON they came as (KeepRaw);
	// texts are their repeated texts, held once.
	keepRaw atomic.Bool
	texts   *intern.Table
}

// KeepRaw has each quote read from now on keep the JSON it came as
// (wire.Raw: `treasury get -o json` prints it). A process that holds the
// quotes of a window (the dashboard's store: some 20,000) does not: the
// raw view reads a quote again when asked (QuoteJSON).
func (c *Client) KeepRaw() { c.keepRaw.Store(true) }

// held makes quotes read what the client hands on: their repeated texts
// shared, the JSON as received dropped unless kept.
func (c *Client) held(qs []liquidity.Quote) {
	for i := range qs {
		q := &qs[i]
		q.BaseAsset, q.QuoteAsset, q.Side, q.Status = c.texts.Of(q.BaseAsset), c.texts.Of(q.QuoteAsset), c.texts.Of(q.Side), c.texts.Of(q.Status)
		if !c.keepRaw.Load() {
			q.SetRaw(nil)
		}
	}
}

// QuoteJSON reads quote id, created at at, again as the server sends it:
// the quotes of the millisecond it was created, that one's JSON.
func (c *Client) QuoteJSON(ctx context.Context, id string, at time.Time) (json.RawMessage, error) {
	w := liquidity.Window{Start: at.Add(-time.Millisecond), End: at.Add(time.Millisecond)}
	for n := 0; ; n++ {
		p, err := transport.Get[liquidity.QuotesPageIn](ctx, c.t, liquidity.PathQuotes, query(&w, n, liquidity.StartPageSize))
		if err != nil {
			return nil, err
		}
		for _, q := range p.Quotes.Items {
			if q.QuoteID == id {
				return q.RawJSON(), nil
			}
		}
		if p.PageInfo.Last || len(p.Quotes.Items) == 0 || n >= 10 {
			return nil, fmt.Errorf("liquidity client: quote %s is no longer among the quotes of %s", id, at.UTC().Format(timeLayout))
		}
	}
}

// Options tune a Client; the zero value is the default.
type Options struct {
	// PageSize is the first page size asked for (the profile's
	// page_size); zero means StartPageSize.
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
	if opts.PageSize <= 0 {
		opts.PageSize = liquidity.StartPageSize
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = paging.DefaultConcurrency
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Client{t: t, opts: opts, texts: intern.New(1024, 32)}
}

// PageSizes are the page sizes learnt from the server, per list.
func (c *Client) PageSizes() map[string]int { return c.sizes.Known() }

const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// query is the query of one page; w nil sends no window.
func query(w *liquidity.Window, page, size int) url.Values {
	q := url.Values{}
	if w != nil {
		if !w.Start.IsZero() {
			q.Set("startTime", w.Start.UTC().Format(timeLayout))
		}
		if !w.End.IsZero() {
			q.Set("endTime", w.End.UTC().Format(timeLayout))
		}
	}
	q.Set("pageSize", strconv.Itoa(size))
	q.Set("pageNumber", strconv.Itoa(page))
	return q
}

// fixed closes an open window at the client's clock.
func (c *Client) fixed(w liquidity.Window) liquidity.Window {
	if w.End.IsZero() {
		w.End = c.opts.Now()
	}
	return w
}

// QuotesPage reads one page of quotes, newest first, as the server sent it
// (tests and `treasury doctor`).
func (c *Client) QuotesPage(ctx context.Context, w liquidity.Window, page, size int) (liquidity.QuotesPage, error) {
	return transport.Get[liquidity.QuotesPage](ctx, c.t, liquidity.PathQuotes, query(&w, page, size))
}

// Quotes reads every quote of the window, newest first.
func (c *Client) Quotes(ctx context.Context, w liquidity.Window) iter.Seq2[liquidity.Quote, error] {
	w = c.fixed(w)
	return pages(ctx, c, "quotes", liquidity.PathQuotes, &w, func(p liquidity.QuotesPageIn) (wire.Items[liquidity.Quote], liquidity.PageInfo) {
		c.held(p.Quotes.Items)
		return p.Quotes, p.PageInfo
	})
}

// Trades reads every trade executed in the window.
func (c *Client) Trades(ctx context.Context, w liquidity.Window) iter.Seq2[liquidity.Trade, error] {
	w = c.fixed(w)
	return func(yield func(liquidity.Trade, error) bool) {
		readIn := func(ctx context.Context, win *liquidity.Window) iter.Seq2[liquidity.Trade, error] {
			return pages(ctx, c, "trades", liquidity.PathTrades, win, func(p liquidity.TradesPageIn) (wire.Items[liquidity.Trade], liquidity.PageInfo) {
				return p.Trades, p.PageInfo
			})
		}
		read := func(win *liquidity.Window) iter.Seq2[liquidity.Trade, error] { return readIn(ctx, win) }
		win := &w
		if c.noTradeWindow.Load() {
			win = nil
		}
		n := 0
		hctx, held := transport.Hold(ctx)
		defer held.Release()
		for t, err := range readIn(hctx, win) {
			if err != nil && n == 0 && win != nil && namesWindow(err) {
				held.Drop() // the server's choice, not a failure
				// The server refuses the undocumented window: read without
				// it, keep the window locally, and remember.
				c.noTradeWindow.Store(true)
				for t, err := range read(nil) {
					if err != nil || w.Contains(t.ExecutedAt) {
						if !yield(t, err) {
							return
						}
					}
				}
				return
			}
			n++
			if err != nil || w.Contains(t.ExecutedAt) {
				if !yield(t, err) {
					return
				}
			}
		}
	}
}

// Balances reads every balance.
func (c *Client) Balances(ctx context.Context) iter.Seq2[liquidity.Balance, error] {
	return pages(ctx, c, "balances", liquidity.PathBalances, nil, func(p liquidity.BalancesPageIn) (wire.Items[liquidity.Balance], liquidity.PageInfo) {
		return p.Balances, p.PageInfo
	})
}

// namesWindow reports whether err is a 400 about startTime or endTime.
func namesWindow(err error) bool {
	e, ok := apierr.As(err)
	if !ok || e.HTTPStatus != 400 {
		return false
	}
	m := strings.ToLower(e.Title + " " + e.Message)
	return strings.Contains(m, "starttime") || strings.Contains(m, "endtime")
}

// pages reads every page of path (w nil: no window), the first one through
// paging.First so the page size adapts; items takes a decoded page apart,
// and its skipped records are noted on ctx (wire.Note).
func pages[P, T any](ctx context.Context, c *Client, list, path string, w *liquidity.Window, items func(P) (wire.Items[T], liquidity.PageInfo)) iter.Seq2[T, error] {
	size := 0
	return paging.ByPageNumber(ctx, c.opts.Concurrency, func(ctx context.Context, n int) (paging.NumberPage[T], error) {
		var p P
		var err error
		if n == 0 {
			p, size, err = paging.First(ctx, &c.sizes, list, "pageSize", c.opts.PageSize, func(ctx context.Context, sz int) (P, error) {
				return transport.Get[P](ctx, c.t, path, query(w, 0, sz))
			})
		} else {
			p, err = transport.Get[P](ctx, c.t, path, query(w, n, size))
		}
		its, info := items(p)
		wire.Note(ctx, "liquidity "+list, its.Skipped)
		return paging.NumberPage[T]{Items: its.Items, Last: info.Last, TotalPages: info.TotalPages}, err
	})
}

// AllQuotes collects Quotes.
func (c *Client) AllQuotes(ctx context.Context, w liquidity.Window) ([]liquidity.Quote, error) {
	return paging.Collect(c.Quotes(ctx, w))
}

// AllTrades collects Trades.
func (c *Client) AllTrades(ctx context.Context, w liquidity.Window) ([]liquidity.Trade, error) {
	return paging.Collect(c.Trades(ctx, w))
}

// AllBalances collects Balances.
func (c *Client) AllBalances(ctx context.Context) ([]liquidity.Balance, error) {
	return paging.Collect(c.Balances(ctx))
}
