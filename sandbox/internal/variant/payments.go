package variant

import (
	"net/http"
)

// payments answers amounts as strings, leaves out a null txnReference, and
// answers errors as the spec's flat object (the default face answers the
// document's shapes). What the spec words differently from the document
// (the CREATED_AT sort, GET /v3/payments?internalId=...) the payments
// world serves itself in this face (payworld.Options.Spec).
type payments struct {
	base
	cfg Config
}

// before gives a body without Content-Type the JSON type: the spec names
// only JSON, and this face reads such a body as JSON where the document
// refuses it (415).
func (payments) before(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	return untypedAsJSON(r), false
}

func paymentsAmount(key string) bool {
	switch key {
	case "sourceAmount", "destinationAmount", "totalFee", "amount", "calculatedFee", "totalTaxes", "taxAmount",
		"taxRate", "adjustedRate", "quoteAmount",
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

func (f payments) failure(status int, h http.Header, v any) any {
	return flatPayments(status, v, f.cfg.Now())
}

// auth is the payments token service: the token test answers the spec's
// object (the default face answers the document's array of one), errors
// are the spec's flat object.
type auth struct {
	base
	cfg Config
}

func (auth) before(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	return untypedAsJSON(r), false
}

// untypedAsJSON marks a request body sent without Content-Type as JSON.
func untypedAsJSON(r *http.Request) *http.Request {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		if r.Header.Get("Content-Type") == "" && r.ContentLength != 0 {
			r.Header.Set("Content-Type", "application/json")
		}
	}
	return r
}

// pathTokenTest is the token test's path under {auth_url}.
const pathTokenTest = "/v2/oauth/token/test"

func (auth) success(r *http.Request, v any) any {
	if a, ok := v.([]any); ok && r.URL.Path == pathTokenTest && len(a) == 1 {
		v = a[0]
	}
	decorate(v, r.URL.Path)
	return v
}

func (f auth) failure(status int, h http.Header, v any) any {
	return flatPayments(status, v, f.cfg.Now())
}
