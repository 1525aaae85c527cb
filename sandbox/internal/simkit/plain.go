package simkit

import (
	"crypto/subtle"
	"net/http"

	"treasury/wire/apierr"
)

// PlainService serves mux behind the static bearer token of the liquidity
// and custody interfaces, with their plain error bodies: a missing or wrong
// token is 401, a request the env's gate refuses is answered with the
// refusal, and a request mux does not route is 404 ("no <name> operation at
// <method> <path>").
func PlainService(env *Env, iface apierr.Interface, token string, mux *http.ServeMux) http.Handler {
	name := string(iface)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		PlainError(w, http.StatusNotFound, "no "+name+" operation at "+r.Method+" "+r.URL.Path)
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok := Bearer(r)
		if tok == "" {
			PlainError(w, http.StatusUnauthorized, "missing bearer token")
			return
		}
		if subtle.ConstantTimeCompare([]byte(tok), []byte(token)) != 1 {
			PlainError(w, http.StatusUnauthorized, "invalid bearer token")
			return
		}
		if f := env.Refuse(iface, r); f != nil {
			f.WritePlain(w)
			return
		}
		mux.ServeHTTP(w, r)
	})
}
