// Package client speaks to the custody interface (spec area D): endpoints
// and intents under a domain, read with cursor paging, and the signed
// intents that lock, unlock and propose. The wire records, and the Signer
// that signs an intent's exact bytes, are those of package custody, which
// the sandbox and the views use without a client.
package client

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"time"

	"treasury/wire"
	"treasury/wire/custody"
	"treasury/wire/paging"
	"treasury/wire/transport"
)

// Client reads the endpoints of one domain and proposes signed lock and
// unlock intents on them.
//
// Choices of the client where the spec is silent:
//   - Endpoints sends only limit and startingAfter (the spec shows no query
//     parameter; api-choices names these for paging), starting at MaxLimit
//     and halving on a 400 that names the limit (a server may cap lower),
//     follows nextStartingAfter until it is absent (a repeated cursor is an
//     error, never a loop) and orders the endpoints by createdAt locally;
//   - each endpoint is decoded on its own: one that cannot be read is
//     skipped and noted (wire.Note), never its page;
//   - the list's items and Endpoint's answer are signed by the service; the
//     client returns their data and does not check the service signature
//     (the spec does not say which key to trust);
//   - an intent expires IntentLifetime after the client's clock (WithClock;
//     in sandbox mode pass the sandbox clock).
type Client struct {
	t        *transport.Client
	domainID string
	signer   custody.Signer
	now      func() time.Time
	limit    int
	sizes    paging.Sizes
}

// IntentLifetime is how long after its proposal an intent may still be
// approved and executed (its expiryAt).
const IntentLifetime = time.Hour

// New returns a client of the domain that sends through t (an
// apierr.Custody transport with the profile's static bearer token) and signs
// intents as signer.
func New(t *transport.Client, domainID string, signer custody.Signer) *Client {
	return &Client{t: t, domainID: domainID, signer: signer, now: time.Now, limit: custody.MaxLimit}
}

// WithPageSize sets the first page size asked for (the profile's
// page_size; 0 keeps MaxLimit) and returns c.
func (c *Client) WithPageSize(n int) *Client {
	if n > 0 {
		c.limit = n
	}
	return c
}

// PageSizes are the page sizes learnt from the server.
func (c *Client) PageSizes() map[string]int { return c.sizes.Known() }

// WithClock sets the clock that dates intents (nil means time.Now) and
// returns c.
func (c *Client) WithClock(now func() time.Time) *Client {
	if now == nil {
		now = time.Now
	}
	c.now = now
	return c
}

// DomainID is the domain the client reads and changes.
func (c *Client) DomainID() string { return c.domainID }

func (c *Client) domainPath(parts ...string) string {
	p := custody.PathDomains + url.PathEscape(c.domainID)
	for _, s := range parts {
		p += "/" + url.PathEscape(s)
	}
	return p
}

// EndpointsPage reads one page of endpoints after the cursor ("" for the
// first page) with the given limit, as the server sent it.
func (c *Client) EndpointsPage(ctx context.Context, startingAfter string, limit int) (custody.EndpointsPage, error) {
	return transport.Get[custody.EndpointsPage](ctx, c.t, c.domainPath("endpoints"), pageQuery(startingAfter, limit))
}

func pageQuery(startingAfter string, limit int) url.Values {
	q := url.Values{"limit": {strconv.Itoa(limit)}}
	if startingAfter != "" {
		q.Set("startingAfter", startingAfter)
	}
	return q
}

// Endpoints reads every endpoint of the domain, every page, oldest first.
// Endpoints that cannot be read are skipped and noted on ctx.
func (c *Client) Endpoints(ctx context.Context) ([]custody.Endpoint, error) {
	size := 0
	page := func(ctx context.Context, token string, limit int) (paging.TokenPage[custody.Endpoint], error) {
		p, err := transport.Get[custody.EndpointsPageIn](ctx, c.t, c.domainPath("endpoints"), pageQuery(token, limit))
		wire.Note(ctx, "custody endpoints", p.Items.Skipped)
		out := paging.TokenPage[custody.Endpoint]{Items: make([]custody.Endpoint, len(p.Items.Items)), Next: p.NextStartingAfter}
		for i, it := range p.Items.Items {
			out.Items[i] = it.Data
			out.Items[i].SetRaw(it.RawJSON())
		}
		return out, err
	}
	eps, err := paging.Collect(paging.ByQueryToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[custody.Endpoint], error) {
		if token == "" {
			p, n, err := paging.First(ctx, &c.sizes, "endpoints", "limit", c.limit, func(ctx context.Context, n int) (paging.TokenPage[custody.Endpoint], error) {
				return page(ctx, "", n)
			})
			size = n
			return p, err
		}
		return page(ctx, token, size)
	}))
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(eps, func(a, b custody.Endpoint) int { return a.Metadata.CreatedAt.Compare(b.Metadata.CreatedAt) })
	return eps, nil
}

// Endpoint reads one endpoint.
func (c *Client) Endpoint(ctx context.Context, id string) (custody.Endpoint, error) {
	it, err := transport.Get[custody.SignedEndpoint](ctx, c.t, c.domainPath("endpoints", id), nil)
	if err != nil {
		return custody.Endpoint{}, err
	}
	ep := it.Data
	ep.SetRaw(it.RawJSON()) // the signed item, as received
	return ep, nil
}

// Intent reads an intent's status.
func (c *Client) Intent(ctx context.Context, intentID string) (custody.Intent, error) {
	return transport.Get[custody.Intent](ctx, c.t, c.domainPath("intents", intentID), nil)
}
