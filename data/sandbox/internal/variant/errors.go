package variant

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// wrapPayments wraps a payments error object (payments, auth and reporting)
// as {"status": N, "errors": [ {...} ]}, one of the three shapes the real
// service answers (api-choices.md). A body that is not the object is left
// as it is.
func wrapPayments(status int, v any) any {
	o, ok := v.(*object)
	if !ok {
		return v
	}
	if _, has := o.get("code"); !has {
		return v
	}
	return obj("status", itoaNumber(status), "errors", []any{o})
}

// problem turns the plain error body of liquidity and custody ({status,
// error, message}) into RFC 7807 problem details, served as
// application/problem+json: type about:blank, the reason phrase as title,
// the message as detail.
func problem(status int, h http.Header, v any) any {
	o, ok := v.(*object)
	if !ok {
		return v
	}
	detail, _ := o.str("message")
	h.Set("Content-Type", "application/problem+json")
	return obj("type", "about:blank", "title", http.StatusText(status),
		"status", itoaNumber(status), "detail", detail)
}

// itoaNumber is n as a JSON number.
func itoaNumber(n int) json.Number { return json.Number(strconv.Itoa(n)) }
