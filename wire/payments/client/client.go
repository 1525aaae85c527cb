// Package client reads the payments interface (spec area B, 4.3): payments
// by id (v2, v3) and by internalId, the v3 filter with body-token paging,
// state history, identities and financial instruments with query-token
// paging, the ledger with record-offset paging, balances and the token
// test. The wire records are those of package payments.
//
// It is a package of its own because package payments cannot import
// wire/transport: transport imports wire/auth, which imports payments for
// the token records.
//
// Where the spec's wording and the vendor's published document (what
// production servers do) differ, the client works with both and learns,
// from a server's answers, which one it takes (Dialect, remembered per
// profile by the caller):
//   - the filter sorts newest first by the document's sortField
//     initiatedAt; on a 400 naming the sort it tries the spec's CREATED_AT,
//     then no sort (the document's default is initiatedAt DESC);
//   - a payment is looked up by internalId with the document's
//     filter.internalId, a prefix match, keeping the exact match; a server
//     that refuses the field (it filters on paymentStates only) is asked
//     the spec's GET /v3/payments?internalId= instead;
//   - a paymentId is a uuid: a reference that is not one is never sent as
//     an id (the document answers 400), only looked up as an internalId;
//   - the ledger always carries a dated window (start-dttm and end-dttm,
//     both required by the document): the whole history starts at
//     LedgerEpoch;
//   - an identity's financial instruments answered with 404 (the
//     document's "No identity or financial instruments found") are an
//     empty list.
//
// Other choices where both are silent:
//   - pages are as large as each operation allows (filter and identities
//     100, ledger 50) unless Options.PageSize asks for fewer;
//   - the filter is marked Idempotent: a search may be repeated;
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
	"sync"
	"sync/atomic"
	"time"

	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/paging"
	"treasury/wire/payments"
	"treasury/wire/transport"
)

// Client calls the payments interface.
type Client struct {
	t     *transport.Client
	opts  Options
	sizes paging.Sizes
	// shared are the texts its payments repeat, held once (held).
	shared *payments.Sharer
	// keepRaw: the payments read keep the JSON they came as (KeepRaw).
	keepRaw atomic.Bool

	mu sync.Mutex
	d  Dialect
}

// Dialect is which form a server takes where the spec's wording and the
// vendor's document differ, as learnt from its answers. The zero value is
// the document's, which production servers keep.
type Dialect struct {
	// Sort is the form of the filter's sort the server takes:
	// SortInitiatedAt (the document's; "" means it), SortCreatedAt (the
	// spec's) or SortNone.
	Sort string `json:"sort,omitempty"`
	// NarrowFilter is set once the server refused a filter field the spec
	// does not list: from then on only the documented request is sent and
	// the rest is applied locally (an internalId through the spec's GET
	// /v3/payments?internalId=).
	NarrowFilter bool `json:"narrow_filter,omitempty"`
	// NoUpdateRange is set once the server refused the document's
	// filterRangeType PAYMENT_STATUS_LAST_UPDATED, or was found to have
	// left out of such a read a payment whose state had changed in it
	// (a server that takes the bounds as creation times): from then on
	// the payments changed since a poll are not asked for (Changed).
	NoUpdateRange bool `json:"no_update_range,omitempty"`
}

// dialect returns the dialect learnt so far, Sort filled in.
func (c *Client) dialect() Dialect {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.d
	if d.Sort == "" {
		d.Sort = SortInitiatedAt
	}
	return d
}

// learn changes the dialect and tells Options.OnDialect when it changed.
func (c *Client) learn(change func(*Dialect)) {
	c.mu.Lock()
	d := c.d
	if d.Sort == "" {
		d.Sort = SortInitiatedAt
	}
	change(&d)
	changed := d != c.d
	c.d = d
	on := c.opts.OnDialect
	c.mu.Unlock()
	if changed && on != nil {
		on(d)
	}
}

// Dialect is what the client has learnt of its server.
func (c *Client) Dialect() Dialect { return c.dialect() }

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
	// Dialect is what was learnt of the server before (the profile's
	// memory); the zero value starts with the document's forms.
	Dialect Dialect
	// OnDialect, when set, is told each time the client learns more of its
	// server, to remember it for the profile.
	OnDialect func(Dialect)
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
	return &Client{t: t, opts: opts, d: opts.Dialect, shared: payments.NewSharer()}
}

// KeepRaw has each payment read from now on keep the JSON it came as
// (wire.Raw: `treasury get -o json` prints it). A process that holds the
// payments (the dashboard's store, 100,000 of them) does not: what it
// shows is the record decoded, and the raw view reads the JSON again
// when asked (GetRaw).
func (c *Client) KeepRaw() { c.keepRaw.Store(true) }

// held makes payments read what the client hands on: the texts many
// repeat shared, the JSON as received dropped unless kept (KeepRaw).
func (c *Client) held(ps []payments.Payment) {
	for i := range ps {
		c.hold(&ps[i])
	}
}

func (c *Client) hold(p *payments.Payment) {
	c.shared.Share(p)
	if !c.keepRaw.Load() {
		p.SetRaw(nil)
	}
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

// Get reads a payment with GET /v3/payments/{id} (PaymentWithDetailsV2):
// in a terminal failure state it carries Errors (code and reason), once
// paid out its payout execution details. id must be a uuid: the document
// answers anything else with 400, so it is refused here, as not found.
func (c *Client) Get(ctx context.Context, id string) (payments.Payment, error) {
	path, err := c.paymentPath(id, "")
	if err != nil {
		return payments.Payment{}, err
	}
	p, err := transport.Get[payments.Payment](ctx, c.t, path, nil)
	p.Detailed = err == nil
	c.hold(&p)
	return p, err
}

// GetRaw reads GET /v3/payments/{id} as it comes: the raw view of a
// payment held without its JSON (the dashboard's), read when asked.
func (c *Client) GetRaw(ctx context.Context, id string) (json.RawMessage, error) {
	path, err := c.paymentPath(id, "")
	if err != nil {
		return nil, err
	}
	raw, err := transport.Get[json.RawMessage](ctx, c.t, path, nil)
	if err == nil && !json.Valid(raw) {
		err = errors.New("payments client: GET " + payments.PathPaymentV3 + "{paymentId} answered what is not JSON")
	}
	return raw, err
}

// paymentPath is /v3/payments/{id} + suffix, refusing (without sending
// anything) an id that is not a uuid: the document answers it with 400.
func (c *Client) paymentPath(id, suffix string) (string, error) {
	if id != "" && !payments.IsPaymentID(id) {
		e := &apierr.Error{Interface: c.t.Interface(), Method: http.MethodGet, Path: payments.PathPaymentV3 + "{paymentId}" + suffix,
			Message: "not a payment id (a paymentId is a uuid): " + id, Class: apierr.ClassNotFound}
		return "", fmt.Errorf("%w: %w", ErrNotPaymentID, e)
	}
	p, err := idPath(payments.PathPaymentV3, "payment", id)
	return p + suffix, err
}

// ErrNotPaymentID is in the chain of Get's error for a reference that is not
// a uuid (beside an *apierr.Error of class NotFound): nothing was sent.
var ErrNotPaymentID = errors.New("not a payment id")

// ByInternalID finds the payment created with internalId: the look-up
// before retrying a creation after a timeout (spec 7.1 rule 3), and a
// support engineer's search by invoice number. It asks the document's
// filter.internalId (a prefix match) and keeps the exact match, or, from a
// server that filters on paymentStates only, the spec's GET
// /v3/payments?internalId=. None matching is an error that wraps both
// ErrNoPayment and an *apierr.Error of class NotFound.
func (c *Client) ByInternalID(ctx context.Context, internalID string) (payments.Payment, error) {
	if internalID == "" {
		return payments.Payment{}, errors.New("payments client: empty internalId")
	}
	for p, err := range c.Filter(ctx, payments.Filter{InternalID: internalID}) {
		if err != nil {
			return payments.Payment{}, err
		}
		if p.InternalID() == internalID {
			return p, nil
		}
	}
	return payments.Payment{}, c.noPayment(http.MethodPost, payments.PathFilterV3)
}

// byInternalQuery is the spec's GET /v3/payments?internalId=.
func (c *Client) byInternalQuery(ctx context.Context, internalID string) (payments.Payment, error) {
	l, err := transport.Get[payments.PaymentListIn](ctx, c.t, payments.PathPayments, url.Values{"internalId": {internalID}})
	if err != nil {
		return payments.Payment{}, err
	}
	wire.Note(ctx, "payments", l.Data.Skipped)
	c.held(l.Data.Items)
	for _, p := range l.Data.Items {
		if p.InternalID() == internalID || p.InternalID() == "" {
			return p, nil
		}
	}
	return payments.Payment{}, c.noPayment(http.MethodGet, payments.PathPayments)
}

// noPayment is the error of a lookup by internalId that found none.
func (c *Client) noPayment(method, path string) error {
	e := &apierr.Error{Interface: c.t.Interface(), Method: method, Path: path,
		HTTPStatus: http.StatusOK, Message: "no payment has this internalId", Class: apierr.ClassNotFound}
	return fmt.Errorf("%w: %w", ErrNoPayment, e)
}

// StateHistory reads a payment's state transitions, oldest first (GET
// /v3/payments/{id}/states).
func (c *Client) StateHistory(ctx context.Context, id string) ([]payments.StateTransition, error) {
	p, err := c.paymentPath(id, payments.SuffixStates)
	if err != nil {
		return nil, err
	}
	h, err := transport.Get[payments.StateTransitionsIn](ctx, c.t, p, nil)
	wire.Note(ctx, "payment history", h.StateTransitions.Skipped)
	return h.StateTransitions.Items, err
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

// Find finds a payment by a reference a person types: by payment id with
// GET /v3/payments/{id} when ref is one (a uuid), else (or when not found)
// by internalId (ByInternalID). Not found either way is the first read's
// error, of class NotFound.
func (c *Client) Find(ctx context.Context, ref string) (payments.Payment, error) {
	if ref == "" {
		return payments.Payment{}, errors.New("no payment id or internalId given")
	}
	byInternal := func() (payments.Payment, error) { return c.ByInternalID(ctx, ref) }
	byPaymentID := func() (payments.Payment, error) { return c.Get(ctx, ref) }
	first, second := byInternal, byPaymentID
	if payments.IsPaymentID(ref) {
		first, second = byPaymentID, byInternal
	}
	p, err := first()
	if err == nil || apierr.ClassOf(err) != apierr.ClassNotFound {
		return p, err
	}
	if p2, err2 := second(); err2 == nil {
		return p2, nil
	}
	return p, err
}
