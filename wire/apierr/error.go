// Package apierr is the one error type of the platform's interfaces.
//
// Each interface reports failure in its own shape (spec part 7): the payments
// error object (code, type, status, timestamp), the wallet error object (gRPC
// code, ErrorInfo reason, RequestInfo requestId) and plain HTTP errors for
// liquidity, reporting and custody. Parse turns any of them into an *Error
// that carries its Class from the spec's tables and the guidance the UI shows,
// so callers decide "retry, refresh, fix or call someone" in one place.
//
// The wire bodies (PaymentsBody, WalletBody, PlainBody) are also what the
// embedded sandbox writes, so both sides agree on field names.
package apierr

import (
	"errors"
	"fmt"
	"strings"
)

// Interface names the platform interface an error came from.
type Interface string

// The platform's interfaces. Auth is the payments token issuer ({auth_url}).
const (
	Liquidity Interface = "liquidity"
	Payments  Interface = "payments"
	Auth      Interface = "auth"
	Reporting Interface = "reporting"
	Wallet    Interface = "wallet"
	Custody   Interface = "custody"
)

// Class is what a caller should do about an error (spec 7.1 and 7.2).
type Class uint8

// Classes, from the spec's tables.
const (
	ClassUnknown     Class = iota
	ClassRetry             // transient (SYS_ 500, wallet 13/14, other 5xx): retry with backoff
	ClassRefreshAuth       // 401: get a new token, then retry once
	ClassFixRequest        // the request is wrong (USR_ 400/415, wallet 3, 12): do not retry
	ClassResolve           // 402 USR_062..USR_067: not until the account condition is resolved
	ClassForbidden         // 403 (AUTH_002, AUTH_051, wallet 7): not with these credentials
	ClassNotFound          // 404: missing or invisible to these credentials
	ClassState             // wallet 9 FAILED_PRECONDITION: the record's state forbids it
	ClassConflict          // wallet 6 ALREADY_EXISTS
	ClassOperator          // CFG_ 500: contact the operator
	ClassMalformed         // the response could not be read: read again once (repeatable requests); report if it persists
	ClassCredentials       // the token issuer refused the profile's credentials: fix the profile
	ClassUnreachable       // no connection: DNS, refused, TLS: check the base URL; not retried
	ClassTimeout           // no answer in time: not retried within the call
)

func (c Class) String() string {
	switch c {
	case ClassRetry:
		return "retry"
	case ClassRefreshAuth:
		return "refresh auth"
	case ClassFixRequest:
		return "fix the request"
	case ClassResolve:
		return "resolve the condition"
	case ClassForbidden:
		return "forbidden"
	case ClassNotFound:
		return "not found"
	case ClassState:
		return "state forbids it"
	case ClassConflict:
		return "already exists"
	case ClassOperator:
		return "contact the operator"
	case ClassMalformed:
		return "malformed response"
	case ClassCredentials:
		return "credentials refused"
	case ClassUnreachable:
		return "unreachable"
	case ClassTimeout:
		return "timed out"
	}
	return "unknown"
}

// Retryable reports whether the transport retries errors of this class with
// backoff: only transient platform errors (spec 7.1 rule 1: SYSTEM_ERROR;
// wallet INTERNAL and UNAVAILABLE; a 5xx of the other interfaces; a
// connection lost mid-answer). ClassRefreshAuth is retried once, after a
// token refresh, and ClassMalformed is read again once for a repeatable
// request; the transport handles both. A refused connection or a timeout
// is not retried within the call: the next poll tries again, with backoff.
func (c Class) Retryable() bool { return c == ClassRetry }

// Error is a failed call to one of the platform's interfaces. Its text fields
// came from the network: sanitize them before they reach a terminal.
type Error struct {
	Interface  Interface
	Method     string // HTTP method of the failed request
	Path       string // request path without query (never carries a secret)
	HTTPStatus int

	// Code is the payments code (USR_067, SYS_001, AUTH_002, CFG_...) or the
	// wallet reason (ERR010.008). Empty when the body carried none.
	Code string
	// Type is the payments type (USER_ERROR, SYSTEM_ERROR...) or the wallet
	// gRPC status name (FAILED_PRECONDITION).
	Type string
	// GRPCCode is the wallet error's numeric gRPC code, 0 elsewhere.
	GRPCCode int
	// Title is the payments title, if any.
	Title string
	// Message is the payments description, the wallet message or the plain
	// error text.
	Message string
	// Timestamp is the upstream time of a payments error, as sent.
	Timestamp string
	// Domain and RequestID come from the wallet error's details.
	Domain    string
	RequestID string

	Class Class

	// URL is the address called, without its query: set for network
	// failures and timeouts, where the address is what to check.
	URL string
	// ConfigKey is the profile key of the interface
	// ("profiles.uat.custody"), for guidance that names what to fix.
	ConfigKey string
	// Attempts is how many times the call was sent (1 when not retried).
	Attempts int
	// Cause is the underlying network or decoding error, if any.
	Cause error
	// Poll, when set, names the feed whose poll failed as a whole (its
	// budget ran out while its calls were answered slowly), rather than
	// one call; Method and Path are then empty.
	Poll string
}

// Call names what failed: the method and path ("GET /v3/payments/filter"),
// or the poll ("poll of payments").
func (e *Error) Call() string {
	if e.Poll != "" {
		return "poll of " + e.Poll
	}
	return e.Method + " " + e.Path
}

// Unwrap returns the underlying network or decoding error.
func (e *Error) Unwrap() error { return e.Cause }

// Error renders "<interface> <METHOD> <path>: <status> <code>: <title or message>".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Interface))
	if e.Method != "" {
		b.WriteString(" ")
		b.WriteString(e.Method)
		b.WriteString(" ")
		if e.URL != "" {
			b.WriteString(e.URL)
		} else {
			b.WriteString(e.Path)
		}
	}
	var head []string
	if e.HTTPStatus != 0 {
		head = append(head, fmt.Sprintf("HTTP %d", e.HTTPStatus))
	}
	if c := e.Label(); c != "" {
		head = append(head, c)
	}
	what := strings.Join(head, " ")
	if t := e.Summary(); t != "" {
		if what != "" {
			what += ": "
		}
		what += t
	}
	b.WriteString(": ")
	b.WriteString(what)
	if e.RequestID != "" {
		b.WriteString(" (requestId ")
		b.WriteString(e.RequestID)
		b.WriteString(")")
	}
	return b.String()
}

// Label is the short code shown in tables and flashes: the payments code or
// wallet reason, else the gRPC status name, else empty.
func (e *Error) Label() string {
	switch {
	case e.Code != "":
		return e.Code
	case e.GRPCCode != 0:
		return fmt.Sprintf("%s(%d)", e.Type, e.GRPCCode)
	}
	return ""
}

// Summary is the title, else the message.
func (e *Error) Summary() string {
	if e.Title != "" {
		return e.Title
	}
	return e.Message
}

// Retryable reports whether the transport retries this error with backoff.
func (e *Error) Retryable() bool { return e.Class.Retryable() }

// As returns the *Error in err's chain, if there is one.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// ClassOf returns the class of err: that of its *Error, else ClassUnknown.
func ClassOf(err error) Class {
	if e, ok := As(err); ok {
		return e.Class
	}
	return ClassUnknown
}
