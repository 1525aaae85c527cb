package auth

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"treasury/wire/apierr"
)

// Token is a freshly issued bearer token and the lifetime the issuer gave it
// (expires_in).
type Token struct {
	Value     Secret
	ExpiresIn time.Duration
}

// FetchFunc obtains a new token from an issuer.
type FetchFunc func(ctx context.Context) (Token, error)

// DefaultMargin is how long before expiry a token is replaced. Tokens with
// a short lifetime are replaced after 90 % of it instead.
const DefaultMargin = 60 * time.Second

// fetchTimeout bounds one token request; it runs detached from the caller
// that started it, because other callers wait for the same result.
const fetchTimeout = 30 * time.Second

// Cached reuses a fetched token until shortly before it expires and never
// past expires_in (spec 5.3), and fetches once however many callers ask at
// the same time.
//
// Expiry is counted from the moment the request for the token was sent, by
// the injected clock. The JWT exp claim is deliberately not read: the token
// is opaque to the client (spec 5.4) and a skewed issuer clock must not
// stretch its life.
type Cached struct {
	fetch   FetchFunc
	now     func() time.Time
	margin  time.Duration
	onFetch func(error)
	group   singleflight.Group

	mu        sync.Mutex
	tok       Secret
	issued    time.Time // when the request for tok was sent
	expiry    time.Time // issue + expires_in: never used at or after it
	refreshAt time.Time // expiry - margin: replaced from then on

	// A refusal of the credentials (apierr.ClassCredentials) is one
	// failure of the profile, however many topics need the token: it is
	// answered from memory until refusedUntil, the wait doubling with
	// each refusal (RefusalWait up to MaxRefusalWait), instead of asking
	// the issuer again for every poll of every topic.
	refused      error
	refusedUntil time.Time
	refusals     int
}

// RefusalWait and MaxRefusalWait bound how long a refusal of the
// credentials is remembered before the issuer is asked again.
const (
	RefusalWait    = 30 * time.Second
	MaxRefusalWait = 5 * time.Minute
)

// CachedOptions tune a Cached source; the zero value is the default.
type CachedOptions struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Margin is how long before expiry the token is replaced; zero means
	// DefaultMargin.
	Margin time.Duration
	// OnFetch, when set, is told each token asked of the issuer (the
	// first, each renewal, each after an invalidation), err its failure:
	// the process's metrics.
	OnFetch func(err error)
}

// NewCached wraps fetch.
func NewCached(fetch FetchFunc, o CachedOptions) *Cached {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Margin <= 0 {
		o.Margin = DefaultMargin
	}
	return &Cached{fetch: fetch, now: o.Now, margin: o.Margin, onFetch: o.OnFetch}
}

// current returns the cached token when it is still to be used.
func (c *Cached) current() (Secret, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if c.tok.IsZero() {
		return Secret{}, false
	}
	if !now.Before(c.expiry) {
		c.tok = Secret{} // never kept past expires_in
		return Secret{}, false
	}
	return c.tok, now.Before(c.refreshAt)
}

// Token returns the cached token, or fetches a new one. Concurrent callers
// share one fetch; a caller whose ctx ends stops waiting, the fetch goes on
// for the others.
func (c *Cached) Token(ctx context.Context) (Secret, error) {
	if tok, ok := c.current(); ok {
		return tok, nil
	}
	if err := c.stillRefused(); err != nil {
		return Secret{}, own(err)
	}
	ch := c.group.DoChan("token", func() (any, error) {
		if tok, ok := c.current(); ok {
			return tok, nil
		}
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fetchTimeout)
		defer cancel()
		sent := c.now()
		t, err := c.fetch(fctx)
		if c.onFetch != nil {
			c.onFetch(err)
		}
		if err != nil {
			c.remember(err)
			return Secret{}, err
		}
		margin := c.margin
		if m := t.ExpiresIn / 10; m < margin {
			margin = m
		}
		c.mu.Lock()
		c.refused, c.refusals = nil, 0
		c.tok = t.Value
		c.issued = sent
		c.expiry = sent.Add(t.ExpiresIn)
		c.refreshAt = c.expiry.Add(-margin)
		c.mu.Unlock()
		return t.Value, nil
	})
	select {
	case <-ctx.Done():
		return Secret{}, ctx.Err()
	case r := <-ch:
		if r.Err != nil {
			return Secret{}, own(r.Err)
		}
		return r.Val.(Secret), nil
	}
}

// own gives a caller its own copy of a failure that several share (the
// callers of one fetch, and those answered from a remembered refusal):
// the transport stamps the error it returns (Attempts, ConfigKey), and
// concurrent callers (payments and reporting polls, which share the
// payments token) must not write to one value.
func own(err error) error {
	if e, ok := err.(*apierr.Error); ok {
		cp := *e
		return &cp
	}
	return err
}

// stillRefused returns the remembered refusal while it stands.
func (c *Cached) stillRefused() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refused != nil && c.now().Before(c.refusedUntil) {
		return c.refused
	}
	return nil
}

// remember keeps a refusal of the credentials (not a transient failure).
func (c *Cached) remember(err error) {
	if apierr.ClassOf(err) != apierr.ClassCredentials {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refused = err
	c.refusedUntil = c.now().Add(min(RefusalWait<<min(c.refusals, 8), MaxRefusalWait))
	c.refusals++
}

// Forget drops a remembered refusal, so the next Token asks the issuer
// (after the profile's credentials were fixed, or on an explicit retry).
func (c *Cached) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refused, c.refusals = nil, 0
}

// Invalidate drops tok if it is still the current token.
func (c *Cached) Invalidate(tok Secret) bool {
	c.mu.Lock()
	if c.tok.Equal(tok) {
		c.tok = Secret{}
	}
	c.mu.Unlock()
	return true
}

// Expiry is when the current token expires; zero when none is held (a
// token past its expiry is not: the next call fetches another).
func (c *Cached) Expiry() time.Time {
	_, exp := c.Held()
	return exp
}

// Held is when the token held now was asked for and when it expires, by
// the source's clock (CachedOptions.Now); zeros when none is held, or the
// one held is past its expiry and will not be used again. It is what the
// client knows of its token without asking: a test of the token with the
// issuer tells what the issuer counts.
func (c *Cached) Held() (issued, expiry time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tok.IsZero() || !c.now().Before(c.expiry) {
		return time.Time{}, time.Time{}
	}
	return c.issued, c.expiry
}
