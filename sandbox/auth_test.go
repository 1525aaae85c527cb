package sandbox_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
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

	// Refusals answer the document's ErrorResponse: an OAuth error name and
	// a description (the variant face answers the spec's object).
	refusals := []struct {
		name   string
		mutate func(*payments.TokenRequest)
		status int
		oauth  string
	}{
		{"wrong secret", func(r *payments.TokenRequest) { r.ClientSecret = "nope" }, 401, "access_denied"},
		{"unknown client", func(r *payments.TokenRequest) { r.ClientID = "nobody" }, 401, "access_denied"},
		{"other audience", func(r *payments.TokenRequest) { r.Audience = "urn:payments-prod:sandbox" }, 403, "access_denied"},
		{"missing grant_type", func(r *payments.TokenRequest) { r.GrantType = "" }, 400, "invalid_request"},
		{"other grant_type", func(r *payments.TokenRequest) { r.GrantType = "password" }, 400, "invalid_request"},
		{"missing audience", func(r *payments.TokenRequest) { r.Audience = "" }, 400, "invalid_request"},
	}
	for _, rf := range refusals {
		t.Run(rf.name, func(t *testing.T) {
			req := good
			rf.mutate(&req)
			var body sandboxtest.PayErr
			st := sandboxtest.PostJSON(t, tokenURL, "", req, &body)
			if st != rf.status || body.OAuth != rf.oauth || body.OAuthDescription == "" {
				t.Fatalf("HTTP %d body %+v, want %d %s with a description", st, body, rf.status, rf.oauth)
			}
		})
	}
}

// TestSpec5_TokenLifetime covers the token test and the 401s of part 5.
func TestSpec5_TokenLifetime(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	testURL := srv.Endpoints().Auth + payments.PathTokenTest
	tok := sandboxtest.PaymentsToken(t, srv)

	// The document answers an array of one object.
	test := func(token string) payments.TokenTest {
		t.Helper()
		var tt []payments.TokenTest
		if st := sandboxtest.Get(t, testURL, token, &tt); st != 200 || len(tt) != 1 {
			t.Fatalf("token test: HTTP %d %+v, want an array of one", st, tt)
		}
		return tt[0]
	}
	if tt := test(tok); tt.Message != "token_ok" || tt.SecondsToExpiry != 3600 {
		t.Fatalf("token test: %+v", tt)
	}
	srv.Clock().Advance(20 * time.Minute)
	if tt := test(tok); tt.SecondsToExpiry != 2400 {
		t.Fatalf("seconds_to_expiry after 20 minutes = %d, want 2400", tt.SecondsToExpiry)
	}

	check := func(name, token string, want string) {
		t.Helper()
		var body sandboxtest.PayErr
		if st := sandboxtest.Get(t, testURL, token, &body); st != 401 || body.OAuth != "invalid_token" || !strings.Contains(body.OAuthDescription, want) {
			t.Fatalf("%s: HTTP %d %+v, want 401 invalid_token saying %q", name, st, body, want)
		}
	}
	check("missing token", "", "Missing")
	check("forged token", tok[:len(tok)-4]+"AAAA", "invalid")
	check("not a JWT", "abc", "invalid")
	srv.Clock().Advance(40 * time.Minute)
	check("expired token", tok, "expired")

	// Early expiry: tokens die after the fault's lifetime although expires_in
	// still says 3600.
	if err := srv.SetFaults(sandbox.FaultSettings{TokenLifetime: sandbox.Duration(5 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	fresh := sandboxtest.PaymentsToken(t, srv)
	if tt := test(fresh); tt.SecondsToExpiry != 300 {
		t.Fatalf("seconds_to_expiry under early expiry = %d, want 300", tt.SecondsToExpiry)
	}
	srv.Clock().Advance(5 * time.Minute)
	check("early-expired token", fresh, "expired")
}
