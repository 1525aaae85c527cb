package walletsim

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

// tokenLifetime is how long a wallet token lives (spec 5.3).
const tokenLifetime = time.Hour

// claims are what a wallet token carries; the token is the base64 of them
// and an HMAC over them, so the simulator stores no tokens.
type claims struct {
	Subject  string `json:"sub"`
	IssuedAt int64  `json:"iat"` // unix milliseconds, sandbox time
	Expiry   int64  `json:"exp"` // unix milliseconds, sandbox time
}

// token answers POST /v2/credentials/oauth/token. Wrong credentials or a
// missing body give 400 ERR000.020, never 401.
func (s *Sim) token(rw http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.env.Clock.Now()
	c := &call{s: s, w: s.w, rw: rw, r: r, now: now}
	if r.Method != http.MethodPost {
		simkit.WalletUnimplemented(rw, s.env.RequestID())
		return
	}
	if ct, ok := simkit.JSONBody(r); !ok {
		simkit.WalletUnsupportedMedia(rw, ct, s.env.RequestID())
		return
	}
	var req wallet.TokenRequest
	if !c.decode(&req) {
		return
	}
	cred, found := s.credential(req.ClientID)
	if !found || req.ClientSecret == "" || !hmac.Equal([]byte(req.ClientSecret), []byte(cred.ClientSecret)) {
		c.invalid()
		return
	}
	cl := claims{Subject: cred.ClientID, IssuedAt: now.UnixMilli(), Expiry: now.Add(tokenLifetime).UnixMilli()}
	c.ok(wallet.TokenResponse{AccessToken: s.sign(cl), ExpiresIn: int(tokenLifetime / time.Second),
		TokenType: "Bearer", Scope: strings.Join(append([]string{cred.Type}, cred.Permissions...), " ")})
}

func (s *Sim) credential(clientID string) (Credential, bool) {
	for _, cr := range s.w.creds {
		if cr.ClientID == clientID && clientID != "" {
			return cr, true
		}
	}
	return Credential{}, false
}

func (s *Sim) sign(cl claims) string {
	payload, _ := json.Marshal(cl)
	enc := base64.RawURLEncoding
	return "wt." + enc.EncodeToString(payload) + "." + enc.EncodeToString(seal(s.tokenKey, payload))
}

// seal is the HMAC-SHA256 of payload under key: it seals tokens' claims
// and page tokens' cursors.
func seal(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

// authenticate returns the credential of a valid, unexpired bearer token.
// An early-expiry fault shortens the life of every token.
func (s *Sim) authenticate(r *http.Request, now time.Time) (Credential, bool) {
	tok := simkit.Bearer(r)
	parts := strings.Split(tok, ".")
	if len(parts) != 3 || parts[0] != "wt" {
		return Credential{}, false
	}
	enc := base64.RawURLEncoding
	payload, err1 := enc.DecodeString(parts[1])
	sig, err2 := enc.DecodeString(parts[2])
	if err1 != nil || err2 != nil {
		return Credential{}, false
	}
	if !hmac.Equal(sig, seal(s.tokenKey, payload)) {
		return Credential{}, false
	}
	var cl claims
	if json.Unmarshal(payload, &cl) != nil {
		return Credential{}, false
	}
	exp := time.UnixMilli(cl.Expiry)
	if lt := s.env.Faults.TokenLifetime(); lt > 0 {
		exp = time.UnixMilli(cl.IssuedAt).Add(lt)
	}
	if !now.Before(exp) {
		return Credential{}, false
	}
	return s.credential(cl.Subject)
}

var permRe = regexp.MustCompile(`^(policy|keylimit|vault):(\*|[a-z_]+|[0-9a-fA-F-]{36})$`)

// createCredential answers POST /v2/credentials: the secret appears only
// in this answer. A permission that is not resource:action gives
// ERR000.003.
func createCredential(c *call) {
	var req wallet.CreateCredentialRequest
	if !c.decode(&req) {
		return
	}
	switch req.Type {
	case wallet.CredMonitoring, wallet.CredControls, wallet.CredTransactions:
	default:
		c.invalid()
		return
	}
	for _, p := range req.Permissions {
		m := permRe.FindStringSubmatch(p)
		if m == nil || (m[1] == "vault" && m[2] != "*" && !simkit.IsUUID(m[2])) {
			c.bad(reasonInvalidPermission, "invalid permission")
			return
		}
	}
	c.w.counter++
	r := simkit.Rand(c.s.env.Seed, simkit.Key("walletsim-credential"), c.w.counter)
	cr := Credential{ClientID: simkit.UUID(r), ClientSecret: simkit.Hex(r, 40), Type: req.Type,
		Permissions: append([]string{}, req.Permissions...)}
	c.w.creds = append(c.w.creds, cr)
	c.ok(wallet.Credential{ClientID: cr.ClientID, ClientSecret: cr.ClientSecret, Type: cr.Type, Permissions: cr.Permissions})
}

// listCredentials lists credentials without their secrets.
func listCredentials(c *call) {
	out := make([]wallet.Credential, 0, len(c.w.creds))
	for _, cr := range c.w.creds {
		perms := append([]string{}, cr.Permissions...)
		out = append(out, wallet.Credential{ClientID: cr.ClientID, Type: cr.Type, Permissions: perms})
	}
	page, f, ok := paginate(c, out, listSpec[wallet.Credential]{
		id:     func(x wallet.Credential) string { return x.ClientID },
		fields: fields[wallet.Credential]{"client_id": func(x wallet.Credential) string { return x.ClientID }, "type": func(x wallet.Credential) string { return x.Type }},
		enums:  map[string][]string{"type": {wallet.CredMonitoring, wallet.CredControls, wallet.CredTransactions}},
		order:  "client_id",
	})
	if ok {
		c.ok(wallet.CredentialsPage{Credentials: page, Filter: f})
	}
}
