package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"treasury/kit/fence"
	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/auth"
)

// Request is one call of an interface.
type Request struct {
	Method string
	// Path is relative to the base URL, without query, and already escaped
	// where it carries ids (use PathEscape).
	Path  string
	Query url.Values
	// Body is encoded as JSON once, so every attempt sends the same bytes.
	// A json.RawMessage or []byte is sent as is.
	Body any
	// Header holds extra headers (Accept for a download, an idempotency
	// key); Authorization is always the token source's.
	Header http.Header
	// Idempotent marks a POST that may be repeated: a search, or an action
	// whose idempotency key (internalId, intent id, mutationId) is in the
	// body. Other POSTs are never sent twice, except after a 401.
	Idempotent bool
	// NoAuth sends no Authorization header.
	NoAuth bool
	// URL, when set, is an http(s) URL the request goes to instead of the
	// base URL + Path + Query: a link the server gave (a report's
	// download_link); a relative one is resolved against the base URL as
	// RFC 3986 says. The token goes only to the base URL's
	// origin (scheme, host and port); a URL elsewhere (presigned storage)
	// is sent without Authorization, whatever NoAuth says. An empty Path
	// becomes the URL's path (with its host when elsewhere), which names
	// the request in logs and errors; the URL's query never does (a
	// presigned URL's query is a credential).
	URL string
}

// repeatable reports whether the request may be sent again after a failure
// that might have been processed.
func (r Request) repeatable() bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return true
	}
	return r.Idempotent
}

// Response is what Do tells of a success.
type Response struct {
	Status   int
	Header   http.Header
	Attempts int
}

// Do sends req and decodes a 2xx JSON answer into out (nil discards it; a
// *[]byte receives the raw body; a 204 or empty body leaves out as it is).
// A failure is an *apierr.Error (or the ctx error, or a network error
// wrapped with the request it failed), after the retries the spec allows.
func (c *Client) Do(ctx context.Context, req Request, out any) (Response, error) {
	if req.Method == "" {
		req.Method = http.MethodGet
	}
	if req.URL != "" {
		if err := c.absolute(&req); err != nil {
			return Response{}, err
		}
	}
	var body []byte
	if req.Body != nil {
		switch b := req.Body.(type) {
		case json.RawMessage:
			body = b
		case []byte:
			body = b
		default:
			var err error
			if body, err = json.Marshal(req.Body); err != nil {
				return Response{}, fmt.Errorf("%s %s %s: encode body: %w", c.cfg.Interface, req.Method, req.Path, err)
			}
		}
	}
	refreshed, retrying, reread := false, false, false
	var start time.Time // the last attempt's: OnCall tells how fast the platform answered it
	defer func() {
		if retrying && c.cfg.OnRetry != nil && ctx.Err() != nil {
			// Given up by the caller mid-retry: no longer being retried
			// (OnCall is not told of a call the caller cancelled).
			c.cfg.OnRetry(c.cfg.Interface, req.Path, 0, 0, nil)
		}
	}()
	for attempt := 1; ; attempt++ {
		start = c.cfg.Now()
		resp, err, sent := c.attempt(ctx, req, body, out, attempt)
		if fence.Fenced(err) {
			return Response{}, err // held back, not the platform's failure: told to nobody
		}
		if err == nil {
			resp.Attempts = attempt
			if c.cfg.OnCall != nil {
				c.cfg.OnCall(c.cfg.Interface, req.Path, c.cfg.Now().Sub(start), nil)
			}
			return resp.Response, nil
		}
		if ctx.Err() != nil {
			if gaveUp(ctx, err) {
				return Response{}, c.failed(ctx, req, start, err, attempt)
			}
			return Response{}, err
		}
		class := apierr.ClassOf(err)
		retryable := class.Retryable()
		if class == apierr.ClassMalformed && !reread && req.repeatable() {
			// A body that could not be read is read again once: a body cut
			// by a proxy or a connection is usually whole the next time;
			// a server that sends the same bad body twice is not asked a
			// third time.
			reread, retryable = true, true
		}
		switch {
		case class == apierr.ClassRefreshAuth && !refreshed && c.cfg.Auth != nil && !req.NoAuth:
			refreshed = true
			if !c.cfg.Auth.Invalidate(resp.token) {
				return Response{}, c.failed(ctx, req, start, err, attempt)
			}
			attempt-- // the refresh retry does not count against the backoff
			continue
		case !retryable,
			sent && !req.repeatable(),
			attempt >= c.cfg.Retry.Attempts:
			return Response{}, c.failed(ctx, req, start, err, attempt)
		}
		if c.cfg.Observer != nil {
			c.cfg.Observer.Retry(string(c.cfg.Interface), req.Method, req.Path)
		}
		if c.cfg.OnRetry != nil {
			// Told before the wait: the interface is failing now, while
			// the call is not over.
			retrying = true
			c.cfg.OnRetry(c.cfg.Interface, req.Path, attempt, c.cfg.Retry.Attempts, err)
		}
		if class == apierr.ClassMalformed {
			continue // read again at once: nothing to wait for
		}
		if serr := c.cfg.Sleep(ctx, c.cfg.Retry.Wait(attempt)); serr != nil {
			if gaveUp(ctx, err) {
				return Response{}, c.failed(ctx, req, start, err, attempt)
			}
			return Response{}, errors.Join(err, serr)
		}
	}
}

// gaveUp reports whether a call whose last attempt failed with err ends
// as the platform's failure although its context is done: the caller's
// deadline (a poll's budget, the fetch timeout) ran out while the platform
// kept failing, which the errors view and the health must see. A call the
// caller cancelled (a page closed) is not the platform's failure, nor an
// attempt cut by the deadline before any answer came.
func gaveUp(ctx context.Context, err error) bool {
	_, platform := apierr.As(err)
	return platform && errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, context.DeadlineExceeded)
}

// failed stamps the final error of a call with its attempts and the
// profile key, and tells OnCall. An error that is the call's own is
// stamped in place; one that other calls hold too (a token source answers
// every caller with its failure) is stamped on a copy.
func (c *Client) failed(ctx context.Context, req Request, start time.Time, err error, attempts int) error {
	if e, ok := err.(*apierr.Error); ok {
		own := *e
		err = &own
	}
	if e, ok := apierr.As(err); ok {
		e.Attempts = attempts
		if e.ConfigKey == "" {
			e.ConfigKey = c.cfg.ConfigKey
		}
	}
	if c.cfg.OnCall != nil {
		d := c.cfg.Now().Sub(start)
		report := func() { c.cfg.OnCall(c.cfg.Interface, req.Path, d, err) }
		if !keep(ctx, report) {
			report()
		}
	}
	return err
}

// Get sends GET path with query q (nil for none) and decodes the answer
// into a T: Do for the common read of one record or page.
func Get[T any](ctx context.Context, c *Client, path string, q url.Values) (T, error) {
	var v T
	_, err := c.Do(ctx, Request{Method: http.MethodGet, Path: path, Query: q}, &v)
	return v, err
}

// attempt sends req once. sent reports whether the request may have
// reached the server (false when it failed before: no token, bad URL).
func (c *Client) attempt(ctx context.Context, req Request, body []byte, out any, n int) (res attemptResp, err error, sent bool) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	start := c.cfg.Now()
	status := 0
	fenced := false
	defer func() {
		if !fenced { // a request held back never left: not an attempt
			c.record(req, n, status, c.cfg.Now().Sub(start), err)
		}
	}()

	hreq, err := http.NewRequestWithContext(ctx, req.Method, c.url(req), bodyReader(body))
	if err != nil {
		return res, fmt.Errorf("%s %s %s: %w", c.cfg.Interface, req.Method, req.Path, err), false
	}
	for k, v := range req.Header {
		hreq.Header[k] = v
	}
	if body != nil {
		hreq.Header.Set("Content-Type", "application/json")
	}
	if hreq.Header.Get("Accept") == "" {
		hreq.Header.Set("Accept", "application/json")
	}
	if c.cfg.UserAgent != "" {
		hreq.Header.Set("User-Agent", c.cfg.UserAgent)
	}
	if c.cfg.Auth != nil && !req.NoAuth {
		if ferr := fence.Check(ctx); ferr != nil { // a token's request is one too
			fenced = true
			return res, fmt.Errorf("%s %s %s: %w", c.cfg.Interface, req.Method, req.Path, ferr), false
		}
		tok, terr := c.cfg.Auth.Token(ctx)
		if terr != nil {
			return res, terr, false
		}
		res.token = tok
		hreq.Header.Set("Authorization", "Bearer "+tok.Reveal())
	}

	// The last thing before the request leaves: the lease it was made
	// under (a site's poll) still holds.
	if ferr := fence.Check(ctx); ferr != nil {
		fenced = true
		return res, fmt.Errorf("%s %s %s: %w", c.cfg.Interface, req.Method, req.Path, ferr), false
	}
	sentAt := c.cfg.Now()
	hresp, err := c.cfg.HTTP.Do(hreq)
	if err == nil && c.cfg.OnDate != nil {
		if d, derr := http.ParseTime(hresp.Header.Get("Date")); derr == nil {
			c.cfg.OnDate(c.cfg.Interface, sentAt, c.cfg.Now(), d)
		}
	}
	if err != nil {
		if parent.Err() != nil {
			return res, fmt.Errorf("%s %s %s: %w", c.cfg.Interface, req.Method, req.Path, parent.Err()), true
		}
		u := *hreq.URL
		u.RawQuery = ""
		return res, apierr.Network(c.cfg.Interface, req.Method, req.Path, u.String(), err, ctx.Err() != nil, c.cfg.Timeout), true
	}
	defer hresp.Body.Close()
	status = hresp.StatusCode
	res.Status, res.Header = hresp.StatusCode, hresp.Header

	if status/100 != 2 {
		raw, _ := io.ReadAll(io.LimitReader(hresp.Body, maxErrorBody))
		return res, apierr.Parse(c.cfg.Interface, req.Method, req.Path, status, raw), true
	}
	raw, rerr := io.ReadAll(io.LimitReader(hresp.Body, c.cfg.MaxBody+1))
	switch {
	case rerr != nil:
		return res, apierr.Malformed(c.cfg.Interface, req.Method, req.Path, status, fmt.Errorf("reading the body: %w", rerr)), true
	case int64(len(raw)) > c.cfg.MaxBody:
		return res, apierr.Malformed(c.cfg.Interface, req.Method, req.Path, status, fmt.Errorf("body larger than %d bytes", c.cfg.MaxBody)), true
	}
	if err := decode(raw, status, out); err != nil {
		return res, apierr.Malformed(c.cfg.Interface, req.Method, req.Path, status, err), true
	}
	return res, nil, true
}

// attemptResp is a Response plus the token the attempt used.
type attemptResp struct {
	Response
	token auth.Secret
}

func decode(raw []byte, status int, out any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("decoding panicked: %v", p)
		}
	}()
	if out == nil {
		return nil
	}
	if b, ok := out.(*[]byte); ok {
		*b = raw
		return nil
	}
	if status == http.StatusNoContent || len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return err
	}
	if rs, ok := out.(wire.RawSetter); ok {
		rs.SetRaw(bytes.Clone(raw)) // the record keeps what was received
	}
	return nil
}

func bodyReader(b []byte) io.Reader {
	if b == nil {
		return nil
	}
	return bytes.NewReader(b)
}

func (c *Client) url(req Request) string {
	if req.URL != "" {
		return req.URL
	}
	u := *c.base
	u.Path = c.base.Path + req.Path
	u.RawPath = ""
	if p, err := url.PathUnescape(req.Path); err == nil && p != req.Path {
		u.Path = c.base.Path + p
		u.RawPath = c.base.EscapedPath() + req.Path
	}
	if len(req.Query) > 0 {
		u.RawQuery = req.Query.Encode()
	}
	return u.String()
}

// PathEscape escapes an id for a path segment.
func PathEscape(id string) string { return url.PathEscape(id) }

func (c *Client) record(req Request, attempt, status int, d time.Duration, err error) {
	attrs := []any{
		"iface", string(c.cfg.Interface), "method", req.Method, "path", req.Path,
		"status", status, "duration_ms", d.Milliseconds(), "attempt", attempt,
	}
	if err != nil {
		if e, ok := apierr.As(err); ok {
			attrs = append(attrs, "code", e.Label(), "type", e.Type, "class", e.Class.String(),
				"timestamp", e.Timestamp, "message", e.Summary(), "request_id", e.RequestID)
		} else {
			attrs = append(attrs, "error", err.Error())
		}
		c.cfg.Log.Warn("request", attrs...)
	} else {
		c.cfg.Log.Info("request", attrs...)
	}
	if c.cfg.OnResult != nil {
		c.cfg.OnResult(c.cfg.Interface, req.Path, status, d, err)
	}
	if c.cfg.Observer != nil {
		c.cfg.Observer.Attempt(string(c.cfg.Interface), req.Method, req.Path, status, d)
	}
}

// Mutation is a request that changes the platform (an action), built
// whole before it is sent: its Line and Body are what the audit log
// records, and Send sends exactly them, the same bytes on every attempt of
// the transport.
type Mutation struct {
	Method string
	// Path is relative to the base URL, escaped, as it goes on the wire.
	Path string
	Body json.RawMessage
}

// NewMutation encodes body once into a mutation of method on path.
func NewMutation(method, path string, body any) (Mutation, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return Mutation{}, fmt.Errorf("encode %s %s: %w", method, path, err)
	}
	return Mutation{Method: method, Path: path, Body: b}, nil
}

// Line is the request line as sent, relative to the base URL: "PUT
// /v2/vaults/v/wallets/w/transactions/t/freeze".
func (m Mutation) Line() string { return m.Method + " " + m.Path }

// Send sends m, marked Idempotent (its idempotency key is in its body), and
// decodes the answer into out as Do does.
func (c *Client) Send(ctx context.Context, m Mutation, out any) (Response, error) {
	return c.Do(ctx, Request{Method: m.Method, Path: m.Path, Body: m.Body, Idempotent: true}, out)
}
