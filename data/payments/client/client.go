// Package client reads the payments interface (spec area B, 4.3): payments
// by id (v2, v3) and by internalId, the v3 filter with body-token paging,
// state history, identities and financial instruments with query-token
// paging, the ledger with record-offset paging, balances and the token
// test. The wire records are those of package payments.
//
// It is a package of its own because package payments cannot import
// data/transport: transport imports data/auth, which imports payments for
// the token records.
//
// Choices of the client where the spec is silent:
//   - pages are as large as each operation allows (filter and identities
//     100, ledger 50) unless Options.PageSize asks for fewer;
//   - the filter sorts by CREATED_AT, DESC unless FilterSorted says
//     otherwise, and is marked Idempotent: a search may be repeated;
//   - the ledger window is fixed before the first page (an open end is
//     closed at Options.Now), so the concurrent pages after the first all
//     read one stable set (4.3 pagination rule 2); times travel as RFC 3339
//     UTC with milliseconds;
//   - Ledger without a currency reads every currency that Balances names.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"treasury/data/apierr"
	"treasury/data/paging"
	"treasury/data/payments"
	"treasury/data/transport"
	"treasury/data/wire"
)

// Client calls the payments interface.
type Client struct {
	t     *transport.Client
	opts  Options
	sizes paging.Sizes
	// narrow is set once the server refused a filter field the spec does
	// not list: from then on only the documented request is sent and the
	// rest is applied locally.
	narrow atomic.Bool
}

// Options tune a Client; the zero value is the default.
type Options struct {
	// PageSize bounds the records asked per page (the profile's
	// page_size); zero (or more than an operation allows) means the
	// operation's maximum.
	PageSize int
	// Concurrency bounds the ledger pages fetched at once after the first;
	// zero means paging.DefaultConcurrency, 1 reads page by page.
	Concurrency int
	// Now closes an open ledger window; nil means time.Now. In sandbox
	// mode pass the sandbox clock.
	Now func() time.Time
	// Auth sends to {auth_url} (interface apierr.Auth) with the same token
	// source as the payments transport; only TokenTest needs it.
	Auth *transport.Client
}

// New returns a client that sends through t: an apierr.Payments transport
// whose base URL is the payments interface's and whose token source is
// auth.NewPayments.
func New(t *transport.Client, opts Options) *Client {
	if opts.Concurrency <= 0 {
		opts.Concurrency = paging.DefaultConcurrency
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Client{t: t, opts: opts}
}

// ErrNoPayment is in the chain of the error of ByInternalID when no payment
// carries the internalId (beside an *apierr.Error of class NotFound).
var ErrNoPayment = errors.New("no payment with this internalId")

// ErrNoAuth is returned by TokenTest when Options.Auth is not set.
var ErrNoAuth = errors.New("payments client: no {auth_url} transport (Options.Auth) for the token test")

// pageSize is the client's page size for an operation of maximum max.
func (c *Client) pageSize(max int) int { return paging.Clamp(c.opts.PageSize, max, max) }

// PageSizes are the page sizes learnt from the server, per list.
func (c *Client) PageSizes() map[string]int { return c.sizes.Known() }

// idPath is base + the escaped id, refusing an empty id (which would name
// another resource).
func idPath(base, what, id string) (string, error) {
	if id == "" {
		return "", errors.New("payments client: empty " + what + " id")
	}
	return base + transport.PathEscape(id), nil
}

// Get reads a payment with GET /v3/payments/{id}: in a terminal failure
// state it carries Errors (code and reason).
func (c *Client) Get(ctx context.Context, id string) (payments.Payment, error) {
	p, err := idPath(payments.PathPaymentV3, "payment", id)
	if err != nil {
		return payments.Payment{}, err
	}
	return transport.Get[payments.Payment](ctx, c.t, p, nil)
}

// GetV2 reads a payment with GET /v2/payments/{id} (no Errors).
func (c *Client) GetV2(ctx context.Context, id string) (payments.Payment, error) {
	p, err := idPath(payments.PathPaymentV2, "payment", id)
	if err != nil {
		return payments.Payment{}, err
	}
	return transport.Get[payments.Payment](ctx, c.t, p, nil)
}

// ByInternalID finds the payment created with internalId (GET
// /v3/payments?internalId=): the look-up before retrying a creation after a
// timeout (spec 7.1 rule 3). None matching is an error that wraps both
// ErrNoPayment and an *apierr.Error of class NotFound.
func (c *Client) ByInternalID(ctx context.Context, internalID string) (payments.Payment, error) {
	if internalID == "" {
		return payments.Payment{}, errors.New("payments client: empty internalId")
	}
	l, err := transport.Get[payments.PaymentListIn](ctx, c.t, payments.PathPayments, url.Values{"internalId": {internalID}})
	if err != nil {
		return payments.Payment{}, err
	}
	wire.Note(ctx, "payments", l.Data.Skipped)
	for _, p := range l.Data.Items {
		if p.InternalID() == internalID || p.InternalID() == "" {
			return p, nil
		}
	}
	e := &apierr.Error{Interface: c.t.Interface(), Method: http.MethodGet, Path: payments.PathPayments,
		HTTPStatus: http.StatusOK, Message: "no payment has this internalId", Class: apierr.ClassNotFound}
	return payments.Payment{}, fmt.Errorf("%w: %w", ErrNoPayment, e)
}

// StateHistory reads a payment's state transitions, oldest first (GET
// /v3/payments/{id}/states).
func (c *Client) StateHistory(ctx context.Context, id string) ([]payments.StateTransition, error) {
	p, err := idPath(payments.PathPaymentV3, "payment", id)
	if err != nil {
		return nil, err
	}
	h, err := transport.Get[payments.StateTransitions](ctx, c.t, p+payments.SuffixStates, nil)
	return h.StateTransitions, err
}

// Balances reads the prefunded balances (GET /v2/balances).
func (c *Client) Balances(ctx context.Context) (payments.Balances, error) {
	b, err := transport.Get[payments.BalancesIn](ctx, c.t, payments.PathBalances, nil)
	wire.Note(ctx, "payments balances", b.Balances.Skipped)
	return payments.Balances{Timestamp: b.Timestamp, Balances: b.Balances.Items}, err
}

// TokenTest asks {auth_url}/v2/oauth/token/test whether the current token
// is valid and how long it has left. It reads both the object and the
// array of one object that the real service answers.
func (c *Client) TokenTest(ctx context.Context) (payments.TokenTest, error) {
	if c.opts.Auth == nil {
		return payments.TokenTest{}, ErrNoAuth
	}
	var raw []byte
	if _, err := c.opts.Auth.Do(ctx, transport.Request{Method: http.MethodGet, Path: payments.PathTokenTest}, &raw); err != nil {
		return payments.TokenTest{}, err
	}
	tt, err := decodeTokenTest(raw)
	if err != nil {
		return tt, apierr.Malformed(c.opts.Auth.Interface(), http.MethodGet, payments.PathTokenTest, http.StatusOK, err)
	}
	return tt, nil
}

func decodeTokenTest(raw []byte) (payments.TokenTest, error) {
	var tt payments.TokenTest
	raw = bytes.Trim(raw, " \t\r\n") // JSON's white space, as encoding/json reads it
	if len(raw) > 0 && raw[0] == '[' {
		// Read the one element, and no further: an array of a million
		// would otherwise be a million answers decoded to be refused.
		dec := json.NewDecoder(bytes.NewReader(raw))
		if _, err := dec.Token(); err != nil {
			return tt, err
		}
		if !dec.More() {
			return tt, errors.New("token test answered an empty array, want one object")
		}
		if err := dec.Decode(&tt); err != nil {
			return payments.TokenTest{}, err
		}
		if dec.More() {
			return payments.TokenTest{}, errors.New("token test answered an array of several objects, want 1")
		}
		if _, err := dec.Token(); err != nil || dec.InputOffset() != int64(len(raw)) {
			return payments.TokenTest{}, errors.New("token test answered an array that is not valid JSON")
		}
		return tt, nil
	}
	err := json.Unmarshal(raw, &tt)
	return tt, err
}
