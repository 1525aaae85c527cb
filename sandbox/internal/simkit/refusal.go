package simkit

import (
	"net/http"
	"time"

	"treasury/wire/apierr"
)

// Refusal is a request that a face of the sandbox refuses although the
// simulator would serve it: a stricter legal implementation's page cap or
// unknown parameter. Each simulator asks its Env (Env.Refuse) after it has
// authenticated the request, so an unauthenticated request still gets its
// 401 first, and writes the refusal in its own error model.
type Refusal struct {
	// Status is the HTTP status (400 for every refusal so far).
	Status int
	// Code is the payments code (USR_001) or the wallet reason; empty for
	// plain bodies and wallet parser errors.
	Code string
	// Message says what was refused, naming the parameter or field.
	Message string
	// Parser marks a wallet refusal as a parser error: 400 without
	// ErrorInfo (spec 7.2).
	Parser bool
}

// Gate decides whether a face refuses a request to iface; nil means the
// request is served.
type Gate func(iface apierr.Interface, r *http.Request) *Refusal

// Refuse asks the env's gate about a request to iface; it returns nil when
// there is no gate (the default face) or the gate lets the request through.
func (e *Env) Refuse(iface apierr.Interface, r *http.Request) *Refusal {
	if e.Gate == nil {
		return nil
	}
	return e.Gate(iface, r)
}

// WritePlain writes the refusal as the plain error body.
func (f *Refusal) WritePlain(w http.ResponseWriter) { PlainError(w, f.Status, f.Message) }

// WritePayments writes the refusal as a payments error of r's operation,
// type USER_ERROR.
func (f *Refusal) WritePayments(w http.ResponseWriter, r *http.Request, now time.Time) {
	PaymentsError(w, r, now, f.Status, f.Code, apierr.TypeUser, http.StatusText(f.Status), f.Message)
}

// WriteWallet writes the refusal as the wallet error object: a parser error
// (RequestInfo only), or gRPC 3 with the refusal's reason.
func (f *Refusal) WriteWallet(w http.ResponseWriter, domain, requestID string) {
	if f.Parser {
		WalletParserError(w, f.Message, requestID)
		return
	}
	WalletError(w, apierr.GRPCInvalidArgument, f.Code, f.Message, domain, requestID)
}
