package variant

import (
	"net/http"
)

// payments answers amounts as strings, leaves out a null txnReference, and
// wraps errors as {status, errors: [...]}.
type payments struct{ base }

func paymentsAmount(key string) bool {
	switch key {
	case "sourceAmount", "destinationAmount", "totalFee", "amount",
		"availableBalanceBefore", "availableBalanceAfter", "availableBalance", "reservedBalance":
		return true
	}
	return false
}

func (payments) success(r *http.Request, v any) any {
	walk(v, func(o *object) {
		stringsOf(o, paymentsAmount)
		if ref, has := o.get("txnReference"); has && ref == nil {
			o.del("txnReference")
		}
	})
	decorate(v, r.URL.Path)
	return v
}

func (payments) failure(status int, h http.Header, v any) any { return wrapPayments(status, v) }

// auth is the payments token service: the token test answers an array of
// one object (api-choices.md: the real service does), errors are wrapped.
type auth struct{ base }

// pathTokenTest is the token test's path under {auth_url}.
const pathTokenTest = "/v2/oauth/token/test"

func (auth) success(r *http.Request, v any) any {
	decorate(v, r.URL.Path)
	if r.URL.Path == pathTokenTest {
		return []any{v}
	}
	return v
}

func (auth) failure(status int, h http.Header, v any) any { return wrapPayments(status, v) }
