package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"

	"treasury/data/paging"
	"treasury/data/payments"
	"treasury/data/transport"
)

// tokenQuery is limit and next-token of the query token style (2.1).
func tokenQuery(limit int, token string) url.Values {
	q := url.Values{"limit": {strconv.Itoa(limit)}}
	if token != "" {
		q.Set("next-token", token)
	}
	return q
}

// IdentitySeq reads every identity (GET /v3/identities), page after page.
func (c *Client) IdentitySeq(ctx context.Context) iter.Seq2[payments.Identity, error] {
	limit := c.pageSize(payments.IdentitiesMaxLimit)
	return paging.ByQueryToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[payments.Identity], error) {
		p, err := transport.Get[payments.IdentitiesPage](ctx, c.t, payments.PathIdentities, tokenQuery(limit, token))
		return paging.TokenPage[payments.Identity]{Items: p.Data, Next: p.NextToken}, err
	})
}

// Identities reads every identity, originators and beneficiaries.
func (c *Client) Identities(ctx context.Context) ([]payments.Identity, error) {
	return paging.Collect(c.IdentitySeq(ctx))
}

// Instruments reads every financial instrument of an identity (GET
// /v3/identities/{id}/financial-instruments).
func (c *Client) Instruments(ctx context.Context, identityID string) ([]payments.FinancialInstrument, error) {
	p, err := idPath(payments.PathIdentities+"/", "identity", identityID)
	if err != nil {
		return nil, err
	}
	p += payments.SuffixInstruments
	limit := c.pageSize(payments.IdentitiesMaxLimit)
	return paging.Collect(paging.ByQueryToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[payments.FinancialInstrument], error) {
		pg, err := transport.Get[payments.InstrumentsPage](ctx, c.t, p, tokenQuery(limit, token))
		return paging.TokenPage[payments.FinancialInstrument]{Items: pg.Data, Next: pg.NextToken}, err
	}))
}
