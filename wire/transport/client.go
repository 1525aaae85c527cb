// Package transport is the HTTP core every platform client shares: it adds
// the bearer token, sends JSON, decodes the answer into a typed record or an
// *apierr.Error (apierr.Parse), retries exactly what spec 7.1 allows with
// its backoff, refreshes the token once on 401, bounds time and body size,
// logs each attempt to a file and reports each result to a health hook.
//
// Retry rules (spec 7.1, 7.2): only errors whose apierr class is Retry
// (payments SYS_ 500, wallet codes 13 and 14, 5xx of liquidity, reporting
// and custody, a connection lost mid-request) are retried, with waits of 2,
// 4, 8, 16 s (each plus 10-20 % jitter, capped at 60 s), at most 5
// attempts. A body that cannot be decoded, a 4xx, a refused connection, a
// failed DNS lookup or TLS handshake and a timeout are not retried within
// the call: the caller (a poll) tries again later, with its own backoff.
// Every failure is an *apierr.Error naming the interface, the method and
// the path (the URL for network failures). Only requests that may be
// repeated are retried:
// GET, HEAD, PUT and DELETE, and a POST the caller marks Idempotent (a
// search, or an action whose idempotency key is in the body, unchanged on
// every attempt because the body is encoded once). A 401 invalidates the
// token, and the request is sent once more with a new one, whatever its
// method: a 401 means it was not processed.
package transport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"treasury/wire/apierr"
	"treasury/wire/auth"
)

// Defaults.
const (
	DefaultTimeout  = 30 * time.Second
	DefaultMaxBody  = 32 << 20 // 32 MiB: the largest report download
	maxErrorBody    = 64 << 10
	DefaultAttempts = 5
	DefaultBase     = 2 * time.Second
	DefaultCap      = 60 * time.Second
)

// Config configures a Client. Interface, BaseURL and (for authenticated
// interfaces) Auth are required; everything else has a default.
type Config struct {
	Interface apierr.Interface
	// BaseURL is the interface's base address ({base_url}); request paths
	// are appended to it.
	BaseURL string
	// Auth gives the bearer token; nil sends none.
	Auth auth.Source
	// HTTP sends requests; nil means a client with no overall timeout
	// (Timeout bounds each attempt).
	HTTP *http.Client
	// Timeout bounds one attempt, body included; zero means DefaultTimeout.
	Timeout time.Duration
	// MaxBody bounds a success body; zero means DefaultMaxBody.
	MaxBody int64
	// Retry is the backoff policy; the zero value is spec 7.1's.
	Retry Retry
	// Sleep waits between attempts; nil means a timer that ends with ctx.
	// Tests inject one that records the waits and returns at once.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for durations; nil means time.Now.
	Now func() time.Time
	// Log receives one record per attempt; nil logs nothing. See OpenLog.
	Log *slog.Logger
	// OnResult, when set, is told the outcome of every attempt (status 0 for
	// a network error): the live store's health of the interface.
	OnResult func(iface apierr.Interface, path string, status int, d time.Duration, err error)
	// OnCall, when set, is told the outcome of each call once, after its
	// retries (err nil on success; a failure is an *apierr.Error with
	// Attempts set, or another error before anything was sent), but not of
	// a call the caller cancelled: the live store's health and its book of
	// recent failures, which count calls, not attempts. d is the last
	// attempt's duration (how fast the platform answered), not the
	// call's with its retries' waits.
	OnCall func(iface apierr.Interface, path string, d time.Duration, err error)
	// OnRetry, when set, is told each failed attempt that will be tried
	// again (before the wait): attempt n of at most of, and its error. The
	// interface is failing now although the call is not over. A call the
	// caller cancels while it is being retried is told once more with
	// attempt 0: it is no longer being retried.
	OnRetry func(iface apierr.Interface, path string, attempt, of int, err error)
	// OnDate, when set, is told the Date header of every answer: the
	// server's clock (to the second) at some instant between sent and
	// received (both on Now's clock). The live store estimates each
	// interface's clock from them.
	OnDate func(iface apierr.Interface, sent, received, date time.Time)
	// Observer, when set, is told every attempt and every retry, with
	// the method: the process's metrics.
	Observer Observer
	// UserAgent is sent when set.
	UserAgent string
	// ConfigKey is the profile section of the interface
	// ("profiles.uat.custody"), carried by every error for guidance.
	ConfigKey string
}

// Observer is told what a client sends: each attempt as the request log
// has it (status 0: no answer; d from sending to the answer read whole)
// and each failed attempt that is tried again. Path is as sent, ids in
// it: an observer that labels by it must bound it (metrics.Operation).
type Observer interface {
	Attempt(iface, method, path string, status int, d time.Duration)
	Retry(iface, method, path string)
}

// Client sends requests to one interface.
type Client struct {
	cfg  Config
	base *url.URL
}

// New checks cfg and returns a Client.
func New(cfg Config) (*Client, error) {
	if cfg.Interface == "" {
		return nil, errors.New("transport: interface name is required")
	}
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("transport: %s base URL must be an absolute http(s) URL, got %q", cfg.Interface, cfg.BaseURL)
	}
	if cfg.HTTP == nil {
		cfg.HTTP = NewHTTP()
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	cfg.Retry = cfg.Retry.withDefaults()
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return &Client{cfg: cfg, base: u}, nil
}

// DialTimeout bounds connecting (DNS, TCP, TLS handshake) so that a wrong
// base URL is named within seconds, not after the attempt's timeout.
const DialTimeout = 3 * time.Second

// NewHTTP returns the HTTP client the platform's interfaces share when the
// caller gives none: connections that fail within DialTimeout, a TLS
// handshake within 5 s, the proxy of the environment, and no overall
// timeout (Config.Timeout bounds each attempt).
func NewHTTP() *http.Client {
	d := &net.Dialer{Timeout: DialTimeout, KeepAlive: 30 * time.Second}
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ExpectContinueTimeout: time.Second,
	}}
}

// Interface names the interface the client speaks to.
func (c *Client) Interface() apierr.Interface { return c.cfg.Interface }

// Retry is the backoff policy.
type Retry struct {
	// Attempts is the most attempts of one request (zero: 5). 1 disables
	// retries.
	Attempts int
	// Base is the first wait (zero: 2 s); each later wait doubles.
	Base time.Duration
	// Cap bounds one wait (zero: 60 s).
	Cap time.Duration
	// Jitter returns a number in [0, 1) that picks the added jitter between
	// 10 and 20 %; nil means math/rand.
	Jitter func() float64
}

func (r Retry) withDefaults() Retry {
	if r.Attempts <= 0 {
		r.Attempts = DefaultAttempts
	}
	if r.Base <= 0 {
		r.Base = DefaultBase
	}
	if r.Cap <= 0 {
		r.Cap = DefaultCap
	}
	if r.Jitter == nil {
		r.Jitter = rand.Float64
	}
	return r
}

// Wait is the wait before retry n (1 for the first retry): Base doubled
// n-1 times, plus 10 to 20 % jitter, capped at Cap.
func (r Retry) Wait(n int) time.Duration {
	r = r.withDefaults()
	d := r.Base
	for i := 1; i < n && d < r.Cap; i++ {
		d *= 2
	}
	j := r.Jitter()
	if j < 0 || j >= 1 {
		j = 0
	}
	d += time.Duration(float64(d) * (0.10 + 0.10*j))
	if d > r.Cap {
		d = r.Cap
	}
	return d
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
