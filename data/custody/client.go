package custody

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"treasury/data/paging"
	"treasury/data/transport"
)

// Client reads the endpoints of one domain and proposes signed lock and
// unlock intents on them.
//
// Choices of the client where the spec is silent:
//   - Endpoints reads with the largest page (MaxLimit), sorted by createdAt
//     ascending, following nextStartingAfter until it is absent (a repeated
//     cursor is an error, never a loop);
//   - the list's items and Endpoint's answer are signed by the service; the
//     client returns their data and does not check the service signature
//     (the spec does not say which key to trust);
//   - an intent expires IntentLifetime after the client's clock (WithClock;
//     in sandbox mode pass the sandbox clock).
type Client struct {
	t        *transport.Client
	domainID string
	signer   Signer
	now      func() time.Time
}

// IntentLifetime is how long after its proposal an intent may still be
// approved and executed (its expiryAt).
const IntentLifetime = time.Hour

// New returns a client of the domain that sends through t (an
// apierr.Custody transport with the profile's static bearer token) and signs
// intents as signer.
func New(t *transport.Client, domainID string, signer Signer) *Client {
	return &Client{t: t, domainID: domainID, signer: signer, now: time.Now}
}

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
	p := PathDomains + url.PathEscape(c.domainID)
	for _, s := range parts {
		p += "/" + url.PathEscape(s)
	}
	return p
}

// EndpointsPage reads one page of endpoints after the cursor ("" for the
// first page) with the given limit (clamped to 1..MaxLimit).
func (c *Client) EndpointsPage(ctx context.Context, startingAfter string, limit int) (EndpointsPage, error) {
	q := url.Values{}
	q.Set("limit", strconv.Itoa(paging.Clamp(limit, DefaultLimit, MaxLimit)))
	q.Set("sortBy", "createdAt")
	q.Set("sortOrder", "asc")
	if startingAfter != "" {
		q.Set("startingAfter", startingAfter)
	}
	return transport.Get[EndpointsPage](ctx, c.t, c.domainPath("endpoints"), q)
}

// Endpoints reads every endpoint of the domain, every page, oldest first.
func (c *Client) Endpoints(ctx context.Context) ([]Endpoint, error) {
	return paging.Collect(paging.ByQueryToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[Endpoint], error) {
		p, err := c.EndpointsPage(ctx, token, MaxLimit)
		if err != nil {
			return paging.TokenPage[Endpoint]{}, err
		}
		out := paging.TokenPage[Endpoint]{Items: make([]Endpoint, len(p.Items)), Next: p.NextStartingAfter}
		for i, it := range p.Items {
			out.Items[i] = it.Data
		}
		return out, nil
	}))
}

// Endpoint reads one endpoint.
func (c *Client) Endpoint(ctx context.Context, id string) (Endpoint, error) {
	it, err := transport.Get[SignedEndpoint](ctx, c.t, c.domainPath("endpoints", id), nil)
	return it.Data, err
}

// Intent reads an intent's status.
func (c *Client) Intent(ctx context.Context, intentID string) (Intent, error) {
	return transport.Get[Intent](ctx, c.t, c.domainPath("intents", intentID), nil)
}
