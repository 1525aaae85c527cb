package client

import (
	"context"
	"iter"
	"net/http"
	"slices"
	"strings"

	"treasury/kit/parallel"
	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/paging"
	"treasury/wire/payments"
	"treasury/wire/transport"
)

// Forms of the filter's sort (Dialect.Sort), in the order they are tried.
const (
	// SortInitiatedAt is the document's sortField (PaymentSortFieldV2),
	// its default: what production servers take.
	SortInitiatedAt = "initiatedAt"
	// SortCreatedAt is the spec's wording of the same order.
	SortCreatedAt = "CREATED_AT"
	// SortNone sends no sort: the document's default order, initiatedAt
	// DESC.
	SortNone = "none"
)

// sortForms are the forms of the sort, in the order they are tried.
func sortForms() []string { return []string{SortInitiatedAt, SortCreatedAt, SortNone} }

// sortOf is the sort to send in form; nil for SortNone.
func sortOf(form string) *payments.Sort {
	if form == SortNone {
		return nil
	}
	return &payments.Sort{SortField: form, SortDirection: payments.SortDesc}
}

// FilterPage reads one page of POST /v3/payments/filter, newest first in the
// form of sort the server takes, as sent. size is clamped to 1..100 (zero
// means the client's page size); token is "" for the first page and the
// previous page's page.lastPageToken after it, sent back untouched with
// the same filter (tokens are opaque and bound to their search).
func (c *Client) FilterPage(ctx context.Context, f payments.Filter, size int, token string) (payments.FilterResponse, error) {
	p, err := c.filterPage(ctx, f, c.dialect().Sort, size, token)
	return payments.FilterResponse{Data: p.Data.Items, Page: p.Page}, err
}

func (c *Client) filterPage(ctx context.Context, f payments.Filter, form string, size int, token string) (payments.FilterResponseIn, error) {
	if size <= 0 {
		size = c.pageSize(payments.FilterMaxSize)
	}
	if (f.AfterTimestamp != nil || f.BeforeTimestamp != nil) && f.FilterRangeType == "" {
		f.FilterRangeType = payments.RangeCreation
	}
	req := payments.FilterRequest{Filter: f, Sort: sortOf(form),
		Page: &payments.PageIn{Size: paging.Clamp(size, payments.FilterDefaultSize, payments.FilterMaxSize), LastPageToken: token}}
	var resp payments.FilterResponseIn
	resp.Data.NoRaw = !c.keepRaw.Load() // no copy of each record's JSON to drop
	_, err := c.t.Do(ctx, transport.Request{Method: http.MethodPost, Path: payments.PathFilterV3, Body: req, Idempotent: true}, &resp)
	wire.Note(ctx, "payments", resp.Data.Skipped)
	c.held(resp.Data.Items)
	return resp, err
}

// Filter reads every payment the filter selects, newest first, page after
// page (the body token style is sequential).
//
// The spec documents filter.paymentStates only; the other fields of
// payments.Filter are the document's (api-choices.md). When a server
// refuses one with a 400, the client sends the documented request from
// then on (Dialect.NarrowFilter) and applies the rest itself: payment ids
// are read one by one (GET /v3/payments/{id}), an internalId through the
// spec's GET /v3/payments?internalId=, and the time bounds, currencies,
// the beneficiary's nickname (exact) and labels (any of them) are checked
// locally, the read stopping at the first payment older than
// afterTimestamp.
func (c *Client) Filter(ctx context.Context, f payments.Filter) iter.Seq2[payments.Payment, error] {
	return func(yield func(payments.Payment, error) bool) {
		if !extended(f) || !c.dialect().NarrowFilter {
			// The refusal of a field the spec does not list is the server's
			// choice, not a failure, when the documented request works.
			hctx, held := transport.Hold(ctx)
			first, refused := true, false
			for p, err := range c.search(hctx, f) {
				if first && err != nil && extended(f) && refusedField(err) {
					refused = true
					break
				}
				first = false
				if !yield(p, err) || err != nil {
					held.Release()
					return
				}
			}
			if !refused {
				held.Release()
				return
			}
			held.Drop()
			c.learn(func(d *Dialect) { d.NarrowFilter = true })
		}
		for p, err := range c.narrowed(ctx, f) {
			if !yield(p, err) || err != nil {
				return
			}
		}
	}
}

// search pages through the filter as given, newest first. The first page
// learns the form of sort the server takes: a 400 that names the sort
// (or names nothing, when the filter holds only what the spec documents)
// tries the next form, and the one that works is remembered; the refusals
// of the forms tried are the server telling its choice, not failures. The
// page size adapts once.
func (c *Client) search(ctx context.Context, f payments.Filter) iter.Seq2[payments.Payment, error] {
	return func(yield func(payments.Payment, error) bool) {
		for {
			form := c.dialect().Sort
			hctx, held := transport.Hold(ctx)
			first, next := true, ""
			for p, err := range c.searchAs(hctx, f, form) {
				if first && err != nil {
					if nf, ok := nextSortForm(form); ok && refusedSort(err, f) {
						next = nf
						break
					}
				}
				first = false
				if !yield(p, err) || err != nil {
					held.Release()
					return
				}
			}
			if next == "" {
				held.Release()
				return
			}
			held.Drop()
			c.learn(func(d *Dialect) {
				if d.Sort == form {
					d.Sort = next
				}
			})
		}
	}
}

// searchAs pages through the filter with the sort in form.
func (c *Client) searchAs(ctx context.Context, f payments.Filter, form string) iter.Seq2[payments.Payment, error] {
	size := c.pageSize(payments.FilterMaxSize)
	seen := ""
	return paging.ByBodyToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[payments.Payment], error) {
		var p payments.FilterResponseIn
		var err error
		if token == "" {
			p, size, err = paging.First(ctx, &c.sizes, "payments filter", "page.size", size, func(ctx context.Context, n int) (payments.FilterResponseIn, error) {
				return c.filterPage(ctx, f, form, n, "")
			})
		} else {
			p, err = c.filterPage(ctx, f, form, size, token)
		}
		next := p.Page.LastPageToken
		// The document calls lastPageToken "the reference of the last
		// fetched item": a server may send it on the last page too. An
		// empty page, or the token of the page before, ends the read.
		if len(p.Data.Items) == 0 || next == token || next == seen {
			next = ""
		}
		seen = token
		return paging.TokenPage[payments.Payment]{Items: p.Data.Items, Next: next}, err
	})
}

// nextSortForm is the form tried after form.
func nextSortForm(form string) (string, bool) {
	fs := sortForms()
	i := slices.Index(fs, form)
	if i < 0 || i+1 >= len(fs) {
		return "", false
	}
	return fs[i+1], true
}

// refusedSort reports whether err is the 400 of a sort the server does not
// take: one that names the sort, or, when the filter holds nothing but
// what the spec documents, one that names nothing else.
func refusedSort(err error, f payments.Filter) bool {
	e, ok := apierr.As(err)
	if !ok || e.HTTPStatus != http.StatusBadRequest || e.Class == apierr.ClassCredentials {
		return false
	}
	msg := strings.ToLower(e.Title + " " + e.Message)
	switch {
	case strings.Contains(msg, "sort"):
		return true
	case extended(f), strings.Contains(msg, "filter"), paging.ImpliesPageSize(err, "page.size") && strings.TrimSpace(msg) != "":
		return false
	}
	return true
}

// extended reports whether f uses a field beyond filter.paymentStates.
func extended(f payments.Filter) bool {
	return len(f.PaymentIDs) > 0 || f.InternalID != "" || f.AfterTimestamp != nil || f.BeforeTimestamp != nil || len(f.DestinationCurrencies) > 0 ||
		f.BeneficiaryIdentityNickname != "" || len(f.PaymentLabels) > 0
}

// refusedField reports whether err is the 400 of a request the server
// found invalid (a field it does not know), not a failure of the service
// nor a sort it does not take.
func refusedField(err error) bool {
	e, ok := apierr.As(err)
	if !ok || e.HTTPStatus != http.StatusBadRequest || paging.ImpliesPageSize(err, "page.size") {
		return false
	}
	msg := strings.ToLower(e.Title + " " + e.Message)
	return !strings.Contains(msg, "sort") || strings.Contains(msg, "filter")
}

// narrowed reads what f selects with only the documented request.
func (c *Client) narrowed(ctx context.Context, f payments.Filter) iter.Seq2[payments.Payment, error] {
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
			// The document's internalId filter is a prefix match; the
			// spec's GET answers the exact one.
			p, err := c.byInternalQuery(ctx, f.InternalID)
			if err == nil && matches(p, f) {
				yield(p, nil)
			} else if err != nil && apierr.ClassOf(err) != apierr.ClassNotFound {
				yield(p, err)
			}
			return
		}
		for p, err := range c.search(ctx, payments.Filter{PaymentStates: f.PaymentStates}) {
			if err != nil {
				yield(p, err)
				return
			}
			if f.AfterTimestamp != nil && p.When().Before(*f.AfterTimestamp) {
				return // every later payment is older still
			}
			if matches(p, f) && !yield(p, nil) {
				return
			}
		}
	}
}

// matches applies the fields of f beyond paymentStates to p. The
// internalId is the document's prefix match; times are those the payment
// is listed by (When).
func matches(p payments.Payment, f payments.Filter) bool {
	switch {
	case len(f.PaymentStates) > 0 && !slices.Contains(f.PaymentStates, p.PaymentState):
		return false
	case len(f.PaymentIDs) > 0 && !slices.Contains(f.PaymentIDs, p.PaymentID):
		return false
	case f.InternalID != "" && !strings.HasPrefix(p.InternalID(), f.InternalID):
		return false
	case f.AfterTimestamp != nil && p.When().Before(*f.AfterTimestamp):
		return false
	case f.BeforeTimestamp != nil && p.When().After(*f.BeforeTimestamp):
		return false
	case len(f.DestinationCurrencies) > 0 && !slices.Contains(f.DestinationCurrencies, p.Destination.DestinationCurrency):
		return false
	case f.BeneficiaryIdentityNickname != "" && p.Destination.BeneficiaryIdentityNickName != f.BeneficiaryIdentityNickname:
		return false
	case len(f.PaymentLabels) > 0 && !slices.ContainsFunc(p.PaymentLabels, func(l string) bool { return slices.Contains(f.PaymentLabels, l) }):
		return false
	}
	return true
}

type result[T any] struct {
	v   T
	err error
}

// getEach reads payments by id, Options.Concurrency at a time, each
// answer at its id's index.
func (c *Client) getEach(ctx context.Context, ids []string) []result[payments.Payment] {
	out := make([]result[payments.Payment], len(ids))
	parallel.Each(len(ids), c.opts.Concurrency, func(i int) {
		p, err := c.Get(ctx, ids[i])
		out[i] = result[payments.Payment]{p, err}
	})
	return out
}

// byIDs reads payments by id, a few at a time, in the order given; one
// that no longer exists is left out.
func (c *Client) byIDs(ctx context.Context, ids []string) []result[payments.Payment] {
	out := c.getEach(ctx, ids)
	return slices.DeleteFunc(out, func(r result[payments.Payment]) bool { return apierr.ClassOf(r.err) == apierr.ClassNotFound })
}

// AllFiltered collects Filter.
func (c *Client) AllFiltered(ctx context.Context, f payments.Filter) ([]payments.Payment, error) {
	return paging.Collect(c.Filter(ctx, f))
}

// Details completes, in place, the payments in a terminal failure state
// that came without their reason: the filter's records (the document's
// PaymentV2) carry no errors, GET /v3/payments/{id} does. They are read by
// id a few at a time (Options.Concurrency). Reads that fail leave their
// records as they came and are named in a *wire.Partial.
func (c *Client) Details(ctx context.Context, ps []payments.Payment) error {
	var idx []int
	var ids []string
	for i, p := range ps {
		if p.PaymentState.FailedTerminal() && !p.Detailed && len(p.Errors) == 0 {
			idx, ids = append(idx, i), append(ids, p.PaymentID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	got := c.getEach(ctx, ids)
	part := &wire.Partial{What: "reasons of the failed payments (GET /v3/payments/{id})", Of: len(ids)}
	for i, r := range got {
		if r.err != nil {
			part.Failed = append(part.Failed, wire.Failure{Name: "payment " + ids[i], Err: r.err})
			continue
		}
		ps[idx[i]] = r.v
	}
	if len(part.Failed) > 0 {
		return part
	}
	return nil
}
