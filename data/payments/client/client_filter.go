package client

import (
	"context"
	"iter"
	"net/http"

	"treasury/data/paging"
	"treasury/data/payments"
	"treasury/data/transport"
)

// DefaultSort returns the order Filter uses: CREATED_AT, DESC (newest
// first).
func DefaultSort() payments.Sort {
	return payments.Sort{SortField: payments.SortCreatedAt, SortDirection: payments.SortDesc}
}

// FilterPage reads one page of POST /v3/payments/filter. size is clamped
// to 1..100 (zero means the client's page size); token is "" for the first
// page and the previous page's page.lastPageToken after it, sent back
// untouched with the same filter and sort (tokens are opaque and bound to
// their search).
func (c *Client) FilterPage(ctx context.Context, f payments.Filter, s payments.Sort, size int, token string) (payments.FilterResponse, error) {
	if size <= 0 {
		size = c.pageSize(payments.FilterMaxSize)
	}
	req := payments.FilterRequest{Filter: f, Sort: &s,
		Page: &payments.PageIn{Size: paging.Clamp(size, payments.FilterDefaultSize, payments.FilterMaxSize), LastPageToken: token}}
	var resp payments.FilterResponse
	_, err := c.t.Do(ctx, transport.Request{Method: http.MethodPost, Path: payments.PathFilterV3, Body: req, Idempotent: true}, &resp)
	return resp, err
}

// Filter reads every payment the filter selects, newest first, page after
// page (the body token style is sequential).
func (c *Client) Filter(ctx context.Context, f payments.Filter) iter.Seq2[payments.Payment, error] {
	return c.FilterSorted(ctx, f, DefaultSort())
}

// FilterSorted is Filter in the order s (sortField CREATED_AT, direction
// DESC or ASC).
func (c *Client) FilterSorted(ctx context.Context, f payments.Filter, s payments.Sort) iter.Seq2[payments.Payment, error] {
	size := c.pageSize(payments.FilterMaxSize)
	return paging.ByBodyToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[payments.Payment], error) {
		p, err := c.FilterPage(ctx, f, s, size, token)
		return paging.TokenPage[payments.Payment]{Items: p.Data, Next: p.Page.LastPageToken}, err
	})
}

// AllFiltered collects Filter.
func (c *Client) AllFiltered(ctx context.Context, f payments.Filter) ([]payments.Payment, error) {
	return paging.Collect(c.Filter(ctx, f))
}
