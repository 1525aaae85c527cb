package doctor

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"treasury/config"
	"treasury/wire/apierr"
	"treasury/wire/auth"
)

// prober holds what one Run shares: the options, the HTTP transport of
// the requests and the Date headers they brought back.
type prober struct {
	cfg   *config.Config
	o     Options
	base  *http.Transport
	dates *dateLog

	payOnce  sync.Once
	payToken *auth.Cached // the payments token source, shared with reporting
}

func newProber(cfg *config.Config, o Options) *prober {
	d := &net.Dialer{Timeout: o.Timeout}
	return &prober{cfg: cfg, o: o, dates: &dateLog{}, base: &http.Transport{
		Proxy:               o.Proxy,
		DialContext:         d.DialContext,
		TLSClientConfig:     &tls.Config{RootCAs: o.RootCAs},
		TLSHandshakeTimeout: o.Timeout,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 4,
	}}
}

func (p *prober) close() { p.base.CloseIdleConnections() }

// client is the HTTP client of one interface's requests: each request
// bounded by the timeout, each answer's Date header noted under iface.
func (p *prober) client(iface apierr.Interface) *http.Client {
	return &http.Client{Timeout: p.o.Timeout, Transport: dateRecorder{next: p.base, iface: iface, now: p.o.Now, log: p.dates}}
}

// reach checks that the host of raw (a base URL) resolves, accepts a TCP
// connection and, for https, completes a TLS handshake with a trusted
// certificate. ok says the address can be reached, so that a request is
// worth sending. key is the profile section and setting its key in it
// that holds raw (base_url, auth_url), for guidance.
func (p *prober) reach(ctx context.Context, iface apierr.Interface, key, setting, raw string) (checks []Check, ok bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return []Check{{Name: "url", Status: Fail, Detail: fmt.Sprintf("%q is not an absolute http or https URL", raw),
			Guidance: "Set " + key + "." + setting + " to the interface's address, such as https://api.example.com/v1."}}, false
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	via := ""
	if p.o.Proxy != nil {
		if pu, err := p.o.Proxy(&http.Request{URL: u, Header: http.Header{}}); err == nil && pu != nil {
			via = pu.Host
			host, port = pu.Hostname(), pu.Port()
			if port == "" {
				port = map[string]string{"http": "80", "https": "443"}[pu.Scheme]
			}
		}
	}
	network := func(cause error, timedOut bool) *apierr.Error {
		e := apierr.Network(iface, "", "", raw, cause, timedOut, p.o.Timeout)
		e.ConfigKey = key
		return e
	}
	fail := func(name, what string, e *apierr.Error) Check {
		return Check{Name: name, Status: Fail, Detail: what + ": " + e.Message, Err: e, Guidance: e.Guidance()}
	}
	prefix := ""
	if via != "" {
		prefix = "proxy "
	}

	// DNS.
	if ip := net.ParseIP(host); ip != nil {
		checks = append(checks, Check{Name: "dns", Status: OK, Detail: prefix + host + " is an address: nothing to resolve"})
	} else {
		lctx, cancel := context.WithTimeout(ctx, p.o.Timeout)
		addrs, err := net.DefaultResolver.LookupHost(lctx, host)
		timedOut := lctx.Err() != nil
		cancel()
		if err != nil {
			return append(checks, fail("dns", prefix+host, network(err, timedOut))), false
		}
		checks = append(checks, Check{Name: "dns", Status: OK, Detail: prefix + host + " resolves to " + list(addrs, 3)})
	}

	// TCP.
	addr := net.JoinHostPort(host, port)
	dctx, cancel := context.WithTimeout(ctx, p.o.Timeout)
	start := time.Now()
	conn, err := (&net.Dialer{}).DialContext(dctx, "tcp", addr)
	took := time.Since(start)
	timedOut := dctx.Err() != nil
	cancel()
	if err != nil {
		return append(checks, fail("tcp", prefix+addr, network(err, timedOut))), false
	}
	checks = append(checks, Check{Name: "tcp", Status: OK, Detail: fmt.Sprintf("%sconnected to %s in %s", prefix, conn.RemoteAddr(), Duration(took))})

	// TLS.
	switch {
	case via != "":
		conn.Close()
		checks = append(checks, Check{Name: "tls", Status: Skip, Detail: "tunnelled through the proxy " + via + ": checked by the request below"})
	case u.Scheme == "http":
		conn.Close()
		if loopback(host) {
			checks = append(checks, Check{Name: "tls", Status: Skip, Detail: "plain http on loopback: no TLS"})
		} else {
			checks = append(checks, Check{Name: "tls", Status: Warn, Detail: "plain http: the token travels unencrypted",
				Guidance: "Use the https address of the interface in " + key + "." + setting + "."})
		}
	default:
		c, ok := p.handshake(ctx, conn, host, raw, network)
		checks = append(checks, c)
		if !ok {
			return checks, false
		}
	}
	return checks, true
}

// handshake completes TLS over conn (and closes it) and says which
// version and when the server's certificate expires.
func (p *prober) handshake(ctx context.Context, conn net.Conn, host, raw string, network func(error, bool) *apierr.Error) (Check, bool) {
	hctx, cancel := context.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	tc := tls.Client(conn, &tls.Config{ServerName: host, RootCAs: p.o.RootCAs})
	defer tc.Close()
	if err := tc.HandshakeContext(hctx); err != nil {
		e := network(err, hctx.Err() != nil)
		if e.Class == apierr.ClassRetry { // a reset mid-handshake: the server does not speak TLS here
			e.Class, e.Message = apierr.ClassUnreachable, "TLS handshake failed: "+err.Error()
		}
		return Check{Name: "tls", Status: Fail, Detail: e.Message, Err: e, Guidance: e.Guidance()}, false
	}
	st := tc.ConnectionState()
	c := Check{Name: "tls", Status: OK, Detail: tls.VersionName(st.Version)}
	if len(st.PeerCertificates) > 0 {
		leaf := st.PeerCertificates[0]
		c.Detail += "; " + certExpiry(leaf.NotAfter, p.o.Now(), "certificate "+certName(leaf.Subject.CommonName, leaf.DNSNames))
		if left := leaf.NotAfter.Sub(p.o.Now()); left < CertWarn {
			c.Status = Warn
			c.Guidance = "The service's certificate is close to its expiry: tell its operator."
		}
	}
	if st.Version < tls.VersionTLS12 {
		c.Status = Warn
		c.Guidance = "The server negotiated a TLS version older than 1.2."
	}
	return c, true
}

// certName names a certificate by its first DNS name, else its common name.
func certName(cn string, dns []string) string {
	if len(dns) > 0 {
		return dns[0]
	}
	if cn != "" {
		return cn
	}
	return "of the server"
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// list joins the first n items, then says how many more there are.
func list(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// Duration formats a short time for people: 85 µs, 0.3 ms, 12 ms, 1.2 s.
func Duration(d time.Duration) string {
	switch {
	case d < 100*time.Microsecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// certExpiry says when the certificate named what expires: "certificate
// api.example.com expires in 43 days (2026-03-01)", or that it expired.
func certExpiry(notAfter, now time.Time, what string) string {
	date := notAfter.UTC().Format(time.DateOnly)
	left := notAfter.Sub(now)
	switch n := int(left / (24 * time.Hour)); {
	case left < 0:
		return fmt.Sprintf("%s expired on %s", what, date)
	case n == 1:
		return fmt.Sprintf("%s expires in 1 day (%s)", what, date)
	default:
		return fmt.Sprintf("%s expires in %d days (%s)", what, n, date)
	}
}

// asAPIError is err as the interfaces' error type: a request that ran out
// of time before the transport could say so becomes a timeout, with its
// guidance. ok is false for an error of another kind.
func asAPIError(err error, iface apierr.Interface, key, what string, timeout time.Duration) (*apierr.Error, bool) {
	if e, ok := apierr.As(err); ok {
		if e.ConfigKey == "" {
			e.ConfigKey = key
		}
		return e, true
	}
	if errors.Is(err, context.DeadlineExceeded) {
		e := apierr.Network(iface, "", "", what, err, true, timeout)
		e.ConfigKey = key
		return e, true
	}
	return nil, false
}
