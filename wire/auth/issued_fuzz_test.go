package auth

import (
	"encoding/json"
	"testing"
	"time"

	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/wallet"
	"treasury/wire/wiretest"
)

// FuzzIssued: any token answer of either issuer (payments' snake_case,
// the wallet's camelCase) that decodes gives a token with a life between
// a second and maxLifetime, or, without a token, an error: never a token
// expired at issue, whatever expires_in says.
func FuzzIssued(f *testing.F) {
	for _, s := range []string{
		`{"access_token":"eyJhbGciOiJSUzI1NiJ9.e30.sig","expires_in":3600,"token_type":"Bearer","scope":"payments"}`,
		`{"accessToken":"w-tok","expiresIn":3600,"tokenType":"Bearer"}`,
		`{"access_token":"t","expires_in":9223372037}`, `{"accessToken":"t","expiresIn":-1}`,
		`{"access_token":"  ","expires_in":60}`, `{"access_token":"t","expires_in":"3600"}`, `{}`, `[]`,
	} {
		f.Add([]byte(s))
	}
	for _, b := range wiretest.Seeds("") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var p payments.TokenResponse
		var w wallet.TokenResponse
		pok, wok := json.Unmarshal(body, &p) == nil, json.Unmarshal(body, &w) == nil
		for _, c := range []struct {
			ok       bool
			tok      string
			expires  int
			iface    apierr.Interface
			pathName string
		}{
			{pok, p.AccessToken, p.ExpiresIn, apierr.Auth, payments.PathToken},
			{wok, w.AccessToken, w.ExpiresIn, apierr.Wallet, wallet.PathToken},
		} {
			if !c.ok {
				continue
			}
			tok, err := issued(c.iface, c.pathName, c.tok, c.expires)
			if err != nil {
				if e, ok := apierr.As(err); !ok || e.Class != apierr.ClassMalformed || tok.Value.Reveal() != "" {
					t.Fatalf("%s: %+v, %v", body, tok, err)
				}
				continue
			}
			if tok.Value.Reveal() != c.tok || tok.ExpiresIn < time.Second || tok.ExpiresIn > maxLifetime {
				t.Fatalf("%s: token %q living %v", body, tok.Value.Reveal(), tok.ExpiresIn)
			}
		}
	})
}
