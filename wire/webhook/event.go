// Package webhook handles PAYMENT_STATE_TRANSITION notifications (spec 2.8
// and 6.1): the event record, its signature, and the receiver that verifies,
// deduplicates and orders them before they reach the live store.
//
// Where the spec says "not shown": the timestamp header carries Unix seconds
// as a decimal string; the signature algorithm is taken from the configured
// public key (Ed25519 by default, ECDSA P-256 with an ASN.1 signature over
// SHA-256, or RSA-PSS with SHA-256), never from the request.
package webhook

import (
	"time"

	"treasury/wire/money"
	"treasury/wire/payments"
)

// EventPaymentStateTransition is the only event type (6.1).
const EventPaymentStateTransition = "PAYMENT_STATE_TRANSITION"

// EventVersion is the current eventVersion.
const EventVersion = 1

// Event is a PAYMENT_STATE_TRANSITION notification (2.8). It carries the new
// state, never the error codes: fetch the payment for those.
type Event struct {
	ID           string    `json:"id"`
	EventType    string    `json:"eventType"`
	EventVersion int       `json:"eventVersion"`
	EventData    EventData `json:"eventData"`
	CreateDate   time.Time `json:"createDate"`
}

// EventData is the payment context of an event.
type EventData struct {
	PaymentID           string         `json:"paymentId"`
	ExpiresAt           time.Time      `json:"expiresAt"`
	CreatedAt           time.Time      `json:"createdAt"`
	SourceCurrency      string         `json:"sourceCurrency"`
	SourceAmount        money.Number   `json:"sourceAmount"`
	DestinationCurrency string         `json:"destinationCurrency"`
	PayoutAmount        money.Number   `json:"payoutAmount"`
	PaymentState        payments.State `json:"paymentState"`
	BeneficiaryToken    string         `json:"beneficiaryToken"`
}
