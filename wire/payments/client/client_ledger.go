package client

import (
	"context"
	"iter"
	"net/url"
	"slices"
	"strconv"
	"time"

	"treasury/wire"
	"treasury/wire/paging"
	"treasury/wire/payments"
	"treasury/wire/transport"
)

const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// LedgerEpoch is where "the whole history" of a ledger starts: the
// document requires a dated window (start-dttm), so an open start is this
// date, before any account of the platform.
var LedgerEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// ledgerQuery is the query of one ledger page: always a dated window.
func ledgerQuery(currency string, from, to time.Time, size, offset int) url.Values {
	if from.IsZero() {
		from = LedgerEpoch
	}
	return url.Values{"currency": {currency}, "start-dttm": {from.UTC().Format(timeLayout)},
		"end-dttm": {to.UTC().Format(timeLayout)}, "page-size": {strconv.Itoa(size)}, "offset": {strconv.Itoa(offset)}}
}

// LedgerPage reads one page of GET /v2/ledger-transactions.
func (c *Client) LedgerPage(ctx context.Context, currency string, from, to time.Time, size, offset int) (payments.LedgerPage, error) {
	if to.IsZero() {
		to = c.opts.Now()
	}
	size = paging.Clamp(size, payments.LedgerDefaultPageSize, payments.LedgerMaxPageSize)
	p, err := transport.Get[payments.LedgerPageIn](ctx, c.t, payments.PathLedger, ledgerQuery(currency, from, to, size, offset))
	wire.Note(ctx, "payments ledger", p.StatementTransactions.Skipped)
	return payments.LedgerPage{Offset: p.Offset, PageSize: p.PageSize, PageElements: p.PageElements, Total: p.Total,
		StatementTransactions: p.StatementTransactions.Items}, err
}

// LedgerOf reads the ledger transactions of one currency's prefunded
// account in [from, to), oldest first: the first page, then the rest
// concurrently. A zero from is LedgerEpoch; a zero to is Options.Now when
// the read starts, fixed for every page.
func (c *Client) LedgerOf(ctx context.Context, currency string, from, to time.Time) iter.Seq2[payments.LedgerTransaction, error] {
	if to.IsZero() {
		to = c.opts.Now()
	}
	return func(yield func(payments.LedgerTransaction, error) bool) {
		// The first page fixes the page size (halved if the server caps
		// lower than the spec's 50); every offset is a multiple of it.
		first, size, firstErr := paging.First(ctx, &c.sizes, "ledger", "page-size", c.pageSize(payments.LedgerMaxPageSize),
			func(ctx context.Context, n int) (payments.LedgerPage, error) {
				return c.LedgerPage(ctx, currency, from, to, n, 0)
			})
		seq := paging.ByOffset(ctx, c.opts.Concurrency, size, func(ctx context.Context, offset int) (paging.OffsetPage[payments.LedgerTransaction], error) {
			p, err := first, firstErr
			if offset > 0 {
				p, err = c.LedgerPage(ctx, currency, from, to, size, offset)
			}
			return paging.OffsetPage[payments.LedgerTransaction]{Items: p.StatementTransactions, Offset: p.Offset,
				PageElements: p.PageElements, Total: p.Total}, err
		})
		for v, err := range seq {
			if !yield(v, err) {
				return
			}
		}
	}
}

// Ledger reads the ledger transactions of every currency that Balances
// names in [from, to) (a zero to is Options.Now), ordered by createdDttm;
// records of one time keep their account's order. A currency whose ledger
// fails does not blank the others: theirs come back with a *wire.Partial
// naming it (only when every currency fails is the first failure returned
// alone).
func (c *Client) Ledger(ctx context.Context, from, to time.Time) ([]payments.LedgerTransaction, error) {
	return c.LedgerFrom(ctx, func(string) time.Time { return from }, to)
}

// LedgerFrom is Ledger with each currency's own start, from(currency):
// a poll reads each account from its newest movement held, not the whole
// window again (a zero start is LedgerEpoch).
func (c *Client) LedgerFrom(ctx context.Context, from func(currency string) time.Time, to time.Time) ([]payments.LedgerTransaction, error) {
	if to.IsZero() {
		to = c.opts.Now()
	}
	bal, err := c.Balances(ctx)
	if err != nil {
		return nil, err
	}
	var all []payments.LedgerTransaction
	part := &wire.Partial{What: "ledger of each currency"}
	seen := map[string]bool{}
	for _, b := range bal.Balances {
		if b.Currency == "" || seen[b.Currency] {
			continue
		}
		seen[b.Currency] = true
		part.Of++
		txns, err := paging.Collect(c.LedgerOf(ctx, b.Currency, from(b.Currency), to))
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			part.Failed = append(part.Failed, wire.Failure{Name: b.Currency, Err: err})
			continue
		}
		all = append(all, txns...)
	}
	slices.SortStableFunc(all, func(a, b payments.LedgerTransaction) int { return a.CreatedDttm.Compare(b.CreatedDttm) })
	switch {
	case len(part.Failed) == 0:
		return all, nil
	case len(part.Failed) == part.Of:
		return nil, part.Failed[0].Err
	}
	return all, part
}
