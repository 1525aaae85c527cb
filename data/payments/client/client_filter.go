package client

import (
	"context"
	"iter"
	"net/http"
	"slices"
	"sync"

	"treasury/data/apierr"
	"treasury/data/paging"
	"treasury/data/payments"
	"treasury/data/transport"
	"treasury/data/wire"
)

// DefaultSort returns the order Filter uses: CREATED_AT, DESC (newest
// first).
func DefaultSort() payments.Sort {
	return payments.Sort{SortField: payments.SortCreatedAt, SortDirection: payments.SortDesc}
}

// FilterPage reads one page of POST /v3/payments/filter, as sent. size is
// clamped to 1..100 (zero means the client's page size); token is "" for
// the first page and the previous page's page.lastPageToken after it, sent
// back untouched with the same filter and sort (tokens are opaque and
// bound to their search).
func (c *Client) FilterPage(ctx context.Context, f payments.Filter, s payments.Sort, size int, token string) (payments.FilterResponse, error) {
	p, err := c.filterPage(ctx, f, s, size, token)
	return payments.FilterResponse{Data: p.Data.Items, Page: p.Page}, err
}

func (c *Client) filterPage(ctx context.Context, f payments.Filter, s payments.Sort, size int, token string) (payments.FilterResponseIn, error) {
	if size <= 0 {
		size = c.pageSize(payments.FilterMaxSize)
	}
	req := payments.FilterRequest{Filter: f, Sort: &s,
		Page: &payments.PageIn{Size: paging.Clamp(size, payments.FilterDefaultSize, payments.FilterMaxSize), LastPageToken: token}}
	var resp payments.FilterResponseIn
	_, err := c.t.Do(ctx, transport.Request{Method: http.MethodPost, Path: payments.PathFilterV3, Body: req, Idempotent: true}, &resp)
	wire.Note(ctx, "payments", resp.Data.Skipped)
	return resp, err
}

// Filter reads every payment the filter selects, newest first, page after
// page (the body token style is sequential).
func (c *Client) Filter(ctx context.Context, f payments.Filter) iter.Seq2[payments.Payment, error] {
	return c.FilterSorted(ctx, f, DefaultSort())
}

// FilterSorted is Filter in the order s (sortField CREATED_AT, direction
// DESC or ASC).
//
// The spec documents filter.paymentStates only; the other fields of
// payments.Filter are the real service's (api-choices.md). When a server
// refuses one with a 400, the client sends the documented request from
// then on and applies the rest itself: payment ids are read one by one
// (GET /v3/payments/{id}), an internalId through GET /v3/payments, and the
// time bounds and currencies are checked locally, the read stopping at the
// first payment older than afterTimestamp when the order is newest first.
func (c *Client) FilterSorted(ctx context.Context, f payments.Filter, s payments.Sort) iter.Seq2[payments.Payment, error] {
	return func(yield func(payments.Payment, error) bool) {
		if !extended(f) || !c.narrow.Load() {
			// The refusal of a field the spec does not list is the server's
			// choice, not a failure, when the documented request works.
			hctx, held := transport.Hold(ctx)
			n := 0
			for p, err := range c.search(hctx, f, s) {
				if err != nil && n == 0 && extended(f) && refusedField(err) {
					c.narrow.Store(true)
					break
				}
				if n == 0 {
					held.Release()
				}
				n++
				if !yield(p, err) || err != nil {
					return
				}
			}
			if !c.narrow.Load() || !extended(f) {
				held.Release()
				return
			}
			held.Drop()
		}
		for p, err := range c.narrowed(ctx, f, s) {
			if !yield(p, err) || err != nil {
				return
			}
		}
	}
}

// search pages through the filter as given; the page size adapts once.
func (c *Client) search(ctx context.Context, f payments.Filter, s payments.Sort) iter.Seq2[payments.Payment, error] {
	size := c.pageSize(payments.FilterMaxSize)
	return paging.ByBodyToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[payments.Payment], error) {
		var p payments.FilterResponseIn
		var err error
		if token == "" {
			p, size, err = paging.First(ctx, &c.sizes, "payments filter", "page.size", size, func(ctx context.Context, n int) (payments.FilterResponseIn, error) {
				return c.filterPage(ctx, f, s, n, "")
			})
		} else {
			p, err = c.filterPage(ctx, f, s, size, token)
		}
		return paging.TokenPage[payments.Payment]{Items: p.Data.Items, Next: p.Page.LastPageToken}, err
	})
}

// extended reports whether f uses a field beyond filter.paymentStates.
func extended(f payments.Filter) bool {
	return len(f.PaymentIDs) > 0 || f.InternalID != "" || f.AfterTimestamp != nil || f.BeforeTimestamp != nil || len(f.DestinationCurrencies) > 0
}

// refusedField reports whether err is the 400 of a request the server
// found invalid (a field it does not know), not a failure of the service.
func refusedField(err error) bool {
	e, ok := apierr.As(err)
	return ok && e.HTTPStatus == http.StatusBadRequest && !paging.ImpliesPageSize(err, "page.size")
}

// narrowed reads what f selects with only the documented request.
func (c *Client) narrowed(ctx context.Context, f payments.Filter, s payments.Sort) iter.Seq2[payments.Payment, error] {
	return func(yield func(payments.Payment, error) bool) {
		switch {
		case len(f.PaymentIDs) > 0:
			for _, p := range c.byIDs(ctx, f.PaymentIDs) {
				if p.err != nil || matches(p.v, f) {
					if !yield(p.v, p.err) || p.err != nil {
						return
					}
				}
			}
			return
		case f.InternalID != "":
			p, err := c.ByInternalID(ctx, f.InternalID)
			if err == nil && matches(p, f) {
				yield(p, nil)
			} else if err != nil && apierr.ClassOf(err) != apierr.ClassNotFound {
				yield(p, err)
			}
			return
		}
		newestFirst := s.SortField == payments.SortCreatedAt && s.SortDirection != payments.SortAsc
		for p, err := range c.search(ctx, payments.Filter{PaymentStates: f.PaymentStates}, s) {
			if err != nil {
				yield(p, err)
				return
			}
			if newestFirst && f.AfterTimestamp != nil && p.InitiatedAt.Before(*f.AfterTimestamp) {
				return // every later payment is older still
			}
			if matches(p, f) && !yield(p, nil) {
				return
			}
		}
	}
}

// matches applies the fields of f beyond paymentStates to p.
func matches(p payments.Payment, f payments.Filter) bool {
	switch {
	case len(f.PaymentStates) > 0 && !slices.Contains(f.PaymentStates, p.PaymentState):
		return false
	case len(f.PaymentIDs) > 0 && !slices.Contains(f.PaymentIDs, p.PaymentID):
		return false
	case f.InternalID != "" && p.InternalID() != f.InternalID:
		return false
	case f.AfterTimestamp != nil && p.InitiatedAt.Before(*f.AfterTimestamp):
		return false
	case f.BeforeTimestamp != nil && !p.InitiatedAt.Before(*f.BeforeTimestamp):
		return false
	case len(f.DestinationCurrencies) > 0 && !slices.Contains(f.DestinationCurrencies, p.Destination.DestinationCurrency):
		return false
	}
	return true
}

type result[T any] struct {
	v   T
	err error
}

// byIDs reads payments by id, a few at a time, in the order given; one
// that no longer exists is left out.
func (c *Client) byIDs(ctx context.Context, ids []string) []result[payments.Payment] {
	out := make([]result[payments.Payment], len(ids))
	sem := make(chan struct{}, c.opts.Concurrency)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			p, err := c.Get(ctx, id)
			out[i] = result[payments.Payment]{p, err}
		}()
	}
	wg.Wait()
	return slices.DeleteFunc(out, func(r result[payments.Payment]) bool { return apierr.ClassOf(r.err) == apierr.ClassNotFound })
}

// AllFiltered collects Filter.
func (c *Client) AllFiltered(ctx context.Context, f payments.Filter) ([]payments.Payment, error) {
	return paging.Collect(c.Filter(ctx, f))
}
