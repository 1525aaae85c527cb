package client

import (
	"context"
	"iter"
	"net/url"
	"strconv"

	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/paging"
	"treasury/wire/payments"
	"treasury/wire/transport"
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
	return queryToken(ctx, c, "identities", payments.PathIdentities, func(p payments.IdentitiesPageIn) (wire.Items[payments.Identity], string) {
		return p.Data, p.NextToken
	})
}

// Identities reads every identity, originators and beneficiaries.
func (c *Client) Identities(ctx context.Context) ([]payments.Identity, error) {
	return paging.Collect(c.IdentitySeq(ctx))
}

// Instruments reads every financial instrument of an identity (GET
// /v3/identities/{id}/financial-instruments). The document answers an
// identity without instruments (an originator) with 404 "No identity or
// financial instruments found": that is an empty list, not a failure.
func (c *Client) Instruments(ctx context.Context, identityID string) ([]payments.FinancialInstrument, error) {
	p, err := idPath(payments.PathIdentities+"/", "identity", identityID)
	if err != nil {
		return nil, err
	}
	// The 404 is the server's way to say "none": not a failure of the
	// interface, so it is not reported to its health.
	hctx, held := transport.Hold(ctx)
	got, err := paging.Collect(queryToken(hctx, c, "financial instruments", p+payments.SuffixInstruments,
		func(p payments.InstrumentsPageIn) (wire.Items[payments.FinancialInstrument], string) {
			return p.Data, p.NextToken
		}))
	if len(got) == 0 && apierr.ClassOf(err) == apierr.ClassNotFound {
		held.Drop()
		return []payments.FinancialInstrument{}, nil
	}
	held.Release()
	return got, err
}

// queryToken reads every page of a list in the query token style (limit,
// next-token), the first page through paging.First so that the limit
// adapts to a server that caps lower than the spec's 100; skipped records
// are noted on ctx.
func queryToken[P, T any](ctx context.Context, c *Client, list, path string, items func(P) (wire.Items[T], string)) iter.Seq2[T, error] {
	limit := c.pageSize(payments.IdentitiesMaxLimit)
	return paging.ByQueryToken(ctx, func(ctx context.Context, token string) (paging.TokenPage[T], error) {
		var p P
		var err error
		if token == "" {
			p, limit, err = paging.First(ctx, &c.sizes, list, "limit", limit, func(ctx context.Context, n int) (P, error) {
				return transport.Get[P](ctx, c.t, path, tokenQuery(n, ""))
			})
		} else {
			p, err = transport.Get[P](ctx, c.t, path, tokenQuery(limit, token))
		}
		its, next := items(p)
		wire.Note(ctx, "payments "+list, its.Skipped)
		return paging.TokenPage[T]{Items: its.Items, Next: next}, err
	})
}
