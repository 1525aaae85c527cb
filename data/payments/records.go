// Package payments speaks to the payments interface (spec area B): payments,
// their state history, identities, financial instruments, ledger transactions
// and balances, with tokens from the payments auth service (see data/auth).
//
// Where the spec says "not shown", this package follows api-choices.md and
// the public OpenAPI document of the real service (shared/reference):
//   - the payment record is PaymentV2: originator{internalId, sourceCurrency,
//     sourceAmount...}, destination{destinationCurrency, destinationAmount...};
//     GET /v3/payments/{id} adds errors[] in a terminal failure state;
//   - GET /v3/payments?internalId= answers {data: [...]};
//   - POST /v2/payments/filter takes and answers the same shapes as v3;
//   - GET /v3/payments/{id}/states answers {stateTransitions: [...]};
//   - GET /v2/balances answers {timestamp, balances: [...]};
//   - identity, financial instrument and ledger transaction fields are those
//     listed in api-choices.md; amounts are JSON numbers.
//
// Change those here when a real deployment differs.
package payments

import (
	"time"

	"treasury/data/money"
	"treasury/data/wire"
)

// Paths of the payments interface, relative to its base URL.
const (
	PathPaymentV2         = "/v2/payments/"       // + id
	PathPaymentV3         = "/v3/payments/"       // + id; + id + "/states"
	PathPayments          = "/v3/payments"        // GET ?internalId=, POST create
	PathFilterV2          = "/v2/payments/filter" // POST
	PathFilterV3          = "/v3/payments/filter" // POST
	PathIdentities        = "/v3/identities"      // + "/" + id + "/financial-instruments"
	PathLedger            = "/v2/ledger-transactions"
	PathBalances          = "/v2/balances"
	PathQuotes            = "/v2/quotes" // POST; the sandbox's simple quote
	SuffixStates          = "/states"
	SuffixInstruments     = "/financial-instruments"
	PathToken             = "/v2/oauth/token"      // relative to {auth_url}
	PathTokenTest         = "/v2/oauth/token/test" // relative to {auth_url}
	GrantClientCredential = "client_credentials"
)

// Limits of spec part 8.
const (
	IdentitiesDefaultLimit = 10
	IdentitiesMaxLimit     = 100
	FilterDefaultSize      = 20
	FilterMaxSize          = 100
	LedgerDefaultPageSize  = 25
	LedgerMaxPageSize      = 50
	TokenLifetimeSeconds   = 3600
)

// State is a payment's state (spec 3.1, plus QUOTED and AWAITING_FUNDING of
// the real service). Clients must accept states they do not know.
type State string

// Payment states.
const (
	Quoted          State = "QUOTED"
	AwaitingFunding State = "AWAITING_FUNDING"
	Initiated       State = "INITIATED"
	Validating      State = "VALIDATING"
	Transferring    State = "TRANSFERRING"
	Completed       State = "COMPLETED"
	Failed          State = "FAILED"
	Declined        State = "DECLINED"
	Returned        State = "RETURNED"
)

// Terminal reports whether no further state follows. RETURNED follows
// COMPLETED, so COMPLETED is not terminal.
func (s State) Terminal() bool { return s == Failed || s == Declined || s == Returned }

// FailedTerminal reports whether s is a terminal failure state, in which
// GET /v3/payments/{id} carries errors.
func (s State) FailedTerminal() bool { return s.Terminal() }

// InFlight reports whether the payment is still moving toward completion.
func (s State) InFlight() bool {
	switch s {
	case Quoted, AwaitingFunding, Initiated, Validating, Transferring:
		return true
	}
	return false
}

// Payment is the payment record (PaymentV2 of the OpenAPI document).
type Payment struct {
	wire.Raw `json:"-"`

	PaymentID          string                `json:"paymentId"`
	PaymentState       State                 `json:"paymentState"`
	InitiatedAt        time.Time             `json:"initiatedAt"`
	ExpiresAt          time.Time             `json:"expiresAt"`
	LastStateUpdatedAt time.Time             `json:"lastStateUpdatedAt"`
	Originator         Originator            `json:"originator"`
	Destination        Destination           `json:"destination"`
	Fees               wire.List[FeeSummary] `json:"fees,omitempty"`
	PaymentLabels      wire.List[string]     `json:"paymentLabels,omitempty"`
	// Errors is present on GET /v3/payments/{id} in a terminal failure state.
	Errors wire.List[PaymentError] `json:"errors,omitempty"`

	// Partial marks a record known only from PAYMENT_STATE_TRANSITION
	// notifications (spec 2.8): its id, state, times, currencies and
	// amounts are known; its internalId, parties, instrument, country,
	// payout, fees and labels are not yet (they are blank, not empty).
	// Never on the wire: the live store sets it, and clears it when a full
	// read completes the record.
	Partial bool `json:"-"`
}

// InternalID is the client-assigned id, kept on the originator.
func (p Payment) InternalID() string { return p.Originator.InternalID }

// Originator is the sending side of a payment.
type Originator struct {
	OriginatorIdentityID       string       `json:"originatorIdentityId,omitempty"`
	OriginatorIdentityNickName string       `json:"originatorIdentityNickName,omitempty"`
	InternalID                 string       `json:"internalId,omitempty"`
	SourceCurrency             string       `json:"sourceCurrency"`
	SourceAmount               money.Number `json:"sourceAmount"`
	Payin                      string       `json:"payin,omitempty"`
}

// Destination is the receiving side of a payment.
type Destination struct {
	BeneficiaryFinancialInstrumentID string       `json:"beneficiaryFinancialInstrumentId,omitempty"`
	DestinationAmount                money.Number `json:"destinationAmount"`
	DestinationCountry               string       `json:"destinationCountry,omitempty"`
	DestinationCurrency              string       `json:"destinationCurrency"`
	BeneficiaryIdentityID            string       `json:"beneficiaryIdentityId,omitempty"`
	BeneficiaryIdentityNickName      string       `json:"beneficiaryIdentityNickName,omitempty"`
	Payout                           string       `json:"payout,omitempty"`
}

// FeeSummary is one fee of a payment.
type FeeSummary struct {
	TotalFee    money.Number `json:"totalFee"`
	FeeCurrency string       `json:"feeCurrency"`
}

// PaymentError is an entry of Payment.Errors: why a payment failed, was
// declined or returned.
type PaymentError struct {
	Code        string `json:"code"`
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

// CreatePaymentRequest is the body of POST /v3/payments.
type CreatePaymentRequest struct {
	QuoteID                          string   `json:"quoteId"`
	BeneficiaryIdentityID            string   `json:"beneficiaryIdentityId"`
	BeneficiaryFinancialInstrumentID string   `json:"beneficiaryFinancialInstrumentId"`
	OriginatorIdentityID             string   `json:"originatorIdentityId,omitempty"`
	InternalID                       string   `json:"internalId,omitempty"`
	PaymentLabels                    []string `json:"paymentLabels,omitempty"`
}

// QuoteRequest is the body of POST /v2/quotes: the sandbox's simple quote
// for one corridor (the real service's quote collection is richer).
type QuoteRequest struct {
	SourceCurrency      string       `json:"sourceCurrency"`
	DestinationCurrency string       `json:"destinationCurrency"`
	SourceAmount        money.Number `json:"sourceAmount"`
}

// Quote answers POST /v2/quotes; its quoteId creates a payment until
// expiresAt.
type Quote struct {
	QuoteID             string       `json:"quoteId"`
	SourceCurrency      string       `json:"sourceCurrency"`
	SourceAmount        money.Number `json:"sourceAmount"`
	DestinationCurrency string       `json:"destinationCurrency"`
	DestinationAmount   money.Number `json:"destinationAmount"`
	ExchangeRate        money.Number `json:"exchangeRate"`
	CreatedAt           time.Time    `json:"createdAt"`
	ExpiresAt           time.Time    `json:"expiresAt"`
}

// PaymentList answers GET /v3/payments?internalId=.
type PaymentList struct {
	Data []Payment `json:"data"`
}

// StateTransition is one step of a payment's state history.
type StateTransition struct {
	UpdatedFrom State     `json:"updatedFrom"`
	UpdatedTo   State     `json:"updatedTo"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// StateTransitions answers GET /v3/payments/{id}/states.
type StateTransitions struct {
	StateTransitions wire.List[StateTransition] `json:"stateTransitions"`
}

// Sort fields and directions of the payment filter.
const (
	SortCreatedAt = "CREATED_AT"
	SortDesc      = "DESC"
	SortAsc       = "ASC"
)

// FilterRequest is the body of POST /v3/payments/filter (and /v2).
type FilterRequest struct {
	Filter Filter  `json:"filter"`
	Sort   *Sort   `json:"sort,omitempty"`
	Page   *PageIn `json:"page,omitempty"`
}

// Filter selects payments. Fields beyond paymentStates are those of the real
// service (api-choices.md).
type Filter struct {
	PaymentStates         []State    `json:"paymentStates,omitempty"`
	PaymentIDs            []string   `json:"paymentIds,omitempty"`
	InternalID            string     `json:"internalId,omitempty"`
	AfterTimestamp        *time.Time `json:"afterTimestamp,omitempty"`
	BeforeTimestamp       *time.Time `json:"beforeTimestamp,omitempty"`
	DestinationCurrencies []string   `json:"destinationCurrencies,omitempty"`
}

// Sort orders filter results.
type Sort struct {
	SortField     string `json:"sortField,omitempty"`
	SortDirection string `json:"sortDirection,omitempty"`
}

// PageIn is the body token page of a filter request (spec 2.1).
type PageIn struct {
	Size          int    `json:"size,omitempty"`
	LastPageToken string `json:"lastPageToken,omitempty"`
}

// FilterResponse is one page of a payment filter: lastPageToken is absent on
// the last page.
type FilterResponse struct {
	Data   []Payment `json:"data"`
	Filter Filter    `json:"filter"`
	Sort   Sort      `json:"sort"`
	Page   PageIn    `json:"page"`
}

// Identity types and payment roles.
const (
	IdentityBusiness    = "BUSINESS"
	IdentityIndividual  = "INDIVIDUAL"
	RoleOriginator      = "ORIGINATOR"
	RoleBeneficiary     = "BENEFICIARY"
	IdentityStateActive = "ACTIVE"
)

// Identity is an originator or beneficiary known to the platform.
type Identity struct {
	wire.Raw `json:"-"`

	IdentityID    string    `json:"identityId"`
	IdentityType  string    `json:"identityType"`
	PaymentRole   string    `json:"paymentRole"`
	IdentityState string    `json:"identityState"`
	NickName      string    `json:"nickName"`
	InternalID    string    `json:"internalId,omitempty"`
	CreatedAt     time.Time `json:"createdAt"`
}

// IdentitiesPage is one page of GET /v3/identities (query token style):
// nextToken is absent on the last page.
type IdentitiesPage struct {
	Data      []Identity `json:"data"`
	NextToken string     `json:"nextToken,omitempty"`
}

// FinancialInstrument is an account of an identity (US_ACH, MX_SPEI...).
type FinancialInstrument struct {
	wire.Raw `json:"-"`

	FinancialInstrumentID   string    `json:"financialInstrumentId"`
	FinancialInstrumentType string    `json:"financialInstrumentType"`
	Currency                string    `json:"currency"`
	Country                 string    `json:"country"`
	Label                   string    `json:"label"`
	CreatedAt               time.Time `json:"createdAt"`
}

// InstrumentsPage is one page of financial instruments of an identity.
type InstrumentsPage struct {
	Data      []FinancialInstrument `json:"data"`
	NextToken string                `json:"nextToken,omitempty"`
}

// Ledger operations, sources and statuses.
const (
	OpCredit   = "CREDIT"
	OpReserve  = "RESERVE"
	OpDebit    = "DEBIT"
	OpRelease  = "RELEASE"
	SrcPayment = "PAYMENTS"
	SrcBank    = "BANK"
	TxnSuccess = "SUCCESS"
	TxnPending = "PENDING"
)

// LedgerTransaction is a movement of the prefunded account of one currency.
// TxnReference is the payment id for RESERVE and DEBIT (and RELEASE of a
// payment), null for the others.
type LedgerTransaction struct {
	wire.Raw `json:"-"`

	Amount                 money.Number `json:"amount"`
	Currency               string       `json:"currency"`
	TxnReference           *string      `json:"txnReference"`
	Operation              string       `json:"operation"`
	TxnSource              string       `json:"txnSource"`
	Status                 string       `json:"status"`
	CreatedDttm            time.Time    `json:"createdDttm"`
	AvailableBalanceBefore money.Number `json:"availableBalanceBefore"`
	AvailableBalanceAfter  money.Number `json:"availableBalanceAfter"`
}

// Reference returns TxnReference or "".
func (t LedgerTransaction) Reference() string {
	if t.TxnReference == nil {
		return ""
	}
	return *t.TxnReference
}

// LedgerPage is one page of GET /v2/ledger-transactions (record offset
// style): all records are read when offset + pageElements >= total.
type LedgerPage struct {
	Offset                int                 `json:"offset"`
	PageSize              int                 `json:"pageSize"`
	PageElements          int                 `json:"pageElements"`
	Total                 int                 `json:"total"`
	StatementTransactions []LedgerTransaction `json:"statementTransactions"`
}

// Balance is the prefunded balance of one currency (GET /v2/balances).
type Balance struct {
	wire.Raw `json:"-"`

	FundingType      string       `json:"fundingType"`
	Currency         string       `json:"currency"`
	AvailableBalance money.Number `json:"availableBalance"`
	ReservedBalance  money.Number `json:"reservedBalance"`
}

// Balances answers GET /v2/balances.
type Balances struct {
	Timestamp time.Time `json:"timestamp"`
	Balances  []Balance `json:"balances"`
}

// TokenRequest is the JSON body of POST {auth_url}/v2/oauth/token (4.2).
type TokenRequest struct {
	GrantType    string `json:"grant_type"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Audience     string `json:"audience"`
}

// TokenResponse is the access token response (2.3). AccessToken is a JWT of
// variable length: never validate it by length.
type TokenResponse struct {
	AccessToken string `json:"access_token"`
	ExpiresIn   int    `json:"expires_in"`
	TokenType   string `json:"token_type"`
	Scope       string `json:"scope"`
}

// TokenTest answers GET {auth_url}/v2/oauth/token/test. The real service
// answers an array of one such object; readers accept both shapes.
type TokenTest struct {
	Message         string `json:"message"`
	SecondsToExpiry int    `json:"seconds_to_expiry"`
}

// Tolerant pages and lists: what the client decodes (records one by one,
// see package wire); the sandbox writes the plain ones above.
type (
	PaymentListIn struct {
		Data wire.Items[Payment] `json:"data"`
	}
	FilterResponseIn struct {
		Data wire.Items[Payment] `json:"data"`
		Page PageIn              `json:"page"`
	}
	IdentitiesPageIn struct {
		Data      wire.Items[Identity] `json:"data"`
		NextToken string               `json:"nextToken"`
	}
	InstrumentsPageIn struct {
		Data      wire.Items[FinancialInstrument] `json:"data"`
		NextToken string                          `json:"nextToken"`
	}
	LedgerPageIn struct {
		Offset                int                           `json:"offset"`
		PageSize              int                           `json:"pageSize"`
		PageElements          int                           `json:"pageElements"`
		Total                 int                           `json:"total"`
		StatementTransactions wire.Items[LedgerTransaction] `json:"statementTransactions"`
	}
	BalancesIn struct {
		Timestamp time.Time           `json:"timestamp"`
		Balances  wire.Items[Balance] `json:"balances"`
	}
)
