package apierr

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestNetworkClasses(t *testing.T) {
	// A refused connection: nothing listens on port 1.
	_, err := (&http.Client{}).Get("http://127.0.0.1:1/x")
	e := Network(Custody, "GET", "/x", "http://127.0.0.1:1/x", err, false, 0)
	if e.Class != ClassUnreachable || e.Message != "connection refused" || e.Class.Retryable() {
		t.Fatalf("refused: %+v", e)
	}
	if !strings.Contains(e.Error(), "custody GET http://127.0.0.1:1/x: connection refused") {
		t.Fatalf("Error() = %q", e.Error())
	}
	dns := &net.DNSError{Err: "no such host", Name: "nowhere.invalid", IsNotFound: true}
	if e := Network(Wallet, "GET", "/v2/vaults", "", dns, false, 0); e.Class != ClassUnreachable || !strings.Contains(e.Message, "nowhere.invalid") {
		t.Fatalf("dns: %+v", e)
	}
	if e := Network(Wallet, "GET", "/", "", context.DeadlineExceeded, true, 30*time.Second); e.Class != ClassTimeout || e.Message != "no answer within 30s" {
		t.Fatalf("timeout: %+v", e)
	}
	if e := Network(Wallet, "GET", "/", "", errors.New("read: connection reset by peer"), false, 0); e.Class != ClassRetry {
		t.Fatalf("reset: %+v", e)
	}
	if !strings.Contains(Network(Custody, "GET", "/", "", err, false, 0).Guidance(), "base_url") {
		t.Fatal("unreachable guidance names no base_url")
	}
}

func TestGuidanceNamesTheProfileKey(t *testing.T) {
	w := Parse(Wallet, "POST", "/v2/credentials/oauth/token", 400,
		[]byte(`{"code":3,"message":"invalid request","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ERR000.020","domain":"d"}]}`))
	w.ConfigKey = "profiles.uat.wallet"
	if g := w.Guidance(); !strings.Contains(g, "client id or secret") || !strings.Contains(g, "profiles.uat.wallet.client_id") || strings.Contains(g, "page size") {
		t.Fatalf("wallet token guidance %q", g)
	}
	// The same reason on another call keeps its general advice.
	other := Parse(Wallet, "GET", "/v2/vaults", 400, []byte(`{"code":3,"message":"invalid request","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ERR000.020","domain":"d"}]}`))
	if strings.Contains(other.Guidance(), "client id") {
		t.Fatalf("list guidance %q", other.Guidance())
	}
	p := Parse(Auth, "POST", "/v2/oauth/token", 401, []byte(`{"code":"AUTH_003","type":"AUTH_ERROR","status":401}`))
	p.ConfigKey = "profiles.uat.payments"
	if g := p.Guidance(); !strings.Contains(g, "client secret") || !strings.Contains(g, "profiles.uat.payments.audience") {
		t.Fatalf("payments token guidance %q", g)
	}
}

func TestPlainBodyShapes(t *testing.T) {
	for body, want := range map[string]string{
		`{"type":"about:blank","title":"Bad Request","status":400,"detail":"limit must be <= 50"}`: "limit must be <= 50",
		`{"error":{"code":"E12","message":"bad window"}}`:                                          "bad window",
		`{"errors":[{"code":7,"message":"first"},{"message":"second"}]}`:                           "first",
		`{"error":"Bad Request","message":"pageSize above 1000"}`:                                  "pageSize above 1000",
		`{"error":"Bad Request"}`: "Bad Request",
	} {
		if e := Parse(Liquidity, "GET", "/api/v0/quotes", 400, []byte(body)); e.Message != want {
			t.Errorf("%s: message %q, want %q", body, e.Message, want)
		}
	}
}

// TestUnreachableGuidanceNamesTheSetting: the token issuer's address is
// the payments section's auth_url, every other interface's its base_url.
func TestUnreachableGuidanceNamesTheSetting(t *testing.T) {
	err := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		iface     Interface
		key, want string
	}{
		{Auth, "profiles.uat.payments", "profiles.uat.payments.auth_url"},
		{Auth, "", "the payments auth_url of the profile"},
		{Payments, "profiles.uat.payments", "profiles.uat.payments.base_url"},
		{Wallet, "", "the wallet base_url of the profile"},
	} {
		e := Network(tc.iface, "GET", "/", "http://127.0.0.1:1/", err, false, 0)
		e.ConfigKey = tc.key
		if g := e.Guidance(); !strings.Contains(g, tc.want) {
			t.Errorf("%s %q: guidance %q lacks %q", tc.iface, tc.key, g, tc.want)
		}
		timedOut := Network(tc.iface, "GET", "/", "", context.DeadlineExceeded, true, time.Second)
		timedOut.ConfigKey = tc.key
		if g := timedOut.Guidance(); !strings.Contains(g, tc.want) {
			t.Errorf("%s %q: timeout guidance %q lacks %q", tc.iface, tc.key, g, tc.want)
		}
	}
}
