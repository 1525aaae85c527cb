// Package sandboxtest starts the embedded sandbox on loopback for tests and
// fetches tokens from it over HTTP, so tests of clients and views speak to
// the same simulated platform as `go run .`, with a frozen, seeded clock.
package sandboxtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/contract"
	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/wallet"
)

// Start is the frozen clock's default start: a Monday mid-month, so the
// previous two months and the month to date all hold payments.
func Start() time.Time { return time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC) }

// Options returns options for a small, frozen, seeded world (seed 1, 600
// history payments, Start) that tests may adjust.
func Options() sandbox.Options {
	return sandbox.Options{Seed: 1, Frozen: true, Start: Start(), HistoryPayments: 600}
}

// VariantOptions are Options with the variant face: the same small world
// answered as another legal implementation would (see sandbox.Options).
func VariantOptions() sandbox.Options {
	o := Options()
	o.Variant = true
	return o
}

// Listen serves a sandbox on 127.0.0.1 for the life of the test. Every
// exchange of its payments interface in the default face is checked
// against the vendor's published document (Contract).
func Listen(tb testing.TB, opts sandbox.Options) *sandbox.Server {
	tb.Helper()
	if opts.Observe == nil {
		opts.Observe = Contract(tb)
	}
	srv, err := sandbox.Listen("127.0.0.1:0", opts)
	if err != nil {
		tb.Fatalf("start sandbox: %v", err)
	}
	tb.Cleanup(func() { srv.Close() })
	return srv
}

// PaymentsToken gets a payments token for the default client.
func PaymentsToken(tb testing.TB, srv *sandbox.Server) string {
	tb.Helper()
	c := srv.Credentials()
	return PaymentsTokenFor(tb, srv, c.PaymentsClientID, c.PaymentsClientSecret)
}

// PaymentsTokenFor gets a payments token for a client.
func PaymentsTokenFor(tb testing.TB, srv *sandbox.Server, id, secret string) string {
	tb.Helper()
	var tok payments.TokenResponse
	status := PostJSON(tb, srv.Endpoints().Auth+payments.PathToken, "", payments.TokenRequest{
		GrantType: payments.GrantClientCredential, ClientID: id, ClientSecret: secret,
		Audience: srv.Credentials().PaymentsAudience,
	}, &tok)
	if status != http.StatusOK || tok.AccessToken == "" {
		tb.Fatalf("payments token for %s: HTTP %d", id, status)
	}
	return tok.AccessToken
}

// WalletToken gets a wallet token for a credential client id.
func WalletToken(tb testing.TB, srv *sandbox.Server, clientID string) string {
	tb.Helper()
	for _, c := range srv.Credentials().Wallet {
		if c.ClientID != clientID {
			continue
		}
		var tok wallet.TokenResponse
		status := PostJSON(tb, srv.Endpoints().Wallet+wallet.PathToken, "", wallet.TokenRequest{ClientID: c.ClientID, ClientSecret: c.ClientSecret}, &tok)
		if status != http.StatusOK || tok.AccessToken == "" {
			tb.Fatalf("wallet token for %s: HTTP %d", clientID, status)
		}
		return tok.AccessToken
	}
	tb.Fatalf("no wallet credential %q", clientID)
	return ""
}

// Get sends GET url with a bearer token (none when empty), decodes a JSON
// answer into out (when not nil) and returns the status.
func Get(tb testing.TB, url, token string, out any) int {
	tb.Helper()
	return Do(tb, http.MethodGet, url, token, nil, out)
}

// PostJSON sends POST url with body as JSON.
func PostJSON(tb testing.TB, url, token string, body, out any) int {
	tb.Helper()
	return Do(tb, http.MethodPost, url, token, body, out)
}

// Do sends a request with an optional JSON body and decodes the answer.
func Do(tb testing.TB, method, url, token string, body, out any) int {
	tb.Helper()
	var raw []byte
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			tb.Fatalf("encode body: %v", err)
		}
		raw = b
	}
	status, _, answer := Send(tb, method, url, token, raw)
	if out != nil && len(answer) > 0 {
		if err := json.Unmarshal(answer, out); err != nil {
			tb.Fatalf("%s %s: HTTP %d, body is not the expected JSON (%v): %.300s", method, url, status, err, answer)
		}
	}
	return status
}

// Send sends a request with a raw JSON body (none when nil) and a bearer
// token (none when empty), and returns the status, the headers and the body
// of the answer, for tests that check bodies byte for byte or errors that
// are not JSON.
func Send(tb testing.TB, method, url, token string, body []byte) (int, http.Header, []byte) {
	tb.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		tb.Fatalf("request %s %s: %v", method, url, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(contract.ProbeHeader, "test") // hand-made: may be refused on purpose
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("read %s %s: %v", method, url, err)
	}
	return resp.StatusCode, resp.Header, raw
}

// ExpectPlain fails unless an answer is a plain error body (liquidity,
// custody) of status want with a message.
func ExpectPlain(tb testing.TB, what string, status int, body []byte, want int) {
	tb.Helper()
	var e apierr.PlainBody
	if err := json.Unmarshal(body, &e); status != want || err != nil || e.Status != want || e.Message == "" {
		tb.Fatalf("%s: HTTP %d %.300s, want a plain error of status %d", what, status, body, want)
	}
}

// Raw decodes a JSON body into a generic map, for checking field names.
func Raw(tb testing.TB, body any) map[string]any {
	tb.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		tb.Fatal(fmt.Errorf("not a JSON object: %w", err))
	}
	return m
}
