package simkit

import (
	"mime"
	"net/http"
	"strings"
	"time"

	"treasury/wire/apierr"
)

// UnsupportedMediaCode is the payments code of a 415 (chosen: the spec lists
// 415 among the USR_ statuses without naming its code).
const UnsupportedMediaCode = "USR_010"

// DocumentJSONBody is JSONBody as the payments document has it: a body
// must say it is application/json (the document's only request media type;
// the token operation also takes a form, which its handler checks). The
// variant face gives a body without Content-Type one before it gets here.
func DocumentJSONBody(r *http.Request) (got string, ok bool) {
	got, ok = JSONBody(r)
	if ok && got == "" && r.ContentLength != 0 {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch:
			return got, false
		}
	}
	return got, ok
}

// JSONBody reports whether a request that may carry a JSON body (POST, PUT,
// PATCH) says it does: Content-Type application/json, with any parameters
// (a charset must be utf-8, the only encoding JSON has). A request with no
// Content-Type is accepted and read as JSON: the spec names only the JSON
// type, and refusing a body for a missing header would only punish hand-made
// requests. Other methods are always accepted. got is the Content-Type as
// sent, for the error message.
func JSONBody(r *http.Request) (got string, ok bool) {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
	default:
		return "", true
	}
	got = r.Header.Get("Content-Type")
	if strings.TrimSpace(got) == "" {
		return got, true
	}
	mt, params, err := mime.ParseMediaType(got)
	if err != nil || mt != "application/json" {
		return got, false
	}
	if cs, has := params["charset"]; has && !strings.EqualFold(cs, "utf-8") {
		return got, false
	}
	return got, true
}

// unsupportedMessage says what was refused and what is expected.
func unsupportedMessage(got string) string {
	return "Unsupported Content-Type " + Quoted(got) + ": the body must be application/json."
}

// PaymentsUnsupportedMedia writes the payments 415: USER_ERROR, code
// UnsupportedMediaCode.
func PaymentsUnsupportedMedia(w http.ResponseWriter, r *http.Request, now time.Time, got string) {
	PaymentsError(w, r, now, http.StatusUnsupportedMediaType, UnsupportedMediaCode, apierr.TypeUser,
		"Unsupported Media Type", unsupportedMessage(got))
}

// WalletUnsupportedMedia writes the wallet 415: the wallet error object with
// gRPC 3 INVALID_ARGUMENT (the nearest code; gRPC has none for a media type)
// and only a RequestInfo, as for any body the parser cannot read (spec 7.2),
// under HTTP 415.
func WalletUnsupportedMedia(w http.ResponseWriter, got, requestID string) {
	WriteJSON(w, http.StatusUnsupportedMediaType, apierr.WalletBody{
		Code: apierr.GRPCInvalidArgument, Message: unsupportedMessage(got),
		Details: []apierr.WalletDetail{apierr.RequestInfo(requestID)},
	})
}

// PlainUnsupportedMedia writes the plain 415 of custody.
func PlainUnsupportedMedia(w http.ResponseWriter, got string) {
	PlainError(w, http.StatusUnsupportedMediaType, unsupportedMessage(got))
}
