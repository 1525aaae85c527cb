// Package payworld simulates the payments interface (spec area B): the
// payments world that moves (payments created by a traffic generator and
// moving through their states), identities, financial instruments, the
// ledger and balances. Each state change that happens after the clock's
// start is handed to Notify as a PAYMENT_STATE_TRANSITION event.
package payworld

import (
	"time"

	"treasury/sandbox/internal/authsim"
	"treasury/wire/webhook"
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
	// Retain is how far back, in sandbox time, the world keeps payments
	// and ledger entries once they have settled: zero keeps what the
	// reports cover (the previous two months and the month to date, spec
	// area C), a positive span keeps that much (less than the reports ask
	// for: their older months come out short), a negative one keeps
	// everything. See prune.
	Retain time.Duration
	// Spec makes the world also answer as the spec's wording has it where
	// the vendor's document differs (the variant face): sort by CREATED_AT
	// only, GET /v3/payments?internalId=, the /v2 payment paths, errors on
	// the filter's records, a ledger window that defaults, ids looked up
	// whatever their form, an empty list for an identity without
	// instruments, a txnReference on RELEASE and a return's CREDIT too.
	// Without it the world answers only as the document does.
	Spec bool
	// Accounts is how many prefunded accounts (source currencies) the
	// org has: 0 is DefaultAccounts (USD, EUR, GBP); up to MaxAccounts
	// adds CAD, AUD, CHF, SGD and HKD, each with a corridor of its own.
	Accounts int
	// Notify receives an event for every state change after the clock's
	// start, in the order they happen. It must not block; it may be nil.
	Notify func(webhook.Event)
}
