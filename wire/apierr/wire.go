package apierr

import (
	"encoding/json"
	"fmt"
)

// PaymentsBody is the payments interface's standardized error object (spec
// 7.1): code, type, status and timestamp, plus title and description. The
// payments, auth and reporting interfaces answer every failed request with it.
// Error and ErrorDescription are the OAuth 2.0 fields that the token endpoint
// adds so that generic OAuth clients understand it too.
type PaymentsBody struct {
	Code             string `json:"code"`
	Type             string `json:"type"`
	Status           int    `json:"status"`
	Timestamp        string `json:"timestamp"`
	Title            string `json:"title,omitempty"`
	Description      string `json:"description,omitempty"`
	Error            string `json:"error,omitempty"`
	ErrorDescription string `json:"error_description,omitempty"`
}

// Payments error types (spec 7.1).
const (
	TypeUser          = "USER_ERROR"
	TypeNotFound      = "NOT_FOUND"
	TypeAuth          = "AUTH_ERROR"
	TypeSystem        = "SYSTEM_ERROR"
	TypeConfiguration = "CONFIGURATION_ERROR"
)

// gRPC status codes used by the wallet interface (spec 7.2).
const (
	GRPCInvalidArgument    = 3
	GRPCNotFound           = 5
	GRPCAlreadyExists      = 6
	GRPCPermissionDenied   = 7
	GRPCFailedPrecondition = 9
	GRPCUnimplemented      = 12
	GRPCInternal           = 13
	GRPCUnavailable        = 14
	GRPCUnauthenticated    = 16
)

// GRPCName returns the gRPC status name of a code ("FAILED_PRECONDITION").
func GRPCName(code int) string {
	switch code {
	case 0:
		return "OK"
	case 1:
		return "CANCELLED"
	case 2:
		return "UNKNOWN"
	case GRPCInvalidArgument:
		return "INVALID_ARGUMENT"
	case 4:
		return "DEADLINE_EXCEEDED"
	case GRPCNotFound:
		return "NOT_FOUND"
	case GRPCAlreadyExists:
		return "ALREADY_EXISTS"
	case GRPCPermissionDenied:
		return "PERMISSION_DENIED"
	case 8:
		return "RESOURCE_EXHAUSTED"
	case GRPCFailedPrecondition:
		return "FAILED_PRECONDITION"
	case 10:
		return "ABORTED"
	case 11:
		return "OUT_OF_RANGE"
	case GRPCUnimplemented:
		return "UNIMPLEMENTED"
	case GRPCInternal:
		return "INTERNAL"
	case GRPCUnavailable:
		return "UNAVAILABLE"
	case 15:
		return "DATA_LOSS"
	case GRPCUnauthenticated:
		return "UNAUTHENTICATED"
	}
	return fmt.Sprintf("CODE_%d", code)
}

// GRPCHTTPStatus returns the HTTP status that a wallet gRPC code maps to
// (spec 7.2).
func GRPCHTTPStatus(code int) int {
	switch code {
	case GRPCInvalidArgument, GRPCFailedPrecondition, 11:
		return 400
	case GRPCUnauthenticated:
		return 401
	case GRPCPermissionDenied:
		return 403
	case GRPCNotFound:
		return 404
	case GRPCAlreadyExists, 10:
		return 409
	case 8:
		return 429
	case GRPCUnimplemented:
		return 501
	case GRPCUnavailable:
		return 503
	case 4:
		return 504
	}
	return 500
}

// Type URLs of the wallet error details.
const (
	ErrorInfoType   = "type.googleapis.com/google.rpc.ErrorInfo"
	RequestInfoType = "type.googleapis.com/google.rpc.RequestInfo"
)

// WalletBody is the wallet interface's error object (spec 7.2): the gRPC
// code, a message that must not be parsed, and details holding at most an
// ErrorInfo (reason, domain, metadata) and a RequestInfo (requestId).
type WalletBody struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Details []WalletDetail `json:"details,omitempty"`
}

// WalletDetail is one entry of WalletBody.Details: an ErrorInfo or a
// RequestInfo, told apart by Type.
type WalletDetail struct {
	Type      string            // ErrorInfoType or RequestInfoType
	Reason    string            // ErrorInfo
	Domain    string            // ErrorInfo: the API host
	Metadata  map[string]string // ErrorInfo, usually empty
	RequestID string            // RequestInfo
}

// ErrorInfo builds an ErrorInfo detail.
func ErrorInfo(reason, domain string) WalletDetail {
	return WalletDetail{Type: ErrorInfoType, Reason: reason, Domain: domain}
}

// RequestInfo builds a RequestInfo detail.
func RequestInfo(requestID string) WalletDetail {
	return WalletDetail{Type: RequestInfoType, RequestID: requestID}
}

type errorInfoJSON struct {
	Type     string            `json:"@type"`
	Reason   string            `json:"reason"`
	Domain   string            `json:"domain"`
	Metadata map[string]string `json:"metadata"`
}

type requestInfoJSON struct {
	Type      string `json:"@type"`
	RequestID string `json:"requestId"`
}

type anyDetailJSON struct {
	Type      string            `json:"@type"`
	Reason    string            `json:"reason"`
	Domain    string            `json:"domain"`
	Metadata  map[string]string `json:"metadata"`
	RequestID string            `json:"requestId"`
}

// MarshalJSON writes the detail in the shape of its type: an ErrorInfo always
// carries metadata (an empty object when there is none).
func (d WalletDetail) MarshalJSON() ([]byte, error) {
	switch d.Type {
	case RequestInfoType:
		return json.Marshal(requestInfoJSON{Type: d.Type, RequestID: d.RequestID})
	default:
		md := d.Metadata
		if md == nil {
			md = map[string]string{}
		}
		return json.Marshal(errorInfoJSON{Type: d.Type, Reason: d.Reason, Domain: d.Domain, Metadata: md})
	}
}

// UnmarshalJSON reads either detail shape; unknown detail types keep only
// their type.
func (d *WalletDetail) UnmarshalJSON(b []byte) error {
	var a anyDetailJSON
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	*d = WalletDetail(a)
	return nil
}

// PlainBody is the error body of the liquidity and custody interfaces, whose
// shape the spec does not show: the plainest REST shape, the HTTP status, its
// reason phrase and a human-readable message.
type PlainBody struct {
	Status  int    `json:"status"`
	Error   string `json:"error"`
	Message string `json:"message"`
}
