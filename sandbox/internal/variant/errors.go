package variant

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// wrapPayments wraps a flat payments error object (the reporting
// interface's, which the document does not cover) as {"status": N,
// "errors": [ {...} ]}, the other shape real services of the family
// answer (api-choices.md). A body that is not the object is left as it is.
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

// flatPayments answers a payments error (payments, auth and reporting) as
// the spec's flat object {code, type, status, timestamp, title,
// description} (spec 7.1), whatever shape the simulator wrote it in: the
// document's {status, errors: {...}} or {status, errors: [...]}, or the
// token service's {error, error_description}. A body that is none of
// these is left as it is.
func flatPayments(status int, v any, now time.Time) any {
	o, ok := v.(*object)
	if !ok {
		return v
	}
	if _, has := o.get("code"); has {
		return v
	}
	if errs, has := o.get("errors"); has {
		inner, _ := errs.(*object)
		if list, ok := errs.([]any); ok && len(list) > 0 {
			inner, _ = list[0].(*object)
		}
		if inner == nil {
			return v
		}
		out := obj()
		for _, k := range []string{"code", "type"} {
			if x, ok := inner.get(k); ok {
				out.set(k, x)
			}
		}
		out.set("status", itoaNumber(status))
		for _, k := range []string{"timestamp", "title", "description"} {
			if x, ok := inner.get(k); ok {
				out.set(k, x)
			}
		}
		return out
	}
	if name, has := o.str("error"); has {
		desc, _ := o.str("error_description")
		code := "AUTH_003"
		if status == http.StatusBadRequest {
			code = "USR_001"
		} else if status == http.StatusForbidden {
			code = "AUTH_002"
		}
		return obj("code", code, "type", "AUTH_ERROR", "status", itoaNumber(status), "timestamp", now.UTC().Format(time.RFC3339Nano),
			"title", http.StatusText(status), "description", desc, "error", name, "error_description", desc)
	}
	return v
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
