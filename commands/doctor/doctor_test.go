package doctor

import (
	"context"
	"crypto/x509"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"treasury/config"
	"treasury/wire/apierr"
)

func byName(checks []Check, name string) Check {
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	return Check{Name: name + " (missing)"}
}

func prober0(o Options) *prober {
	return newProber(&config.Config{Profile: "uat"}, o.withDefaults())
}

// TestReachTLS: an https server whose certificate is trusted gives its
// TLS version and expiry; close to expiry it warns; untrusted, it fails
// with the guidance of an unreachable interface, and no request is sent.
func TestReachTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	srv.StartTLS()
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())

	checks, ok := prober0(Options{RootCAs: pool}).reach(context.Background(), apierr.Custody, "profiles.uat.custody", "base_url", srv.URL)
	tlsc := byName(checks, "tls")
	if !ok || tlsc.Status != OK || !strings.HasPrefix(tlsc.Detail, "TLS 1.3; certificate example.com expires in ") {
		t.Errorf("trusted: ok %v, %+v", ok, tlsc)
	}
	if tcp := byName(checks, "tcp"); tcp.Status != OK || !strings.Contains(tcp.Detail, "connected to "+srv.Listener.Addr().String()+" in ") {
		t.Errorf("tcp: %+v", tcp)
	}

	soon := func() time.Time { return srv.Certificate().NotAfter.Add(-3 * 24 * time.Hour) }
	checks, ok = prober0(Options{RootCAs: pool, Now: soon}).reach(context.Background(), apierr.Custody, "profiles.uat.custody", "base_url", srv.URL)
	if c := byName(checks, "tls"); !ok || c.Status != Warn || !strings.Contains(c.Detail, "expires in 3 days") || c.Guidance == "" {
		t.Errorf("close to expiry: ok %v, %+v", ok, c)
	}

	checks, ok = prober0(Options{}).reach(context.Background(), apierr.Custody, "profiles.uat.custody", "base_url", srv.URL)
	c := byName(checks, "tls")
	if ok || c.Status != Fail || c.Err == nil || c.Err.Class != apierr.ClassUnreachable ||
		!strings.Contains(c.Detail, "not trusted") || !strings.Contains(c.Guidance, "profiles.uat.custody.base_url") {
		t.Errorf("untrusted: ok %v, %+v", ok, c)
	}
}

// TestReachDNSFailure: a name that cannot resolve (.invalid, RFC 2606)
// fails at DNS, named, and nothing further is tried.
func TestReachDNSFailure(t *testing.T) {
	checks, ok := prober0(Options{Timeout: 2 * time.Second}).reach(context.Background(), apierr.Auth, "profiles.uat.payments", "auth_url", "https://auth.doctor.invalid/v2")
	if ok || len(checks) != 1 {
		t.Fatalf("ok %v, %+v", ok, checks)
	}
	c := checks[0]
	if c.Name != "dns" || c.Status != Fail || !strings.Contains(c.Detail, "auth.doctor.invalid") || !strings.Contains(c.Guidance, "profiles.uat.payments.auth_url") {
		t.Errorf("%+v", c)
	}
}

// TestReachThroughProxy: behind a proxy, DNS and TCP are the proxy's
// (the target's name may not resolve here at all) and TLS is left to
// the request.
func TestReachThroughProxy(t *testing.T) {
	proxy := httptest.NewServer(http.NotFoundHandler())
	defer proxy.Close()
	pu, _ := url.Parse(proxy.URL)
	o := Options{Proxy: func(*http.Request) (*url.URL, error) { return pu, nil }}
	checks, ok := prober0(o).reach(context.Background(), apierr.Wallet, "profiles.uat.wallet", "base_url", "https://wallet.doctor.invalid")
	if !ok {
		t.Fatalf("not reachable through the proxy: %+v", checks)
	}
	if c := byName(checks, "tcp"); c.Status != OK || !strings.HasPrefix(c.Detail, "proxy connected to "+pu.Host) {
		t.Errorf("tcp: %+v", c)
	}
	if c := byName(checks, "tls"); c.Status != Skip || !strings.Contains(c.Detail, "tunnelled through the proxy "+pu.Host) {
		t.Errorf("tls: %+v", c)
	}
}

// TestClock: the largest difference between the local clock and a Date
// header is named with its direction; over SkewWarn it warns, over the
// webhook tolerance it fails.
func TestClock(t *testing.T) {
	local := time.Date(2026, 3, 1, 12, 0, 0, 250_000_000, time.UTC)
	at := func(d time.Duration) dated {
		return dated{iface: apierr.Wallet, date: local.Add(d).Truncate(time.Second), local: local}
	}
	for _, tc := range []struct {
		name      string
		tolerance time.Duration
		dates     []dated
		status    Status
		want      string
	}{
		{"none", 0, nil, Skip, "no server answered"},
		{"in sync", 0, []dated{at(0), at(300 * time.Millisecond)}, OK, "within 1 s of the servers' Date headers (2 answers)"},
		{"behind", 0, []dated{at(0), at(45 * time.Second)}, Warn, "this host's clock is 45 s behind the wallet server's Date header"},
		{"ahead", 0, []dated{at(-12 * time.Second)}, OK, "this host's clock is 12 s ahead of the wallet server's"},
		{"past tolerance", time.Minute, []dated{at(-90 * time.Second)}, Fail, "1m30s ahead of the wallet server's Date header (±1 s); webhook signatures are accepted within 1m0s"},
	} {
		cfg := &config.Config{Profile: "uat"}
		if tc.tolerance > 0 {
			cfg.Webhooks = &config.Webhooks{Listen: "127.0.0.1:0", Tolerance: tc.tolerance}
		}
		p := newProber(cfg, Options{}.withDefaults())
		for _, d := range tc.dates {
			p.dates.add(d)
		}
		c := p.clock().Checks[0]
		if c.Status != tc.status || !strings.Contains(c.Detail, tc.want) || (c.Status >= Warn) != (c.Guidance != "") {
			t.Errorf("%s: %v %q (guidance %q); want %v %q", tc.name, c.Status, c.Detail, c.Guidance, tc.status, tc.want)
		}
	}
}

// TestSkewOfATruncatedDate: a Date header drops the fraction of its
// second; the estimate is within half a second of the true offset.
func TestSkewOfATruncatedDate(t *testing.T) {
	local := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, frac := range []time.Duration{0, 100 * time.Millisecond, 999 * time.Millisecond} {
		for _, offset := range []time.Duration{0, 40 * time.Second, -40 * time.Second} {
			server := local.Add(frac + offset)
			if got := Skew(server.Truncate(time.Second), local.Add(frac)); (got - offset).Abs() > 500*time.Millisecond {
				t.Errorf("frac %v offset %v: skew %v", frac, offset, got)
			}
		}
	}
}

func TestFormats(t *testing.T) {
	for d, want := range map[time.Duration]string{42 * time.Microsecond: "42 µs", 1500 * time.Microsecond: "1.5 ms",
		12 * time.Millisecond: "12 ms", 1200 * time.Millisecond: "1.2 s"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int]string{1: "1 quote", 0: "0 quotes", 999: "999 quotes", 1000: "1,000 quotes", 3628802: "3,628,802 quotes"} {
		if got := count(n, "quote"); got != want {
			t.Errorf("count(%d) = %q, want %q", n, got, want)
		}
	}
	if Fingerprint(nil) != "" {
		t.Error("a nil key has a fingerprint")
	}
}
