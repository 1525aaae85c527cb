// Package custody holds the records of the custody address-book interface,
// and the signer of its intents (its client: wire/custody/client) (spec area
// E): the endpoints of a domain (aliases of ledger addresses, whitelisted or
// blacklisted, smart contracts with an ABI, locked or not) and the signed
// lock and unlock intents that change them.
//
// Where the spec says "not shown", this package follows api-choices.md:
//   - GET /v1/domains/{domainId}/endpoints takes limit (1 to 100),
//     startingAfter, sortBy, sortOrder, alias, address and lock, and answers
//     {items, count, currentStartingAfter, nextStartingAfter}; each item is
//     {data, signature, signingKey};
//   - lock and unlock are intents: POST /v1/intents {request, signature} with
//     the operator's Ed25519 signature, base64, over the exact JSON bytes of
//     request; 202 {requestId}; GET /v1/domains/{domainId}/intents/{id};
//   - intent status values and error bodies are not shown: Intent.Status
//     takes the values below; errors are apierr.PlainBody;
//   - whitelisted or blacklisted is metadata.customProperties["listing"].
//
// Change those here when a real deployment differs.
package custody

import (
	"encoding/json"
	"time"

	"treasury/wire"
)

// Paths of the custody interface, relative to its base URL.
const (
	PathDomains = "/v1/domains/" // + domainId + "/endpoints[/id]" or "/intents/id"
	PathIntents = "/v1/intents"
)

// Page size limits of the endpoint list.
const (
	DefaultLimit = 20
	MaxLimit     = 100
)

// Lock states of an endpoint.
const (
	LockUnlocked = "Unlocked"
	LockLocked   = "Locked"
	LockArchived = "Archived"
)

// Listing values of metadata.customProperties["listing"].
const (
	PropListing = "listing"
	Whitelisted = "whitelisted"
	Blacklisted = "blacklisted"
)

// Endpoint is the data of an endpoint: a ledger address under an alias.
type Endpoint struct {
	wire.Raw `json:"-"`

	ID         string      `json:"id"`
	DomainID   string      `json:"domainId"`
	Alias      string      `json:"alias"`
	Address    string      `json:"address"`
	LedgerID   string      `json:"ledgerId"`
	Lock       string      `json:"lock"`
	TrustScore int         `json:"trustScore"`
	Parameters *Parameters `json:"parameters,omitempty"`
	Metadata   Metadata    `json:"metadata"`
}

// Listing is "whitelisted", "blacklisted" or "".
func (e Endpoint) Listing() string { return e.Metadata.CustomProperties[PropListing] }

// HasABI reports whether the endpoint carries a smart-contract interface.
func (e Endpoint) HasABI() bool { return e.Parameters != nil && len(e.Parameters.ABI) > 0 }

// Parameters describe a smart-contract address (for EVM ledgers).
type Parameters struct {
	Type string `json:"type"`
	// ABI is the interface description as text: a JSON array (the usual
	// ABI form) arrives as its compact JSON.
	ABI string `json:"ABI,omitempty"`
}

// UnmarshalJSON reads ABI whatever its JSON type (the spec does not fix
// it: a string holding JSON, or the JSON array itself).
func (p *Parameters) UnmarshalJSON(b []byte) error {
	type plain Parameters
	var aux struct {
		*plain
		ABI wire.Text `json:"ABI"`
	}
	aux.plain = (*plain)(p)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	p.ABI = string(aux.ABI)
	return nil
}

// Metadata of an endpoint. Revision increases on every change and is what an
// intent refers to.
type Metadata struct {
	Description      string            `json:"description"`
	Revision         int               `json:"revision"`
	CreatedAt        time.Time         `json:"createdAt"`
	CreatedBy        string            `json:"createdBy"`
	LastModifiedAt   time.Time         `json:"lastModifiedAt"`
	CustomProperties map[string]string `json:"customProperties"`
}

// UnmarshalJSON reads the fields whose type the spec leaves open as text:
// createdBy (a user id, or an object such as {id, name}) and the values of
// customProperties (strings, numbers, booleans). Neither ever fails the
// endpoint.
func (m *Metadata) UnmarshalJSON(b []byte) error {
	type plain Metadata
	var aux struct {
		*plain
		CreatedBy        wire.Text            `json:"createdBy"`
		CustomProperties map[string]wire.Text `json:"customProperties"`
	}
	aux.plain = (*plain)(m)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	m.CreatedBy, m.CustomProperties = string(aux.CreatedBy), wire.TextMap(aux.CustomProperties)
	return nil
}

// SignedEndpoint is an item of the endpoint list: the data, signed by the
// custody service.
type SignedEndpoint struct {
	wire.Raw `json:"-"`

	Data       Endpoint `json:"data"`
	Signature  string   `json:"signature"`
	SigningKey string   `json:"signingKey"`
}

// EndpointsPage answers GET /v1/domains/{domainId}/endpoints. The last page
// has no nextStartingAfter.
type EndpointsPage struct {
	Items                []SignedEndpoint `json:"items"`
	Count                int              `json:"count"`
	CurrentStartingAfter string           `json:"currentStartingAfter,omitempty"`
	NextStartingAfter    string           `json:"nextStartingAfter,omitempty"`
}

// EndpointsPageIn is what the client decodes: items one by one.
type EndpointsPageIn struct {
	Items             wire.Items[SignedEndpoint] `json:"items"`
	NextStartingAfter string                     `json:"nextStartingAfter"`
}

// Intent payload types.
const (
	PayloadLock   = "v0_LockEndpoint"
	PayloadUnlock = "v0_UnlockEndpoint"
	RequestType   = "Propose"
)

// IntentBody is the body of POST /v1/intents. Signature is the operator's
// Ed25519 signature, base64, over the exact bytes of Request.
type IntentBody struct {
	Request   json.RawMessage `json:"request"`
	Signature string          `json:"signature"`
}

// IntentRequest is the signed part of an intent.
type IntentRequest struct {
	Type           string        `json:"type"`
	ID             string        `json:"id"`
	Author         Author        `json:"author"`
	TargetDomainID string        `json:"targetDomainId"`
	ExpiryAt       time.Time     `json:"expiryAt"`
	Payload        IntentPayload `json:"payload"`
	// CustomProperties travel with the intent to the approvers (the sandbox
	// rejects an intent whose "approval" property is "reject").
	CustomProperties map[string]string `json:"customProperties,omitempty"`
}

// Author is the user proposing an intent.
type Author struct {
	ID       string `json:"id"`
	DomainID string `json:"domainId"`
}

// IntentPayload says what the intent does to which endpoint revision.
type IntentPayload struct {
	Type      string    `json:"type"`
	Reference Reference `json:"reference"`
}

// Reference points at an endpoint at a revision.
type Reference struct {
	ID       string `json:"id"`
	Revision int    `json:"revision"`
}

// IntentAccepted answers POST /v1/intents (HTTP 202).
type IntentAccepted struct {
	RequestID string `json:"requestId"`
}

// Intent statuses (chosen; the spec does not show them). Pending waits for
// approvals; Executed means the change is applied.
const (
	IntentPending  = "Pending"
	IntentApproved = "Approved"
	IntentExecuted = "Executed"
	IntentRejected = "Rejected"
	IntentExpired  = "Expired"
)

// Intent answers GET /v1/domains/{domainId}/intents/{intentId}.
type Intent struct {
	ID              string        `json:"id"`
	DomainID        string        `json:"domainId"`
	Status          string        `json:"status"`
	Payload         IntentPayload `json:"payload"`
	Author          Author        `json:"author"`
	Approvals       int           `json:"approvals"`
	ApprovalsNeeded int           `json:"approvalsNeeded"`
	Reason          string        `json:"reason,omitempty"`
	CreatedAt       time.Time     `json:"createdAt"`
	UpdatedAt       time.Time     `json:"updatedAt"`
}

// Terminal reports whether the intent will not change any more.
func (i Intent) Terminal() bool {
	return i.Status == IntentExecuted || i.Status == IntentRejected || i.Status == IntentExpired
}
