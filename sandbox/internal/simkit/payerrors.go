package simkit

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"treasury/wire/apierr"
)

// ErrorShape is how a payments-family error body is laid out. The spec
// (7.1) shows one flat object; the vendor's published document, which
// production servers keep, lays it out per operation. The default face
// answers as the document does; the variant face flattens every shape to
// the spec's object.
type ErrorShape int

const (
	// ShapeFlat is the spec's object {code, type, status, timestamp,
	// title, description} (the reporting interface, which the document
	// does not cover).
	ShapeFlat ErrorShape = iota
	// ShapeWrappedObject is the document's PaymentErrorResponse of the
	// payments operations: {"status": "400", "errors": {code, type, title,
	// description, timestamp}}; status is a string there.
	ShapeWrappedObject
	// ShapeWrappedList is the document's error-response of identities,
	// ledger, balances and quote collections: {"status": 400, "errors":
	// [ {code, title, type, description, timestamp} ]}.
	ShapeWrappedList
	// ShapeOAuth is the token service's ErrorResponse: {error,
	// error_description}.
	ShapeOAuth
)

// ShapeOf is the document's error shape of a request path (relative to
// the interface's base URL).
func ShapeOf(path string) ErrorShape {
	switch {
	case strings.HasPrefix(path, "/v2/oauth/"):
		return ShapeOAuth
	case strings.HasPrefix(path, "/v2/reports"):
		return ShapeFlat
	case strings.HasPrefix(path, "/v3/identities"), strings.HasPrefix(path, "/v2/ledger-transactions"),
		strings.HasPrefix(path, "/v2/balances"), strings.HasPrefix(path, "/v2/quotes"):
		return ShapeWrappedList
	}
	return ShapeWrappedObject
}

// Failure is a payments-family error: what failed, in the spec's terms.
type Failure struct {
	Status                         int
	Code, Type, Title, Description string
	// OAuth is the OAuth 2.0 error name (invalid_request, access_denied,
	// invalid_token) of the token service's bodies and of WWW-Authenticate.
	OAuth string
}

// WriteFailure writes f in the error shape of r's path, stamped now.
func WriteFailure(w http.ResponseWriter, r *http.Request, now time.Time, f Failure) {
	WriteShaped(w, ShapeOf(r.URL.Path), now, f)
}

// WriteShaped writes f in shape, stamped now.
func WriteShaped(w http.ResponseWriter, shape ErrorShape, now time.Time, f Failure) {
	ts := now.UTC().Format(time.RFC3339Nano)
	if f.Title == "" {
		f.Title = http.StatusText(f.Status)
	}
	if f.Description == "" {
		f.Description = f.Title
	}
	item := apierr.PaymentsBody{Code: f.Code, Type: f.Type, Title: f.Title, Description: f.Description, Timestamp: ts}
	switch shape {
	case ShapeOAuth:
		name := f.OAuth
		if name == "" {
			name = "invalid_request"
		}
		WriteJSON(w, f.Status, oauthBody{Error: name, ErrorDescription: f.Description})
	case ShapeWrappedObject:
		WriteJSON(w, f.Status, wrappedObject{Status: strconv.Itoa(f.Status), Errors: wrappedItem(item)})
	case ShapeWrappedList:
		WriteJSON(w, f.Status, wrappedList{Status: f.Status, Errors: []errorItem{wrappedItem(item)}})
	default:
		item.Status = f.Status
		WriteJSON(w, f.Status, item)
	}
}

// PaymentsError writes a payments error in the shape of r's path.
func PaymentsError(w http.ResponseWriter, r *http.Request, now time.Time, status int, code, typ, title, description string) {
	WriteFailure(w, r, now, Failure{Status: status, Code: code, Type: typ, Title: title, Description: description})
}

type errorItem struct {
	Code        string `json:"code"`
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

func wrappedItem(b apierr.PaymentsBody) errorItem {
	return errorItem{Code: b.Code, Type: b.Type, Title: b.Title, Description: b.Description, Timestamp: b.Timestamp}
}

type wrappedObject struct {
	Status string    `json:"status"`
	Errors errorItem `json:"errors"`
}

type wrappedList struct {
	Status int         `json:"status"`
	Errors []errorItem `json:"errors"`
}

type oauthBody struct {
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
}
