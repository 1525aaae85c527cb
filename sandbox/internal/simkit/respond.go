package simkit

import (
	"encoding/json"
	"net/http"

	"treasury/wire/apierr"
)

// WriteJSON writes v as the JSON body of a response with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "sandbox: encode response: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// ReadJSON decodes the request body into v, refusing bodies over 1 MiB.
func ReadJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20))
	return dec.Decode(v)
}

// WalletError writes the wallet error object with an ErrorInfo (reason,
// domain) and a RequestInfo. The HTTP status derives from the gRPC code.
func WalletError(w http.ResponseWriter, grpcCode int, reason, message, domain, requestID string) {
	WriteJSON(w, apierr.GRPCHTTPStatus(grpcCode), apierr.WalletBody{
		Code: grpcCode, Message: message,
		Details: []apierr.WalletDetail{apierr.ErrorInfo(reason, domain), apierr.RequestInfo(requestID)},
	})
}

// WalletParserError writes a 400 without ErrorInfo: the message is the
// parser's (spec 7.2).
func WalletParserError(w http.ResponseWriter, message, requestID string) {
	WriteJSON(w, http.StatusBadRequest, apierr.WalletBody{
		Code: apierr.GRPCInvalidArgument, Message: message,
		Details: []apierr.WalletDetail{apierr.RequestInfo(requestID)},
	})
}

// WalletUnauthorized writes the wallet 401: only code 16 and Unauthorized.
func WalletUnauthorized(w http.ResponseWriter) {
	WriteJSON(w, http.StatusUnauthorized, apierr.WalletBody{Code: apierr.GRPCUnauthenticated, Message: "Unauthorized"})
}

// WalletUnimplemented writes the 501 of an unsupported method (no ErrorInfo).
func WalletUnimplemented(w http.ResponseWriter, requestID string) {
	WriteJSON(w, http.StatusNotImplemented, apierr.WalletBody{
		Code: apierr.GRPCUnimplemented, Message: "Method Not Allowed",
		Details: []apierr.WalletDetail{apierr.RequestInfo(requestID)},
	})
}

// PlainError writes the plain error body of liquidity and custody.
func PlainError(w http.ResponseWriter, status int, message string) {
	WriteJSON(w, status, apierr.PlainBody{Status: status, Error: http.StatusText(status), Message: message})
}

// Bearer returns the bearer token of r, or "".
func Bearer(r *http.Request) string {
	const prefix = "Bearer "
	h := r.Header.Get("Authorization")
	if len(h) > len(prefix) && (h[:len(prefix)] == prefix || h[:len(prefix)] == "bearer ") {
		return h[len(prefix):]
	}
	return ""
}

// WalletStatus writes a wallet error with only a RequestInfo: used for
// INTERNAL and UNAVAILABLE, whose reason the spec does not give.
func WalletStatus(w http.ResponseWriter, grpcCode int, message, requestID string) {
	WriteJSON(w, apierr.GRPCHTTPStatus(grpcCode), apierr.WalletBody{
		Code: grpcCode, Message: message,
		Details: []apierr.WalletDetail{apierr.RequestInfo(requestID)},
	})
}
