package sandbox_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"treasury/data/apierr"
	"treasury/data/payments"
	"treasury/data/sandbox"
	"treasury/data/sandbox/sandboxtest"
)

// TestSpec4_2_TokenIssuing covers the token endpoint: the JSON body of 4.2,
// the form body and Basic credentials of the real service, and each refusal.
func TestSpec4_2_TokenIssuing(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c := srv.Credentials()
	tokenURL := srv.Endpoints().Auth + payments.PathToken
	good := payments.TokenRequest{GrantType: "client_credentials", ClientID: c.PaymentsClientID, ClientSecret: c.PaymentsClientSecret, Audience: c.PaymentsAudience}

	var tok payments.TokenResponse
	if st := sandboxtest.PostJSON(t, tokenURL, "", good, &tok); st != 200 {
		t.Fatalf("JSON token request: HTTP %d", st)
	}
	if tok.ExpiresIn != 3600 || tok.TokenType != "Bearer" || !strings.Contains(tok.Scope, "payments:create") {
		t.Fatalf("token response %+v", tok)
	}
	// 2.3: a JWT whose exp claim gives its expiry.
	parts := strings.Split(tok.AccessToken, ".")
	if len(parts) != 3 {
		t.Fatalf("access_token is not a JWT: %q", tok.AccessToken)
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	var claims struct {
		Exp int64 `json:"exp"`
	}
	json.Unmarshal(payload, &claims)
	if want := sandboxtest.Start().Add(time.Hour).Unix(); claims.Exp != want {
		t.Fatalf("exp = %d, want %d (start + 1 hour)", claims.Exp, want)
	}

	// The real service also takes a form body.
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {c.PaymentsClientID}, "client_secret": {c.PaymentsClientSecret}, "audience": {c.PaymentsAudience}}
	resp, err := http.PostForm(tokenURL, form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("form token request: HTTP %d", resp.StatusCode)
	}

	refusals := []struct {
		name   string
		mutate func(*payments.TokenRequest)
		status int
		code   string
	}{
		{"wrong secret", func(r *payments.TokenRequest) { r.ClientSecret = "nope" }, 401, "AUTH_003"},
		{"unknown client", func(r *payments.TokenRequest) { r.ClientID = "nobody" }, 401, "AUTH_003"},
		{"other audience", func(r *payments.TokenRequest) { r.Audience = "urn:payments-prod:sandbox" }, 403, "AUTH_002"},
		{"missing grant_type", func(r *payments.TokenRequest) { r.GrantType = "" }, 400, "USR_001"},
		{"other grant_type", func(r *payments.TokenRequest) { r.GrantType = "password" }, 400, "USR_001"},
		{"missing audience", func(r *payments.TokenRequest) { r.Audience = "" }, 400, "USR_001"},
	}
	for _, rf := range refusals {
		t.Run(rf.name, func(t *testing.T) {
			req := good
			rf.mutate(&req)
			var body apierr.PaymentsBody
			st := sandboxtest.PostJSON(t, tokenURL, "", req, &body)
			if st != rf.status || body.Code != rf.code || body.Status != rf.status || body.Type == "" || body.Timestamp == "" {
				t.Fatalf("HTTP %d body %+v, want %d %s with type, status and timestamp", st, body, rf.status, rf.code)
			}
		})
	}
}

// TestSpec5_TokenLifetime covers the token test and the 401s of part 5.
func TestSpec5_TokenLifetime(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	testURL := srv.Endpoints().Auth + payments.PathTokenTest
	tok := sandboxtest.PaymentsToken(t, srv)

	var tt payments.TokenTest
	if st := sandboxtest.Get(t, testURL, tok, &tt); st != 200 || tt.Message != "token_ok" || tt.SecondsToExpiry != 3600 {
		t.Fatalf("token test: HTTP %d %+v", st, tt)
	}
	srv.Clock().Advance(20 * time.Minute)
	if sandboxtest.Get(t, testURL, tok, &tt); tt.SecondsToExpiry != 2400 {
		t.Fatalf("seconds_to_expiry after 20 minutes = %d, want 2400", tt.SecondsToExpiry)
	}

	check := func(name, token string, wantCode string) {
		t.Helper()
		var body apierr.PaymentsBody
		if st := sandboxtest.Get(t, testURL, token, &body); st != 401 || body.Code != wantCode {
			t.Fatalf("%s: HTTP %d code %q, want 401 %s", name, st, body.Code, wantCode)
		}
	}
	check("missing token", "", "AUTH_003")
	check("forged token", tok[:len(tok)-4]+"AAAA", "AUTH_003")
	check("not a JWT", "abc", "AUTH_003")
	srv.Clock().Advance(40 * time.Minute)
	check("expired token", tok, "AUTH_001")

	// Early expiry: tokens die after the fault's lifetime although expires_in
	// still says 3600.
	if err := srv.SetFaults(sandbox.FaultSettings{TokenLifetime: sandbox.Duration(5 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	fresh := sandboxtest.PaymentsToken(t, srv)
	if sandboxtest.Get(t, testURL, fresh, &tt); tt.SecondsToExpiry != 300 {
		t.Fatalf("seconds_to_expiry under early expiry = %d, want 300", tt.SecondsToExpiry)
	}
	srv.Clock().Advance(5 * time.Minute)
	check("early-expired token", fresh, "AUTH_001")
}
