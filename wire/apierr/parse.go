package apierr

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
)

// Parse reads the error body of a failed response from iface. It never fails:
// a body it cannot read still yields an *Error classed by the HTTP status,
// with a short, printable excerpt of the body as its message.
func Parse(iface Interface, method, path string, status int, body []byte) *Error {
	var e *Error
	switch iface {
	case Payments, Auth, Reporting:
		e = parsePayments(status, body)
	case Wallet:
		e = parseWallet(status, body)
	default:
		e = parsePlain(status, body)
	}
	e.Interface, e.Method, e.Path, e.HTTPStatus = iface, method, path, status
	return e
}

// Malformed builds the error for a 2xx response whose body could not be
// decoded. It is not retried: the same server gives the same body.
func Malformed(iface Interface, method, path string, status int, cause error) *Error {
	return &Error{
		Interface: iface, Method: method, Path: path, HTTPStatus: status,
		Message: "malformed response body: " + cause.Error(),
		Class:   ClassMalformed, Cause: cause,
	}
}

// parsePayments reads the three shapes of the payments error object: flat,
// wrapped as {status, errors: {...}} and wrapped as {status, errors: [...]}.
func parsePayments(status int, body []byte) *Error {
	var flat PaymentsBody
	var wrapped struct {
		Status  json.RawMessage `json:"status"`
		Errors  json.RawMessage `json:"errors"`
		Message string          `json:"message"`
	}
	e := &Error{}
	body = bytes.TrimSpace(body)
	if json.Unmarshal(body, &wrapped) == nil && len(wrapped.Errors) > 0 {
		var one PaymentsBody
		switch many := elements(wrapped.Errors, 1); {
		case len(many) > 0 && json.Unmarshal(many[0], &one) == nil:
			flat = one
		case json.Unmarshal(wrapped.Errors, &one) == nil:
			flat = one
		}
	} else {
		_ = json.Unmarshal(body, &flat)
	}
	if !isPaymentsError(flat.Code, flat.Title, flat.Description) {
		// Not a payments error object (a proxy page, an OAuth error, junk).
		e.Message = excerpt(body)
		if flat.ErrorDescription != "" {
			e.Message = flat.ErrorDescription
		}
		e.Class = classByStatus(status)
		return e
	}
	e.Code, e.Type, e.Title, e.Timestamp = flat.Code, flat.Type, flat.Title, flat.Timestamp
	e.Message = flat.Description
	if e.Message == "" {
		e.Message = flat.ErrorDescription
	}
	e.Class = classifyPayments(status, flat.Code, flat.Type)
	return e
}

// isPaymentsError reports whether an object is a payments error object:
// one of its code, title and description is set.
func isPaymentsError(code, title, description string) bool {
	return code != "" || title != "" || description != ""
}

// EntryClass classes one entry of a payment's errors[] exactly as Parse
// classes a body of those fields with no HTTP status, without decoding
// anything: the retry verdict of every payment held is judged with it.
func EntryClass(code, typ, title, description string) Class {
	if !isPaymentsError(code, title, description) {
		return classByStatus(0)
	}
	return classifyPayments(0, code, typ)
}

// classifyPayments applies the table of spec 7.1. The code decides, not the
// HTTP status alone.
func classifyPayments(status int, code, typ string) Class {
	switch {
	case strings.HasPrefix(code, "CFG_") || typ == TypeConfiguration:
		return ClassOperator
	case strings.HasPrefix(code, "SYS_") || typ == TypeSystem:
		return ClassRetry
	case code == "AUTH_001" || code == "AUTH_003":
		return ClassRefreshAuth
	case code == "AUTH_002" || code == "AUTH_051":
		return ClassForbidden
	case strings.HasPrefix(code, "AUTH_"):
		if status == http.StatusUnauthorized {
			return ClassRefreshAuth
		}
		return ClassForbidden
	case IsResolvable(code) || status == http.StatusPaymentRequired:
		return ClassResolve
	case typ == TypeNotFound || status == http.StatusNotFound:
		return ClassNotFound
	case strings.HasPrefix(code, "USR_") || typ == TypeUser:
		return ClassFixRequest
	}
	return classByStatus(status)
}

// IsResolvable reports whether code is one of USR_062 to USR_067: a business
// condition (insufficient balance, credit limit, past-due invoice) that must
// be resolved before the payment is resubmitted.
func IsResolvable(code string) bool {
	switch code {
	case "USR_062", "USR_063", "USR_064", "USR_065", "USR_066", "USR_067":
		return true
	}
	return false
}

// maxDetails bounds the wallet error details read: the spec sends at most
// an ErrorInfo and a RequestInfo, so a longer list is read no further.
const maxDetails = 8

func parseWallet(status int, body []byte) *Error {
	var w struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	}
	e := &Error{}
	if err := json.Unmarshal(bytes.TrimSpace(body), &w); err != nil || w.Code == 0 {
		e.Message = excerpt(body)
		e.Class = classByStatus(status)
		return e
	}
	e.GRPCCode = w.Code
	e.Type = GRPCName(w.Code)
	e.Message = w.Message
	for _, raw := range elements(w.Details, maxDetails) {
		var d struct {
			Type      string `json:"@type"`
			Reason    string `json:"reason"`
			Domain    string `json:"domain"`
			RequestID string `json:"requestId"`
		}
		if json.Unmarshal(raw, &d) != nil {
			continue
		}
		switch d.Type {
		case ErrorInfoType:
			e.Code, e.Domain = d.Reason, d.Domain
		case RequestInfoType:
			e.RequestID = d.RequestID
		}
	}
	e.Class = classifyWallet(w.Code)
	return e
}

// classifyWallet applies the table of spec 7.2.
func classifyWallet(code int) Class {
	switch code {
	case GRPCInvalidArgument, GRPCUnimplemented:
		return ClassFixRequest
	case GRPCFailedPrecondition:
		return ClassState
	case GRPCUnauthenticated:
		return ClassRefreshAuth
	case GRPCPermissionDenied:
		return ClassForbidden
	case GRPCNotFound:
		return ClassNotFound
	case GRPCAlreadyExists:
		return ClassConflict
	case GRPCInternal, GRPCUnavailable:
		return ClassRetry
	}
	return ClassUnknown
}

// parsePlain reads the bodies of the interfaces whose error model the spec
// does not show (liquidity, custody): {message, error}, RFC 7807 problem
// details {title, detail, type}, {error: {code, message}} and
// {errors: [{code, message}]}; anything else becomes an excerpt.
func parsePlain(status int, body []byte) *Error {
	var p struct {
		Message string          `json:"message"`
		Title   string          `json:"title"`
		Detail  string          `json:"detail"`
		Code    json.RawMessage `json:"code"`
		Errors  json.RawMessage `json:"errors"`
		Nested  json.RawMessage `json:"error"`
	}
	e := &Error{Class: classByStatus(status)}
	if json.Unmarshal(bytes.TrimSpace(body), &p) != nil {
		e.Message = excerpt(body)
		return e
	}
	var inner struct {
		Code    json.RawMessage `json:"code"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	switch many := elements(p.Errors, 1); {
	case len(p.Nested) > 0 && p.Nested[0] == '{':
		_ = json.Unmarshal(p.Nested, &inner)
	case len(many) > 0:
		_ = json.Unmarshal(many[0], &inner)
	}
	e.Code = scalar(p.Code)
	if e.Code == "" {
		e.Code = scalar(inner.Code)
	}
	e.Title = p.Title
	e.Message = firstOf(p.Detail, p.Message, inner.Message, inner.Detail, scalar(p.Nested))
	if e.Message == "" && e.Title == "" {
		e.Message = excerpt(body)
	}
	return e
}

// elements returns the first n elements of raw when it is a JSON array,
// reading no further: an error body of a million elements costs what its
// first few do.
func elements(raw json.RawMessage, n int) []json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return nil
	}
	var out []json.RawMessage
	for len(out) < n && dec.More() {
		var el json.RawMessage
		if dec.Decode(&el) != nil {
			break
		}
		out = append(out, el)
	}
	return out
}

// scalar is a JSON string or number as text, "" otherwise.
func scalar(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// classByStatus classes an error that carries no code: 5xx is transient.
func classByStatus(status int) Class {
	switch {
	case status >= 500:
		return ClassRetry
	case status == http.StatusUnauthorized:
		return ClassRefreshAuth
	case status == http.StatusForbidden:
		return ClassForbidden
	case status == http.StatusNotFound:
		return ClassNotFound
	case status == http.StatusConflict:
		return ClassConflict
	case status == http.StatusPaymentRequired:
		return ClassResolve
	case status >= 400:
		return ClassFixRequest
	}
	return ClassUnknown
}

// excerpt keeps the first line of a body, at most 200 bytes, for messages.
func excerpt(body []byte) string {
	s := strings.TrimSpace(string(body))
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
