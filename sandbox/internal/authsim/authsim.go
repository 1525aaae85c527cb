// Package authsim simulates the payments token service (spec 2.3, 4.2 and
// part 5): client-credentials tokens as HS256 JWTs with an exp claim, the
// token test, and the checks the payments and reporting simulators make on
// every request (401 AUTH_001 expired, 401 AUTH_003 invalid, 403 AUTH_002
// missing scope).
package authsim

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Scopes the sandbox grants and checks. The spec names keys:read,
// keys:write, payments:create, quotes:create, identities:create and
// audit:read; the read scopes are chosen.
const (
	ScopePaymentsRead   = "payments:read"
	ScopePaymentsCreate = "payments:create"
	ScopeQuotesCreate   = "quotes:create"
	ScopeIdentitiesRead = "identities:read"
	ScopeIdentities     = "identities:create"
	ScopeLedgerRead     = "ledger:read"
	ScopeReportsRead    = "reports:read"
	ScopeKeysRead       = "keys:read"
	ScopeKeysWrite      = "keys:write"
	ScopeAuditRead      = "audit:read"
)

// AllScopes is every scope the sandbox knows, space-separated.
const AllScopes = "payments:read payments:create quotes:create identities:read identities:create ledger:read reports:read keys:read keys:write audit:read"

// Client is a payments API credential.
type Client struct {
	ID     string
	Secret string
	Scopes string // space-separated
	Org    string // tenant the client belongs to
}

// Claims are what a valid token says.
type Claims struct {
	Subject  string `json:"sub"`
	Audience string `json:"aud"`
	Org      string `json:"org"`
	Scope    string `json:"scope"`
	IssuedAt int64  `json:"iat"`
	Expiry   int64  `json:"exp"`
	ID       string `json:"jti"`
}

// Has reports whether the claims grant scope.
func (c Claims) Has(scope string) bool {
	for _, s := range strings.Fields(c.Scope) {
		if s == scope {
			return true
		}
	}
	return false
}

// Issuer issues and checks payments tokens.
type Issuer struct {
	clock    *simkit.Clock
	faults   *simkit.Faults
	key      []byte
	audience string
	clients  map[string]Client
	seed     uint64
}

// New returns an issuer for audience and clients; its signing key derives
// from seed.
func New(seed uint64, clock *simkit.Clock, faults *simkit.Faults, audience string, clients []Client) *Issuer {
	k := sha256.Sum256([]byte(fmt.Sprintf("authsim|%d|%s", seed, audience)))
	m := make(map[string]Client, len(clients))
	for _, c := range clients {
		m[c.ID] = c
	}
	return &Issuer{clock: clock, faults: faults, key: k[:], audience: audience, clients: m, seed: seed}
}

// Handler serves POST /v2/oauth/token and GET /v2/oauth/token/test.
func (is *Issuer) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+payments.PathToken, is.token)
	mux.HandleFunc("GET "+payments.PathTokenTest, is.test)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		simkit.PaymentsError(w, r, is.clock.Now(), http.StatusNotFound, "USR_002", apierr.TypeNotFound, "Resource Not Found", "No such path on the auth service: "+r.URL.Path)
	})
	return mux
}

func (is *Issuer) token(w http.ResponseWriter, r *http.Request) {
	now := is.clock.Now()
	var req payments.TokenRequest
	ct := r.Header.Get("Content-Type")
	form := strings.HasPrefix(ct, "application/x-www-form-urlencoded")
	if _, isJSON := simkit.DocumentJSONBody(r); !form && !isJSON {
		simkit.PaymentsUnsupportedMedia(w, r, now, ct)
		return
	}
	switch {
	case form:
		if err := r.ParseForm(); err != nil {
			is.badRequest(w, r, now, "The form body could not be read.")
			return
		}
		req = payments.TokenRequest{GrantType: r.PostForm.Get("grant_type"), ClientID: r.PostForm.Get("client_id"),
			ClientSecret: r.PostForm.Get("client_secret"), Audience: r.PostForm.Get("audience")}
	default:
		if err := simkit.ReadJSON(r, &req); err != nil {
			is.badRequest(w, r, now, "The body must be a JSON object with grant_type, client_id, client_secret and audience.")
			return
		}
	}
	if id, secret, ok := r.BasicAuth(); ok && req.ClientID == "" {
		req.ClientID, req.ClientSecret = id, secret
	}
	switch {
	case req.GrantType == "":
		is.badRequest(w, r, now, "Missing required parameter: grant_type")
		return
	case req.GrantType != payments.GrantClientCredential:
		is.badRequest(w, r, now, "Unsupported grant_type: only client_credentials is accepted.")
		return
	case req.ClientID == "" || req.ClientSecret == "" || req.Audience == "":
		is.badRequest(w, r, now, "Missing required parameter: client_id, client_secret and audience are required.")
		return
	}
	c, ok := is.clients[req.ClientID]
	if !ok || !hmac.Equal([]byte(c.Secret), []byte(req.ClientSecret)) {
		writeAuth(w, r, now, http.StatusUnauthorized, "AUTH_003", "Unauthorized", "Invalid client credentials.", "access_denied")
		return
	}
	if req.Audience != is.audience {
		writeAuth(w, r, now, http.StatusForbidden, "AUTH_002", "Forbidden", "Service not enabled within domain: "+req.Audience, "access_denied")
		return
	}
	claims := Claims{
		Subject: c.ID, Audience: is.audience, Org: c.Org, Scope: c.Scopes,
		IssuedAt: now.Unix(), Expiry: now.Unix() + payments.TokenLifetimeSeconds,
		ID: simkit.UUIDOf(is.seed, uint64(now.UnixNano()), simkit.Key(c.ID)),
	}
	simkit.WriteJSON(w, http.StatusOK, payments.TokenResponse{
		AccessToken: is.sign(claims), ExpiresIn: payments.TokenLifetimeSeconds, TokenType: "Bearer", Scope: c.Scopes,
	})
}

func (is *Issuer) test(w http.ResponseWriter, r *http.Request) {
	c, ok := is.Authorize(w, r, "")
	if !ok {
		return
	}
	left := c.Expiry - is.clock.Now().Unix()
	if lt := is.faults.TokenLifetime(); lt > 0 {
		if early := c.IssuedAt + int64(lt/time.Second) - is.clock.Now().Unix(); early < left {
			left = early
		}
	}
	// The document answers an array of one object (api-choices.md); the
	// variant face answers the spec's object.
	simkit.WriteJSON(w, http.StatusOK, []payments.TokenTest{{Message: "token_ok", SecondsToExpiry: int(left)}})
}

// Authorize checks the bearer token of r and, when scope is not empty, that
// it grants scope. On failure it writes the payments error (401 AUTH_003 for
// a missing or invalid token, 401 AUTH_001 for an expired one, 403 AUTH_002
// for a missing scope) and returns false.
func (is *Issuer) Authorize(w http.ResponseWriter, r *http.Request, scope string) (Claims, bool) {
	now := is.clock.Now()
	tok := simkit.Bearer(r)
	if tok == "" {
		writeAuth(w, r, now, http.StatusUnauthorized, "AUTH_003", "Unauthorized", "Missing bearer token.", "invalid_token")
		return Claims{}, false
	}
	c, ok := is.verify(tok)
	if !ok {
		writeAuth(w, r, now, http.StatusUnauthorized, "AUTH_003", "Unauthorized", "The access token is invalid.", "invalid_token")
		return Claims{}, false
	}
	expired := now.Unix() >= c.Expiry
	if lt := is.faults.TokenLifetime(); lt > 0 && now.Unix() >= c.IssuedAt+int64(lt/time.Second) {
		expired = true
	}
	if expired {
		writeAuth(w, r, now, http.StatusUnauthorized, "AUTH_001", "Unauthorized", "The access token has expired.", "invalid_token")
		return Claims{}, false
	}
	if scope != "" && !c.Has(scope) {
		writeAuth(w, r, now, http.StatusForbidden, "AUTH_002", "Forbidden", "The access token lacks the scope "+scope+".", "insufficient_scope")
		return Claims{}, false
	}
	return c, true
}

func (is *Issuer) badRequest(w http.ResponseWriter, r *http.Request, now time.Time, msg string) {
	simkit.WriteFailure(w, r, now, simkit.Failure{Status: http.StatusBadRequest, Code: "USR_001", Type: apierr.TypeUser,
		Title: "Bad Request", Description: msg, OAuth: "invalid_request"})
}

// writeAuth writes an authentication failure in the error shape of r's
// operation: the token service's OAuth body, or the payments error of the
// operation the token was refused for.
func writeAuth(w http.ResponseWriter, r *http.Request, now time.Time, status int, code, title, desc, oauthErr string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer error="`+oauthErr+`"`)
	}
	simkit.WriteFailure(w, r, now, simkit.Failure{Status: status, Code: code, Type: apierr.TypeAuth,
		Title: title, Description: desc, OAuth: oauthErr})
}

func (is *Issuer) sign(c Claims) string {
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	body, _ := json.Marshal(c)
	msg := head + "." + enc.EncodeToString(body)
	mac := hmac.New(sha256.New, is.key)
	mac.Write([]byte(msg))
	return msg + "." + enc.EncodeToString(mac.Sum(nil))
}

func (is *Issuer) verify(tok string) (Claims, bool) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return Claims{}, false
	}
	mac := hmac.New(sha256.New, is.key)
	mac.Write([]byte(parts[0] + "." + parts[1]))
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, mac.Sum(nil)) {
		return Claims{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return Claims{}, false
	}
	var c Claims
	if json.Unmarshal(raw, &c) != nil || c.Audience != is.audience {
		return Claims{}, false
	}
	return c, true
}
