// Package payworld simulates the payments interface (spec area B): the
// payments world that moves (payments created by a traffic generator and
// moving through their states), identities, financial instruments, the
// ledger and balances, and signed PAYMENT_STATE_TRANSITION webhooks.
package payworld

import (
	"crypto"
	"crypto/x509"

	"treasury/data/sandbox/internal/authsim"
)

// Options configure the payments world.
type Options struct {
	// Auth checks bearer tokens and scopes.
	Auth *authsim.Issuer
	// Org is the tenant of the sandbox's own clients; payments of any other
	// org answer 403 AUTH_051.
	Org string
	// HistoryPayments are synthesized before the clock's start, spread over
	// the previous two months and the month to date.
	HistoryPayments int
	// LivePerMinute is the rate of new payments, in sandbox time.
	LivePerMinute float64
	Webhooks      Webhooks
}

// Webhooks configure notification delivery.
type Webhooks struct {
	URL           string
	RootCAs       *x509.CertPool
	HeaderPrefix  string
	Key           crypto.Signer
	DuplicateRate float64
	ReorderRate   float64
}
