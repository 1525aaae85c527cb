package reporting

import (
	"fmt"
	"strings"
	"time"

	"treasury/data/money"
)

// cell is one value of a report row as read from CSV or JSON. null is true
// for a JSON null (and never for CSV, where an empty cell is empty text).
// number is true for a JSON number literal.
type cell struct {
	text   string
	null   bool
	number bool
}

func (c cell) empty() bool { return c.null || c.text == "" }

// column names one field of a row type and converts it both ways. optional
// columns are role-specific or reserved values (2.5, 2.6): an empty cell
// gives nil, and a JSON row may omit them. Every column must appear in a CSV
// header.
type column[R any] struct {
	name     string
	optional bool
	set      func(r *R, c cell) error
	get      func(r *R) string
}

// parseTime reads an ISO 8601 date-time; a value without a zone is taken as
// UTC, as the report periods are UTC.
func parseTime(s string) (time.Time, error) {
	layouts := [...]string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"}
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an ISO 8601 date-time", clip(s))
}

func formatTime(t time.Time) string { return t.Format(time.RFC3339Nano) }

func parseAmount(s string) (money.Number, error) {
	d, err := money.Parse(strings.TrimSpace(s))
	if err != nil {
		return money.Number{}, fmt.Errorf("%q is not a decimal amount", clip(s))
	}
	return money.N(d), nil
}

func strCol[R any](name string, optional bool, f func(*R) *string) column[R] {
	return column[R]{
		name: name, optional: optional,
		set: func(r *R, c cell) error { *f(r) = c.text; return nil },
		get: func(r *R) string { return *f(r) },
	}
}

// valueCol is a required column of a value that parse reads from a cell
// and format writes back.
func valueCol[R, V any](name string, f func(*R) *V, parse func(cell) (V, error), format func(V) string) column[R] {
	return column[R]{
		name: name,
		set: func(r *R, c cell) (err error) {
			*f(r), err = parse(c)
			return err
		},
		get: func(r *R) string { return format(*f(r)) },
	}
}

// optValueCol is valueCol for an optional value: an empty cell is nil.
func optValueCol[R, V any](name string, f func(*R) **V, parse func(cell) (V, error), format func(V) string) column[R] {
	return column[R]{
		name: name, optional: true,
		set: func(r *R, c cell) error {
			if c.empty() {
				*f(r) = nil
				return nil
			}
			v, err := parse(c)
			if err != nil {
				return err
			}
			*f(r) = &v
			return nil
		},
		get: func(r *R) string {
			if p := *f(r); p != nil {
				return format(*p)
			}
			return ""
		},
	}
}

func amountCell(c cell) (money.Number, error) {
	if c.empty() {
		return money.Number{}, fmt.Errorf("amount is required")
	}
	return parseAmount(c.text)
}

func amountText(n money.Number) string { return n.Decimal.String() }

func timeCell(c cell) (time.Time, error) {
	if c.number {
		return time.Time{}, fmt.Errorf("expected a date-time string, got number %s", clip(c.text))
	}
	if c.empty() {
		return time.Time{}, fmt.Errorf("date-time is required")
	}
	return parseTime(c.text)
}

func numCol[R any](name string, f func(*R) *money.Number) column[R] {
	return valueCol(name, f, amountCell, amountText)
}

func optNumCol[R any](name string, f func(*R) **money.Number) column[R] {
	return optValueCol(name, f, amountCell, amountText)
}

func timeCol[R any](name string, f func(*R) *time.Time) column[R] {
	return valueCol(name, f, timeCell, formatTime)
}

// optTimeCol refuses a JSON number even where the column may be empty.
func optTimeCol[R any](name string, f func(*R) **time.Time) column[R] {
	return optValueCol(name, f, timeCell, formatTime)
}

// PaymentOpsColumns are the column names of a PAYMENT_OPS report (2.5), in
// the spec's order.
func PaymentOpsColumns() []string { return names(paymentOpsColumns()) }

// ReconColumns are the column names of a RECON report (2.6), in the spec's
// order.
func ReconColumns() []string { return names(reconColumns()) }

func names[R any](cols []column[R]) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

type opsRow = PaymentOpsRow

// paymentOpsColumns is the PAYMENT_OPS table of 2.5. Sender-only,
// receiver-only and requester-only fields are optional.
func paymentOpsColumns() []column[opsRow] {
	return []column[opsRow]{
		strCol("end_to_end_id", false, func(r *opsRow) *string { return &r.EndToEndID }),
		strCol("network_payment_id", false, func(r *opsRow) *string { return &r.NetworkPaymentID }),
		timeCol("quote_ts", func(r *opsRow) *time.Time { return &r.QuoteTS }),
		timeCol("created_at", func(r *opsRow) *time.Time { return &r.CreatedAt }),
		optTimeCol("executed_at", func(r *opsRow) **time.Time { return &r.ExecutedAt }),
		strCol("sender_address", false, func(r *opsRow) *string { return &r.SenderAddress }),
		strCol("sender_customer", false, func(r *opsRow) *string { return &r.SenderCustomer }),
		numCol("sent_amount", func(r *opsRow) *money.Number { return &r.SentAmount }),
		strCol("sent_currency", false, func(r *opsRow) *string { return &r.SentCurrency }),
		optNumCol("withdrawal_result_amount", func(r *opsRow) **money.Number { return &r.WithdrawalResultAmount }),
		strCol("receiver_address", false, func(r *opsRow) *string { return &r.ReceiverAddress }),
		strCol("receiver_customer", false, func(r *opsRow) *string { return &r.ReceiverCustomer }),
		numCol("received_amount", func(r *opsRow) *money.Number { return &r.ReceivedAmount }),
		strCol("received_currency", false, func(r *opsRow) *string { return &r.ReceivedCurrency }),
		optNumCol("fx_spot_rate", func(r *opsRow) **money.Number { return &r.FXSpotRate }),
		strCol("source_exchange", true, func(r *opsRow) *string { return &r.SourceExchange }),
		strCol("destination_exchange", true, func(r *opsRow) *string { return &r.DestinationExchange }),
		strCol("payment_method", true, func(r *opsRow) *string { return &r.PaymentMethod }),
		strCol("payment_state", false, func(r *opsRow) *string { return &r.PaymentState }),
		strCol("remitter_name", true, func(r *opsRow) *string { return &r.RemitterName }),
		strCol("remitter_account", true, func(r *opsRow) *string { return &r.RemitterAccount }),
		strCol("beneficiary_name", true, func(r *opsRow) *string { return &r.BeneficiaryName }),
		strCol("beneficiary_account", true, func(r *opsRow) *string { return &r.BeneficiaryAccount }),
	}
}

type rcRow = ReconRow

// reconColumns is the RECON table of 2.6. Role-specific amounts and ids,
// the internal state and the reserved liquidation_status are optional.
func reconColumns() []column[rcRow] {
	s := func(name string, opt bool, f func(*rcRow) *string) column[rcRow] { return strCol(name, opt, f) }
	n := func(name string, f func(*rcRow) **money.Number) column[rcRow] { return optNumCol(name, f) }
	return []column[rcRow]{
		s("end_to_end_id", false, func(r *rcRow) *string { return &r.EndToEndID }),
		s("network_payment_id", false, func(r *rcRow) *string { return &r.NetworkPaymentID }),
		s("payment_state", false, func(r *rcRow) *string { return &r.PaymentState }),
		s("internal_payment_state", true, func(r *rcRow) *string { return &r.InternalPaymentState }),
		timeCol("quote_ts", func(r *rcRow) *time.Time { return &r.QuoteTS }),
		optTimeCol("executed_at", func(r *rcRow) **time.Time { return &r.ExecutedAt }),
		s("sender_address", false, func(r *rcRow) *string { return &r.SenderAddress }),
		s("sender_customer", false, func(r *rcRow) *string { return &r.SenderCustomer }),
		s("receiver_address", false, func(r *rcRow) *string { return &r.ReceiverAddress }),
		s("receiver_customer", false, func(r *rcRow) *string { return &r.ReceiverCustomer }),
		numCol("sent_amount", func(r *rcRow) *money.Number { return &r.SentAmount }),
		numCol("received_amount", func(r *rcRow) *money.Number { return &r.ReceivedAmount }),
		s("sent_currency", false, func(r *rcRow) *string { return &r.SentCurrency }),
		s("received_currency", false, func(r *rcRow) *string { return &r.ReceivedCurrency }),
		n("fx_spot_rate", func(r *rcRow) **money.Number { return &r.FXSpotRate }),
		s("source_exchange", true, func(r *rcRow) *string { return &r.SourceExchange }),
		s("destination_exchange", true, func(r *rcRow) *string { return &r.DestinationExchange }),
		s("payment_method", true, func(r *rcRow) *string { return &r.PaymentMethod }),
		s("transaction_id", false, func(r *rcRow) *string { return &r.TransactionID }),
		s("transaction_type", false, func(r *rcRow) *string { return &r.TransactionType }),
		s("transaction_state", false, func(r *rcRow) *string { return &r.TransactionState }),
		s("venue_id", true, func(r *rcRow) *string { return &r.VenueID }),
		n("source_result_amount", func(r *rcRow) **money.Number { return &r.SourceResultAmount }),
		n("source_result_adjusted_amount", func(r *rcRow) **money.Number { return &r.SourceResultAdjustedAmount }),
		n("source_result_proceeds", func(r *rcRow) **money.Number { return &r.SourceResultProceeds }),
		n("source_result_adjusted_proceeds", func(r *rcRow) **money.Number { return &r.SourceResultAdjustedProceeds }),
		s("withdrawal_result_id", true, func(r *rcRow) *string { return &r.WithdrawalResultID }),
		s("withdrawal_result_details_transaction_id", true, func(r *rcRow) *string { return &r.WithdrawalResultDetailsTransactionID }),
		n("withdrawal_result_amount", func(r *rcRow) **money.Number { return &r.WithdrawalResultAmount }),
		n("withdrawal_result_fee_amount", func(r *rcRow) **money.Number { return &r.WithdrawalResultFeeAmount }),
		n("withdrawal_result_incentive_value", func(r *rcRow) **money.Number { return &r.WithdrawalResultIncentiveValue }),
		s("deposit_result_id", true, func(r *rcRow) *string { return &r.DepositResultID }),
		n("deposit_result_amount", func(r *rcRow) **money.Number { return &r.DepositResultAmount }),
		n("deposit_result_fee_amount", func(r *rcRow) **money.Number { return &r.DepositResultFeeAmount }),
		s("balance_change_currency", true, func(r *rcRow) *string { return &r.BalanceChangeCurrency }),
		n("balance_change", func(r *rcRow) **money.Number { return &r.BalanceChange }),
		n("balance_result", func(r *rcRow) **money.Number { return &r.BalanceResult }),
		s("destination_result_id", true, func(r *rcRow) *string { return &r.DestinationResultID }),
		n("destination_result_amount", func(r *rcRow) **money.Number { return &r.DestinationResultAmount }),
		n("destination_result_adjusted_amount", func(r *rcRow) **money.Number { return &r.DestinationResultAdjustedAmount }),
		n("destination_result_incentive_value", func(r *rcRow) **money.Number { return &r.DestinationResultIncentiveValue }),
		n("destination_result_proceeds", func(r *rcRow) **money.Number { return &r.DestinationResultProceeds }),
		n("destination_result_adjusted_proceeds", func(r *rcRow) **money.Number { return &r.DestinationResultAdjustedProceeds }),
		s("liquidation_status", true, func(r *rcRow) *string { return &r.LiquidationStatus }),
	}
}

// clip shortens network text quoted in an error message.
func clip(s string) string {
	const max = 40
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}
