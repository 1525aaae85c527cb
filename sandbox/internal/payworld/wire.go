package payworld

import (
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire/payments"
)

// The records the payments world writes, shaped as the vendor's published
// document says (PaymentWithDetailsV2, list-identities-response-v3, the
// ledger page...). They are the sandbox's own, not the client's: a server
// that wrote the client's structs could only ever agree with the client.
// Names and paths come from package payments, the protocol's vocabulary.

// Double is an amount written as a Java service writes a double
// (Double.toString): 100.0, 3816.34, 7.75E7, 1.0E-4. The document types
// every amount as number/double; a real server writes them this way, and
// the client must read them exactly.
type Double struct{ decimal.Decimal }

// D wraps a decimal as a Double.
func D(d decimal.Decimal) Double { return Double{d} }

// MarshalJSON writes the amount as Java's Double.toString would.
func (d Double) MarshalJSON() ([]byte, error) { return []byte(javaDouble(d.Decimal)), nil }

// javaDouble is Double.toString of d: plain with at least one decimal
// between 10^-3 and 10^7, else computerized scientific notation with at
// least one digit after the point.
func javaDouble(d decimal.Decimal) string {
	if d.IsZero() {
		return "0.0"
	}
	abs := d.Abs()
	if abs.GreaterThanOrEqual(decimal.New(1, -3)) && abs.LessThan(decimal.New(1, 7)) {
		s := d.String()
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	digits := abs.Coefficient().String()
	exp := int(abs.Exponent())
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	e := len(trimmed) - 1 + exp
	frac := trimmed[1:]
	if frac == "" {
		frac = "0"
	}
	sign := ""
	if d.IsNegative() {
		sign = "-"
	}
	return sign + trimmed[:1] + "." + frac + "E" + strconv.Itoa(e)
}

// paymentRecord is PaymentWithDetailsV2 (GET /v3/payments/{id}) and, without
// errors and payoutExecutionDetails, PaymentV2 (the filter's records).
type paymentRecord struct {
	PaymentID              string               `json:"paymentId"`
	CryptoTransactionHash  string               `json:"cryptoTransactionHash,omitempty"`
	InitiatedAt            *time.Time           `json:"initiatedAt,omitempty"`
	ExpiresAt              time.Time            `json:"expiresAt"`
	JITFundingExpiresAt    *time.Time           `json:"jitFundingExpiresAt,omitempty"`
	LastStateUpdatedAt     time.Time            `json:"lastStateUpdatedAt"`
	PaymentState           payments.State       `json:"paymentState"`
	Originator             originatorRecord     `json:"originator"`
	Destination            destinationRecord    `json:"destination"`
	AdjustedExchangeRate   *rateRecord          `json:"adjustedExchangeRate,omitempty"`
	Fees                   []feeRecord          `json:"fees,omitempty"`
	Taxes                  []taxRecord          `json:"taxes,omitempty"`
	SourceOfCash           string               `json:"sourceOfCash,omitempty"`
	PurposeCode            string               `json:"purposeCode,omitempty"`
	TransactionDetails     *txDetailsRecord     `json:"transactionDetails,omitempty"`
	Errors                 []errorRecord        `json:"errors,omitempty"`
	PaymentLabels          []string             `json:"paymentLabels,omitempty"`
	ReceiverRelationship   string               `json:"receiverRelationship,omitempty"`
	PaymentMemo            string               `json:"paymentMemo,omitempty"`
	PayoutExecutionDetails *payoutDetailsRecord `json:"payoutExecutionDetails,omitempty"`
}

type originatorRecord struct {
	OriginatorIdentityID        string `json:"originatorIdentityId,omitempty"`
	OriginatorIdentityIDVersion int    `json:"originatorIdentityIdVersion,omitempty"`
	OriginatorIdentityNickName  string `json:"originatorIdentityNickName,omitempty"`
	InternalID                  string `json:"internalId,omitempty"`
	SourceCurrency              string `json:"sourceCurrency"`
	SourceAmount                Double `json:"sourceAmount"`
	Payin                       string `json:"payin,omitempty"`
}

type destinationRecord struct {
	BeneficiaryFinancialInstrumentID string `json:"beneficiaryFinancialInstrumentId,omitempty"`
	DestinationAmount                Double `json:"destinationAmount"`
	DestinationCountry               string `json:"destinationCountry,omitempty"`
	DestinationCurrency              string `json:"destinationCurrency"`
	DestinationBlockchainNetwork     string `json:"destinationBlockchainNetwork,omitempty"`
	BeneficiaryIdentityID            string `json:"beneficiaryIdentityId,omitempty"`
	BeneficiaryIdentityVersion       int    `json:"beneficiaryIdentityVersion,omitempty"`
	BeneficiaryIdentityNickName      string `json:"beneficiaryIdentityNickName,omitempty"`
	Payout                           string `json:"payout,omitempty"`
	SelectedPaymentRail              string `json:"selectedPaymentRail,omitempty"`
}

type rateRecord struct {
	AdjustedRate Double `json:"adjustedRate"`
}

type feeRecord struct {
	TotalFee     Double              `json:"totalFee"`
	FeeCurrency  string              `json:"feeCurrency"`
	FeeBreakdown []feeBreakdownEntry `json:"feeBreakdown,omitempty"`
}

type feeBreakdownEntry struct {
	CalculatedFee  Double `json:"calculatedFee"`
	FeeName        string `json:"feeName"`
	FeeDescription string `json:"feeDescription"`
}

type taxRecord struct {
	TotalTaxes   Double              `json:"totalTaxes"`
	TaxCurrency  string              `json:"taxCurrency"`
	TaxBreakdown []taxBreakdownEntry `json:"taxBreakdown,omitempty"`
}

type taxBreakdownEntry struct {
	TaxAmount      Double `json:"taxAmount"`
	TaxName        string `json:"taxName"`
	TaxDescription string `json:"taxDescription"`
	TaxRate        Double `json:"taxRate"`
}

type txDetailsRecord struct {
	PaymentProduct    string  `json:"paymentProduct"`
	FlowType          string  `json:"flowType"`
	ThirdPartyPayment bool    `json:"thirdPartyPayment"`
	BusinessUseCase   *string `json:"businessUseCase"`
}

type errorRecord struct {
	Code        string `json:"code"`
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

type payoutDetailsRecord struct {
	PaymentRailUsed    string           `json:"paymentRailUsed,omitempty"`
	PayoutStartTime    *time.Time       `json:"payoutStartTime,omitempty"`
	PayoutEndTime      *time.Time       `json:"payoutEndTime,omitempty"`
	TrackingReferences []trackingRecord `json:"trackingReferences,omitempty"`
}

type trackingRecord struct {
	ReferenceType string `json:"referenceType"`
	Value         string `json:"value"`
	DisplayName   string `json:"displayName,omitempty"`
	Description   string `json:"description,omitempty"`
}

// filterResponse is PaymentsResponseV2.
type filterResponse struct {
	Data   []paymentRecord `json:"data"`
	Filter filterEcho      `json:"filter"`
	Sort   sortEcho        `json:"sort"`
	Page   pageEcho        `json:"page"`
}

type sortEcho struct {
	SortField     string `json:"sortField"`
	SortDirection string `json:"sortDirection"`
}

type pageEcho struct {
	Size          int    `json:"size"`
	LastPageToken string `json:"lastPageToken,omitempty"`
}

// paymentList answers the spec's GET /v3/payments?internalId= (spec face).
type paymentList struct {
	Data []paymentRecord `json:"data"`
}

type transitionRecord struct {
	UpdatedFrom payments.State `json:"updatedFrom"`
	UpdatedTo   payments.State `json:"updatedTo"`
	UpdatedAt   time.Time      `json:"updatedAt"`
}

type transitionsResponse struct {
	StateTransitions []transitionRecord `json:"stateTransitions"`
}

// identityRecord is identity-response-v3.
type identityRecord struct {
	IdentityID    string    `json:"identityId"`
	IdentityType  string    `json:"identityType"`
	PaymentRole   string    `json:"paymentRole"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
	IdentityState string    `json:"identityState"`
	NickName      string    `json:"nickName,omitempty"`
	InternalID    string    `json:"internalId,omitempty"`
	Tags          []string  `json:"tags,omitempty"`
	Version       int       `json:"version"`
	SchemaVersion string    `json:"schemaVersion"`
}

type identitiesResponse struct {
	Data      []identityRecord `json:"data"`
	NextToken string           `json:"nextToken,omitempty"`
}

// instrumentRecord is financial-instrument-metadata.
type instrumentRecord struct {
	FinancialInstrumentID   string    `json:"financialInstrumentId"`
	FinancialInstrumentType string    `json:"financialInstrumentType"`
	Currency                string    `json:"currency"`
	Label                   string    `json:"label,omitempty"`
	Country                 string    `json:"country,omitempty"`
	CreatedAt               time.Time `json:"createdAt"`
	UpdatedAt               time.Time `json:"updatedAt"`
}

type instrumentsResponse struct {
	Data      []instrumentRecord `json:"data"`
	NextToken string             `json:"nextToken,omitempty"`
}

// ledgerRecord is a statementTransactions entry.
type ledgerRecord struct {
	Tenant                 string    `json:"tenant"`
	Amount                 Double    `json:"amount"`
	Currency               string    `json:"currency"`
	TxnReference           *string   `json:"txnReference"`
	Operation              string    `json:"operation"`
	TxnSource              string    `json:"txnSource"`
	Status                 string    `json:"status"`
	CreatedDttm            time.Time `json:"createdDttm"`
	UpdatedDttm            time.Time `json:"updatedDttm"`
	AvailableBalanceBefore Double    `json:"availableBalanceBefore"`
	AvailableBalanceAfter  Double    `json:"availableBalanceAfter"`
}

type ledgerResponse struct {
	Offset                int            `json:"offset"`
	PageSize              int            `json:"pageSize"`
	PageElements          int            `json:"pageElements"`
	Total                 int            `json:"total"`
	StatementTransactions []ledgerRecord `json:"statementTransactions"`
}

type balanceRecord struct {
	FundingType      string `json:"fundingType"`
	Currency         string `json:"currency"`
	AvailableBalance Double `json:"availableBalance"`
	ReservedBalance  Double `json:"reservedBalance"`
}

type balancesResponse struct {
	Timestamp time.Time       `json:"timestamp"`
	Balances  []balanceRecord `json:"balances"`
}
