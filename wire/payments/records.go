// Package payments speaks to the payments interface (spec area B): payments,
// their state history, identities, financial instruments, ledger transactions
// and balances, with tokens from the payments auth service (see wire/auth).
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

	"treasury/wire"
	"treasury/wire/money"
)

// Paths of the payments interface, relative to its base URL.
const (
	PathPaymentV2         = "/v2/payments/"       // + id: the spec's, not the document's
	PathPaymentV3         = "/v3/payments/"       // + id; + id + "/states"
	PathPayments          = "/v3/payments"        // GET ?internalId=, POST create
	PathFilterV2          = "/v2/payments/filter" // POST
	PathFilterV3          = "/v3/payments/filter" // POST
	PathIdentities        = "/v3/identities"      // + "/" + id + "/financial-instruments"
	PathLedger            = "/v2/ledger-transactions"
	PathBalances          = "/v2/balances"
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

// Widths of the widest values the vendor's document defines, for columns
// that show them whole.
const (
	StateWidth          = len(AwaitingFunding)            // PaymentStateV2
	CurrencyWidth       = 5                               // ^[A-Z]{3,5}$: RLUSD
	IdentityStateWidth  = len("DEACTIVATED")              // identity-state
	InstrumentTypeWidth = len("CN_INDIVIDUAL_TRADE")      // financial-instrument-type
	OperationWidth      = len("OVERRIDE_PREFUND_BALANCE") // the ledger's operation
	TxnSourceWidth      = len("POSTED_PAYMENT")           // the ledger's txnSource
)

// Terminal reports whether no further state follows. RETURNED follows
// COMPLETED, so COMPLETED is not terminal.
func (s State) Terminal() bool { return s == Failed || s == Declined || s == Returned }

// FailedTerminal reports whether s is a terminal failure state, in which
// GET /v3/payments/{id} carries errors.
func (s State) FailedTerminal() bool { return s.Terminal() }

// InFlight reports whether the payment is moving toward completion: it
// was initiated and has not finished. A QUOTED payment is not: the
// vendor's document says it "has not yet been initiated" (a quote, which
// may never be accepted).
func (s State) InFlight() bool {
	switch s {
	case AwaitingFunding, Initiated, Validating, Transferring:
		return true
	}
	return false
}

// Unfinished reports whether the payment may still change state by
// itself: QUOTED (it may be initiated) or in flight. The data layer keeps
// and reads such payments whatever their age.
func (s State) Unfinished() bool { return s == Quoted || s.InFlight() }

// QuoteExpired reports whether p is a QUOTED payment whose expiresAt has
// passed at now (the platform's time): it can no longer be initiated.
func (p *Payment) QuoteExpired(now time.Time) bool {
	return p.PaymentState == Quoted && !p.ExpiresAt.IsZero() && !now.Before(p.ExpiresAt)
}

// Payment is the payment record: PaymentV2 of the vendor's document (the
// filter's records) and PaymentWithDetailsV2 (GET /v3/payments/{id}, which
// adds errors and payoutExecutionDetails). Optional times stay absent
// (zero, never written as a zero time): a QUOTED payment has no
// initiatedAt.
type Payment struct {
	wire.Raw `json:"-"`

	PaymentID             string                 `json:"paymentId"`
	PaymentState          State                  `json:"paymentState"`
	InitiatedAt           time.Time              `json:"initiatedAt,omitzero"`
	ExpiresAt             time.Time              `json:"expiresAt,omitzero"`
	LastStateUpdatedAt    time.Time              `json:"lastStateUpdatedAt,omitzero"`
	JITFundingExpiresAt   time.Time              `json:"jitFundingExpiresAt,omitzero"`
	CryptoTransactionHash string                 `json:"cryptoTransactionHash,omitempty"`
	Originator            Originator             `json:"originator"`
	Destination           Destination            `json:"destination"`
	AdjustedExchangeRate  wire.Opt[AdjustedRate] `json:"adjustedExchangeRate,omitzero"`
	Fees                  wire.List[FeeSummary]  `json:"fees,omitempty"`
	Taxes                 wire.List[TaxSummary]  `json:"taxes,omitempty"`
	// Codes are the codes the corridor may ask for (sourceOfCash,
	// purposeCode, receiverRelationship), nil when the record has none:
	// read them through Declared.
	*Codes
	PaymentMemo        wire.Text                    `json:"paymentMemo,omitempty"`
	TransactionDetails wire.Opt[TransactionDetails] `json:"transactionDetails,omitzero"`
	PaymentLabels      wire.List[string]            `json:"paymentLabels,omitempty"`
	// Errors is present on GET /v3/payments/{id} in a terminal failure
	// state (the spec's wording also puts it on the filter's records).
	Errors wire.List[PaymentError] `json:"errors,omitempty"`
	// PayoutExecutionDetails is GET /v3/payments/{id}'s, once the payout
	// started, when the partner reports it (informational only: it never
	// fails the record).
	PayoutExecutionDetails wire.Opt[PayoutExecution] `json:"payoutExecutionDetails,omitzero"`

	// Partial marks a record known only from PAYMENT_STATE_TRANSITION
	// notifications (spec 2.8): its id, state, times, currencies and
	// amounts are known; its internalId, parties, instrument, country,
	// payout, fees and labels are not yet (they are blank, not empty).
	// Never on the wire: the live store sets it, and clears it when a full
	// read completes the record.
	Partial bool `json:"-"`
	// Detailed marks a record read by id (PaymentWithDetailsV2) as of its
	// state: what only that read gives (errors, payout execution details)
	// is known, present or not. A list record of the same state does not
	// undo it. Never on the wire: the client sets it.
	Detailed bool `json:"-"`
}

// Codes are the codes a corridor and payout partner may ask of a payment:
// where the money comes from, what it is for, how the receiver is related
// to the debtor. Few values, many payments: the payments a client reads
// share one copy of each set (Sharer), held by pointer.
type Codes struct {
	SourceOfCash         wire.Text `json:"sourceOfCash,omitempty"`
	PurposeCode          wire.Text `json:"purposeCode,omitempty"`
	ReceiverRelationship wire.Text `json:"receiverRelationship,omitempty"`
}

// Declared are the payment's codes (Codes), the zero value when it has
// none: never read them through the embedded pointer, which is nil then.
func (p *Payment) Declared() Codes {
	if p.Codes == nil {
		return Codes{}
	}
	return *p.Codes
}

// AdjustedRate is the foreign exchange rate the payment converts at.
type AdjustedRate struct {
	AdjustedRate money.Number `json:"adjustedRate"`
}

// TransactionDetails is the payment's category.
type TransactionDetails struct {
	PaymentProduct    wire.Text `json:"paymentProduct,omitempty"`
	FlowType          wire.Text `json:"flowType,omitempty"`
	ThirdPartyPayment wire.Flag `json:"thirdPartyPayment,omitempty"`
	BusinessUseCase   wire.Text `json:"businessUseCase,omitempty"`
}

// PayoutExecution is what the payout partner reports of the payout: the
// rail used and the tracking references support is asked for (IMAD and
// OMAD on Fedwire, a UTR in India, a clave de rastreo on SPEI, a
// transaction hash on a blockchain).
type PayoutExecution struct {
	PaymentRailUsed    wire.Text                    `json:"paymentRailUsed,omitempty"`
	PayoutStartTime    time.Time                    `json:"payoutStartTime,omitzero"`
	PayoutEndTime      time.Time                    `json:"payoutEndTime,omitzero"`
	TrackingReferences wire.List[TrackingReference] `json:"trackingReferences,omitempty"`
}

// TrackingReference is one reference of a payout: its type (IMAD, UTR...),
// its value, and how to name it to a person.
type TrackingReference struct {
	ReferenceType wire.Text `json:"referenceType"`
	Value         wire.Text `json:"value"`
	DisplayName   wire.Text `json:"displayName,omitempty"`
	Description   wire.Text `json:"description,omitempty"`
}

// Name is how to call the reference: its display name, else its type.
func (r TrackingReference) Name() string {
	if r.DisplayName != "" {
		return string(r.DisplayName)
	}
	return string(r.ReferenceType)
}

// When is the payment's time in lists, windows and orders: when it was
// initiated, or, for a payment never initiated (QUOTED: the document makes
// initiatedAt optional), when its state last changed, else when it
// expires. It is never the zero time for a record that has any time.
func (p *Payment) When() time.Time {
	switch {
	case !p.InitiatedAt.IsZero():
		return p.InitiatedAt
	case !p.LastStateUpdatedAt.IsZero():
		return p.LastStateUpdatedAt
	}
	return p.ExpiresAt
}

// IsPaymentID reports whether ref has the form of a paymentId: a uuid (the
// document's format). Anything else can only be an internalId.
func IsPaymentID(ref string) bool {
	if len(ref) != 36 {
		return false
	}
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// InternalID is the client-assigned id, kept on the originator.
func (p *Payment) InternalID() string { return p.Originator.InternalID }

// Originator is the sending side of a payment.
type Originator struct {
	OriginatorIdentityID        string       `json:"originatorIdentityId,omitempty"`
	OriginatorIdentityIDVersion int          `json:"originatorIdentityIdVersion,omitempty"`
	OriginatorIdentityNickName  string       `json:"originatorIdentityNickName,omitempty"`
	InternalID                  string       `json:"internalId,omitempty"`
	SourceCurrency              string       `json:"sourceCurrency"`
	SourceAmount                money.Number `json:"sourceAmount"`
	Payin                       string       `json:"payin,omitempty"`
}

// Destination is the receiving side of a payment.
type Destination struct {
	BeneficiaryFinancialInstrumentID string       `json:"beneficiaryFinancialInstrumentId,omitempty"`
	DestinationAmount                money.Number `json:"destinationAmount"`
	DestinationCountry               string       `json:"destinationCountry,omitempty"`
	DestinationCurrency              string       `json:"destinationCurrency"`
	BeneficiaryIdentityID            string       `json:"beneficiaryIdentityId,omitempty"`
	BeneficiaryIdentityNickName      string       `json:"beneficiaryIdentityNickName,omitempty"`
	BeneficiaryIdentityVersion       int          `json:"beneficiaryIdentityVersion,omitempty"`
	Payout                           string       `json:"payout,omitempty"`
	DestinationBlockchainNetwork     string       `json:"destinationBlockchainNetwork,omitempty"`
	SelectedPaymentRail              string       `json:"selectedPaymentRail,omitempty"`
}

// FeeSummary is one fee of a payment, with how it is made up.
type FeeSummary struct {
	TotalFee     money.Number            `json:"totalFee"`
	FeeCurrency  string                  `json:"feeCurrency"`
	FeeBreakdown wire.List[FeeBreakdown] `json:"feeBreakdown,omitempty"`
}

// FeeBreakdown is one part of a fee.
type FeeBreakdown struct {
	CalculatedFee  money.Number `json:"calculatedFee"`
	FeeName        wire.Text    `json:"feeName,omitempty"`
	FeeDescription wire.Text    `json:"feeDescription,omitempty"`
}

// TaxSummary is one tax of a payment, with its lines.
type TaxSummary struct {
	TotalTaxes   money.Number            `json:"totalTaxes"`
	TaxCurrency  string                  `json:"taxCurrency"`
	TaxBreakdown wire.List[TaxBreakdown] `json:"taxBreakdown,omitempty"`
}

// TaxBreakdown is one line of a tax.
type TaxBreakdown struct {
	TaxAmount      money.Number `json:"taxAmount"`
	TaxName        wire.Text    `json:"taxName,omitempty"`
	TaxDescription wire.Text    `json:"taxDescription,omitempty"`
	TaxRate        money.Number `json:"taxRate"`
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

// PaymentList answers GET /v3/payments?internalId=.
type PaymentList struct {
	Data []Payment `json:"data"`
}

// StateTransition is one step of a payment's state history.
type StateTransition struct {
	wire.Raw `json:"-"`

	UpdatedFrom State     `json:"updatedFrom"`
	UpdatedTo   State     `json:"updatedTo"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// StateTransitions answers GET /v3/payments/{id}/states (what the
// sandbox's tests decode).
type StateTransitions struct {
	StateTransitions []StateTransition `json:"stateTransitions"`
}

// StateTransitionsIn is StateTransitions as the client reads it: step by
// step, each keeping its JSON.
type StateTransitionsIn struct {
	StateTransitions wire.Items[StateTransition] `json:"stateTransitions"`
}

// Sort directions of the payment filter (the sort fields are the
// client's: payclient.SortInitiatedAt...).
const (
	SortDesc = "DESC"
	SortAsc  = "ASC"
)

// RangeCreation is the filter's filterRangeType of time bounds on the
// payments' creation (the document's PAYMENT_CREATION).
const RangeCreation = "PAYMENT_CREATION"

// RangeLastUpdated is the filterRangeType of time bounds on the time a
// payment's state last changed (the document's PAYMENT_STATUS_LAST_UPDATED).
const RangeLastUpdated = "PAYMENT_STATUS_LAST_UPDATED"

// FilterRequest is the body of POST /v3/payments/filter (and /v2).
type FilterRequest struct {
	Filter Filter  `json:"filter"`
	Sort   *Sort   `json:"sort,omitempty"`
	Page   *PageIn `json:"page,omitempty"`
}

// Filter selects payments. Fields beyond paymentStates are those of the real
// service (api-choices.md).
type Filter struct {
	PaymentStates []State  `json:"paymentStates,omitempty"`
	PaymentIDs    []string `json:"paymentIds,omitempty"`
	InternalID    string   `json:"internalId,omitempty"`
	// FilterRangeType says which time the bounds apply to (the client sends
	// RangeCreation with any bound).
	FilterRangeType string `json:"filterRangeType,omitempty"`
	// AfterTimestamp and BeforeTimestamp bound the time, both inclusive.
	AfterTimestamp        *time.Time `json:"afterTimestamp,omitempty"`
	BeforeTimestamp       *time.Time `json:"beforeTimestamp,omitempty"`
	DestinationCurrencies []string   `json:"destinationCurrencies,omitempty"`
	// BeneficiaryIdentityNickname is the beneficiary's nickname: the
	// document does not call it a prefix match (as it does internalId),
	// so it is taken as exact.
	BeneficiaryIdentityNickname string `json:"beneficiaryIdentityNickname,omitempty"`
	// PaymentLabels selects the payments with any of these labels.
	PaymentLabels []string `json:"paymentLabels,omitempty"`
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
