// Package reporting holds the records of the reporting interface, read by
// its client (wire/reporting/client) (spec area C): the
// list of pre-generated payment reports, one report, and its download, parsed
// from CSV or JSON into typed rows.
//
// Where the spec says "not shown", this package follows api-choices.md:
//   - paths: GET /v2/reports -> {reports}, GET /v2/reports/{id},
//     GET /v2/reports/download/{id} (an empty report may be 204);
//   - the reporting interface takes the payments token and answers errors
//     with the payments error object (apierr.PaymentsBody);
//   - a CSV report has a header row naming the spec's fields in the spec's
//     order; a JSON report is an array of row objects with the same names;
//   - report status values beyond READY: PENDING while generating;
//   - a download follows the record's download_link (the record of Get has
//     one, the list's records do not); the bearer token goes with it only
//     to the reporting interface's own scheme, host and port. When the
//     server gives no link, the path above is guessed.
//
// It reads as a tolerant reader (design.md): unknown record fields are
// ignored and a list record that cannot be read is skipped alone; in a
// report, columns the spec does not name are kept per row (Extra), absent
// values are empty, and a row that cannot be read is skipped alone with
// its line, column and reason. Only network_payment_id (and, on a RECON
// line, transaction_id) must be present: they say which payment and which
// transaction a row is.
//
// Change those here when a real deployment differs.
package reporting

import (
	"time"

	"treasury/wire/money"
)

// Paths of the reporting interface, relative to its base URL.
const (
	PathReports  = "/v2/reports"           // + "/" + id
	PathDownload = "/v2/reports/download/" // + id
)

// Report types, formats and statuses (2.4).
const (
	TypePaymentOps = "PAYMENT_OPS"
	TypeRecon      = "RECON"
	FormatCSV      = "CSV"
	FormatJSON     = "JSON"
	StatusReady    = "READY"
	StatusPending  = "PENDING"
)

// Report is a report record (2.4). DownloadLink is present when the report is
// ready, and never in the list. Dates the server left out are zero. A
// record decoded from JSON keeps the JSON it arrived as (RawJSON).
type Report struct {
	ID           string    `json:"id"`
	Type         string    `json:"type"`
	Format       string    `json:"format"`
	Status       string    `json:"status"`
	StartDate    time.Time `json:"start_date"`
	EndDate      time.Time `json:"end_date"`
	DownloadLink string    `json:"download_link,omitempty"`

	raw string // as received; a string, so that Report stays comparable
}

// ReportList answers GET /v2/reports. Decoding it reads each record on its
// own: Reports holds those that could be read, Skipped the others.
type ReportList struct {
	Reports []Report `json:"reports"`
	Skipped []Skip   `json:"-"`
}

// Field is a column of a report row that the spec does not name, kept as
// received: Name is its CSV header or JSON key, Value its text (a JSON
// null is empty; a JSON value other than a string or number is kept as its
// JSON text).
type Field struct {
	Name  string
	Value string
}

// PaymentOpsRow is a row of a PAYMENT_OPS report (2.5): one per payment.
// Every value but NetworkPaymentID may be absent: a pointer is then nil, a
// time zero, a string empty, and SentAmount and ReceivedAmount read 0 with
// SentAmountAbsent or ReceivedAmountAbsent set (a FAILED payment received
// nothing). Those two are flags beside a value, not pointers, so rows built
// in code (the sandbox) need not change; read them with Sent and Received.
// Role-specific amounts ("sender only", "receiver only") are nil when the
// report's requester is on the other side.
type PaymentOpsRow struct {
	EndToEndID             string        `json:"end_to_end_id"`
	NetworkPaymentID       string        `json:"network_payment_id"`
	QuoteTS                time.Time     `json:"quote_ts"`
	CreatedAt              time.Time     `json:"created_at"`
	ExecutedAt             *time.Time    `json:"executed_at"`
	SenderAddress          string        `json:"sender_address"`
	SenderCustomer         string        `json:"sender_customer"`
	SentAmount             money.Number  `json:"sent_amount"`
	SentCurrency           string        `json:"sent_currency"`
	WithdrawalResultAmount *money.Number `json:"withdrawal_result_amount"`
	ReceiverAddress        string        `json:"receiver_address"`
	ReceiverCustomer       string        `json:"receiver_customer"`
	ReceivedAmount         money.Number  `json:"received_amount"`
	ReceivedCurrency       string        `json:"received_currency"`
	FXSpotRate             *money.Number `json:"fx_spot_rate"`
	SourceExchange         string        `json:"source_exchange"`
	DestinationExchange    string        `json:"destination_exchange"`
	PaymentMethod          string        `json:"payment_method"`
	PaymentState           string        `json:"payment_state"`
	RemitterName           string        `json:"remitter_name"`
	RemitterAccount        string        `json:"remitter_account"`
	BeneficiaryName        string        `json:"beneficiary_name"`
	BeneficiaryAccount     string        `json:"beneficiary_account"`

	SentAmountAbsent     bool `json:"-"`
	ReceivedAmountAbsent bool `json:"-"`
	// Extra are the row's columns the spec does not name, in the report's
	// order.
	Extra []Field `json:"-"`
}

// ReconRow is a line of a RECON report (2.6): one per transaction of a
// payment; the lines of one payment share NetworkPaymentID. Absent values
// are as in PaymentOpsRow; NetworkPaymentID and TransactionID are always
// present.
type ReconRow struct {
	EndToEndID                           string        `json:"end_to_end_id"`
	NetworkPaymentID                     string        `json:"network_payment_id"`
	PaymentState                         string        `json:"payment_state"`
	InternalPaymentState                 string        `json:"internal_payment_state"`
	QuoteTS                              time.Time     `json:"quote_ts"`
	ExecutedAt                           *time.Time    `json:"executed_at"`
	SenderAddress                        string        `json:"sender_address"`
	SenderCustomer                       string        `json:"sender_customer"`
	ReceiverAddress                      string        `json:"receiver_address"`
	ReceiverCustomer                     string        `json:"receiver_customer"`
	SentAmount                           money.Number  `json:"sent_amount"`
	ReceivedAmount                       money.Number  `json:"received_amount"`
	SentCurrency                         string        `json:"sent_currency"`
	ReceivedCurrency                     string        `json:"received_currency"`
	FXSpotRate                           *money.Number `json:"fx_spot_rate"`
	SourceExchange                       string        `json:"source_exchange"`
	DestinationExchange                  string        `json:"destination_exchange"`
	PaymentMethod                        string        `json:"payment_method"`
	TransactionID                        string        `json:"transaction_id"`
	TransactionType                      string        `json:"transaction_type"`
	TransactionState                     string        `json:"transaction_state"`
	VenueID                              string        `json:"venue_id"`
	SourceResultAmount                   *money.Number `json:"source_result_amount"`
	SourceResultAdjustedAmount           *money.Number `json:"source_result_adjusted_amount"`
	SourceResultProceeds                 *money.Number `json:"source_result_proceeds"`
	SourceResultAdjustedProceeds         *money.Number `json:"source_result_adjusted_proceeds"`
	WithdrawalResultID                   string        `json:"withdrawal_result_id"`
	WithdrawalResultDetailsTransactionID string        `json:"withdrawal_result_details_transaction_id"`
	WithdrawalResultAmount               *money.Number `json:"withdrawal_result_amount"`
	WithdrawalResultFeeAmount            *money.Number `json:"withdrawal_result_fee_amount"`
	WithdrawalResultIncentiveValue       *money.Number `json:"withdrawal_result_incentive_value"`
	DepositResultID                      string        `json:"deposit_result_id"`
	DepositResultAmount                  *money.Number `json:"deposit_result_amount"`
	DepositResultFeeAmount               *money.Number `json:"deposit_result_fee_amount"`
	BalanceChangeCurrency                string        `json:"balance_change_currency"`
	BalanceChange                        *money.Number `json:"balance_change"`
	BalanceResult                        *money.Number `json:"balance_result"`
	DestinationResultID                  string        `json:"destination_result_id"`
	DestinationResultAmount              *money.Number `json:"destination_result_amount"`
	DestinationResultAdjustedAmount      *money.Number `json:"destination_result_adjusted_amount"`
	DestinationResultIncentiveValue      *money.Number `json:"destination_result_incentive_value"`
	DestinationResultProceeds            *money.Number `json:"destination_result_proceeds"`
	DestinationResultAdjustedProceeds    *money.Number `json:"destination_result_adjusted_proceeds"`
	LiquidationStatus                    string        `json:"liquidation_status"`

	SentAmountAbsent     bool `json:"-"`
	ReceivedAmountAbsent bool `json:"-"`
	// Extra are the line's columns the spec does not name, in the report's
	// order.
	Extra []Field `json:"-"`
}

// Transaction types and states of RECON lines. TRADE and COMPLETE are the
// spec's; the others are chosen.
const (
	TxnTrade      = "TRADE"
	TxnWithdrawal = "WITHDRAWAL"
	TxnTransfer   = "TRANSFER"
	TxnPayout     = "PAYOUT"
	TxnComplete   = "COMPLETE"
	TxnPending    = "PENDING"
	TxnFailed     = "FAILED"
)
