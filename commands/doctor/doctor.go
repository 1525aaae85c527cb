// Package doctor is the `treasury doctor` command: it checks a
// configuration profile against the services it names (Run), and Command
// writes the report as each section ends. Per interface, it checks that
// the host of its base URL resolves, that a TCP connection opens (and in
// how long), the TLS version and certificate expiry for https, and that
// its credentials work (a token is issued and the smallest documented
// read, a page of one record, is accepted); then whether the webhook
// receiver's port is free or held, and by which process; and how far the
// local clock is from the servers' Date headers, since webhook signatures
// carry a timestamp that is checked within a tolerance.
//
// A failed check carries the *apierr.Error it came from, and with it the
// guidance the dashboard gives for that error: a wrong secret, an unknown
// custody domain, an unreachable host, a timeout. Every check is bounded
// by Options.Timeout and sent once: the doctor reports what it sees, it
// does not retry.
//
// The diagnosis prints nothing: Command (command.go) writes its report,
// sanitizing the text that came from the network (error messages). No
// check's text holds a secret: credentials are named by their client ids,
// keys by their public fingerprints.
package doctor

import (
	"context"
	"crypto/x509"
	"net/http"
	"net/url"
	"time"

	"treasury/config"
	"treasury/kit/parallel"
	"treasury/wire/apierr"
)

// Status is the outcome of one check.
type Status uint8

// Outcomes, from best to worst; Skip is a check that does not apply or
// was not tried (its Detail says why).
const (
	Skip Status = iota
	OK
	Warn
	Fail
)

func (s Status) String() string {
	switch s {
	case OK:
		return "ok"
	case Warn:
		return "warn"
	case Fail:
		return "fail"
	}
	return "skip"
}

// Check is one line of the report.
type Check struct {
	// Name is what was checked: dns, tcp, tls, auth, key, port, cert, skew.
	Name   string
	Status Status
	// Detail says what was found, in one line: an address, a time, a
	// version, a client id, an error.
	Detail string
	// Err is the failure as the interfaces' one error type, when there is
	// one: its class and Guidance.
	Err *apierr.Error
	// Guidance says what to do about a failure or a warning; "" when there
	// is nothing to do.
	Guidance string
}

// Section is the checks of one interface, of the webhook receiver, of the
// clock or of the state directory.
type Section struct {
	// Name is the interface's name (liquidity, payments, reporting,
	// wallet, custody), "webhooks", "clock" or "state".
	Name string
	// Target is what was checked: the base URL (and, for payments, the
	// token issuer's), the receiver's listen address; "" for the clock.
	Target string
	Checks []Check
}

// Status is the worst status of the section's checks.
func (s Section) Status() Status {
	worst := Skip
	for _, c := range s.Checks {
		worst = max(worst, c.Status)
	}
	return worst
}

// Defaults and thresholds.
const (
	// DefaultTimeout bounds each check (a lookup, a connection, a handshake,
	// a request).
	DefaultTimeout = 5 * time.Second
	// SkewWarn is the clock skew above which the clock check warns.
	SkewWarn = 30 * time.Second
	// CertWarn is how close to its expiry a certificate is warned about.
	CertWarn = 14 * 24 * time.Hour
)

// Options tune Run.
type Options struct {
	// Timeout bounds each check; zero means DefaultTimeout.
	Timeout time.Duration
	// Now is the local clock, compared with the servers' Date headers;
	// nil means time.Now.
	Now func() time.Time
	// Proxy picks the proxy of a request, as http.Transport.Proxy (pass
	// http.ProxyFromEnvironment to do as the dashboard does); nil means
	// none. Behind a proxy, DNS and TCP are checked for the proxy.
	Proxy func(*http.Request) (*url.URL, error)
	// RootCAs verify the servers' certificates; nil means the system's.
	RootCAs *x509.CertPool
	// UserAgent is sent with every request.
	UserAgent string
	// Embedded says the profile is the embedded sandbox started for this
	// run, whose webhook receiver takes a free loopback port when it
	// starts: there is no fixed port to check.
	Embedded bool
	// StateDir is the state directory (audit, request and session logs),
	// whose room and audit log are checked; "" skips it.
	StateDir string
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Run checks cfg's interfaces, webhook receiver, clock and state
// directory (and the site, when the profile configures one), and hands
// each section to emit, in a fixed order (liquidity, payments, reporting,
// wallet, custody, webhooks, clock, state, site), as soon
// as it and those before it are done; the interfaces are checked
// concurrently. emit is called from Run's goroutine. Run returns every
// section.
func Run(ctx context.Context, cfg *config.Config, o Options, emit func(Section)) []Section {
	o = o.withDefaults()
	p := newProber(cfg, o)
	defer p.close()
	jobs := []func(context.Context) Section{
		p.liquidity, p.payments, p.reporting, p.wallet, p.custody, p.webhooks,
	}
	out := make([]Section, 0, len(jobs)+1)
	// Every job runs to its end (each answers its own cancellation with a
	// section saying so), so the order is kept apart from ctx.
	parallel.InOrder(context.WithoutCancel(ctx), 0, 0, len(jobs), func(_ context.Context, i int) Section {
		return jobs[i](ctx)
	}, func(s Section) bool {
		out = append(out, s)
		if emit != nil {
			emit(s)
		}
		return true
	})
	last := []Section{p.clock(), p.state()}
	if cfg.Cluster != nil {
		last = append(last, p.site(ctx))
	}
	for _, last := range last {
		if emit != nil {
			emit(last)
		}
		out = append(out, last)
	}
	return out
}

// Failed reports whether any check of the sections failed.
func Failed(sections []Section) bool {
	for _, s := range sections {
		if s.Status() == Fail {
			return true
		}
	}
	return false
}
