package reporting

import (
	"time"

	"treasury/wire/money"
)

type opsRow = PaymentOpsRow

// opsSchema is the PAYMENT_OPS table of 2.5.
func opsSchema() schema[opsRow] {
	s := func(name string, f func(r *opsRow) *string) column[opsRow] { return strCol(name, f) }
	n := func(name string, f func(*opsRow) **money.Number) column[opsRow] { return optNumCol(name, f) }
	return schema[opsRow]{extra: func(r *opsRow) *[]Field { return &r.Extra }, cols: []column[opsRow]{
		s("end_to_end_id", func(r *opsRow) *string { return &r.EndToEndID }),
		idCol("network_payment_id", func(r *opsRow) *string { return &r.NetworkPaymentID }),
		zeroTimeCol("quote_ts", func(r *opsRow) *time.Time { return &r.QuoteTS }),
		zeroTimeCol("created_at", func(r *opsRow) *time.Time { return &r.CreatedAt }),
		optTimeCol("executed_at", func(r *opsRow) **time.Time { return &r.ExecutedAt }),
		s("sender_address", func(r *opsRow) *string { return &r.SenderAddress }),
		s("sender_customer", func(r *opsRow) *string { return &r.SenderCustomer }),
		flagNumCol("sent_amount", func(r *opsRow) (*money.Number, *bool) { return &r.SentAmount, &r.SentAmountAbsent }),
		s("sent_currency", func(r *opsRow) *string { return &r.SentCurrency }),
		n("withdrawal_result_amount", func(r *opsRow) **money.Number { return &r.WithdrawalResultAmount }),
		s("receiver_address", func(r *opsRow) *string { return &r.ReceiverAddress }),
		s("receiver_customer", func(r *opsRow) *string { return &r.ReceiverCustomer }),
		flagNumCol("received_amount", func(r *opsRow) (*money.Number, *bool) { return &r.ReceivedAmount, &r.ReceivedAmountAbsent }),
		s("received_currency", func(r *opsRow) *string { return &r.ReceivedCurrency }),
		n("fx_spot_rate", func(r *opsRow) **money.Number { return &r.FXSpotRate }),
		s("source_exchange", func(r *opsRow) *string { return &r.SourceExchange }),
		s("destination_exchange", func(r *opsRow) *string { return &r.DestinationExchange }),
		s("payment_method", func(r *opsRow) *string { return &r.PaymentMethod }),
		s("payment_state", func(r *opsRow) *string { return &r.PaymentState }),
		s("remitter_name", func(r *opsRow) *string { return &r.RemitterName }),
		s("remitter_account", func(r *opsRow) *string { return &r.RemitterAccount }),
		s("beneficiary_name", func(r *opsRow) *string { return &r.BeneficiaryName }),
		s("beneficiary_account", func(r *opsRow) *string { return &r.BeneficiaryAccount }),
	}}
}

type rcRow = ReconRow

// reconSchema is the RECON table of 2.6.
func reconSchema() schema[rcRow] {
	s := func(name string, f func(*rcRow) *string) column[rcRow] { return strCol(name, f) }
	n := func(name string, f func(*rcRow) **money.Number) column[rcRow] { return optNumCol(name, f) }
	return schema[rcRow]{extra: func(r *rcRow) *[]Field { return &r.Extra }, cols: []column[rcRow]{
		s("end_to_end_id", func(r *rcRow) *string { return &r.EndToEndID }),
		idCol("network_payment_id", func(r *rcRow) *string { return &r.NetworkPaymentID }),
		s("payment_state", func(r *rcRow) *string { return &r.PaymentState }),
		s("internal_payment_state", func(r *rcRow) *string { return &r.InternalPaymentState }),
		zeroTimeCol("quote_ts", func(r *rcRow) *time.Time { return &r.QuoteTS }),
		optTimeCol("executed_at", func(r *rcRow) **time.Time { return &r.ExecutedAt }),
		s("sender_address", func(r *rcRow) *string { return &r.SenderAddress }),
		s("sender_customer", func(r *rcRow) *string { return &r.SenderCustomer }),
		s("receiver_address", func(r *rcRow) *string { return &r.ReceiverAddress }),
		s("receiver_customer", func(r *rcRow) *string { return &r.ReceiverCustomer }),
		flagNumCol("sent_amount", func(r *rcRow) (*money.Number, *bool) { return &r.SentAmount, &r.SentAmountAbsent }),
		flagNumCol("received_amount", func(r *rcRow) (*money.Number, *bool) { return &r.ReceivedAmount, &r.ReceivedAmountAbsent }),
		s("sent_currency", func(r *rcRow) *string { return &r.SentCurrency }),
		s("received_currency", func(r *rcRow) *string { return &r.ReceivedCurrency }),
		n("fx_spot_rate", func(r *rcRow) **money.Number { return &r.FXSpotRate }),
		s("source_exchange", func(r *rcRow) *string { return &r.SourceExchange }),
		s("destination_exchange", func(r *rcRow) *string { return &r.DestinationExchange }),
		s("payment_method", func(r *rcRow) *string { return &r.PaymentMethod }),
		idCol("transaction_id", func(r *rcRow) *string { return &r.TransactionID }),
		s("transaction_type", func(r *rcRow) *string { return &r.TransactionType }),
		s("transaction_state", func(r *rcRow) *string { return &r.TransactionState }),
		s("venue_id", func(r *rcRow) *string { return &r.VenueID }),
		n("source_result_amount", func(r *rcRow) **money.Number { return &r.SourceResultAmount }),
		n("source_result_adjusted_amount", func(r *rcRow) **money.Number { return &r.SourceResultAdjustedAmount }),
		n("source_result_proceeds", func(r *rcRow) **money.Number { return &r.SourceResultProceeds }),
		n("source_result_adjusted_proceeds", func(r *rcRow) **money.Number { return &r.SourceResultAdjustedProceeds }),
		s("withdrawal_result_id", func(r *rcRow) *string { return &r.WithdrawalResultID }),
		s("withdrawal_result_details_transaction_id", func(r *rcRow) *string { return &r.WithdrawalResultDetailsTransactionID }),
		n("withdrawal_result_amount", func(r *rcRow) **money.Number { return &r.WithdrawalResultAmount }),
		n("withdrawal_result_fee_amount", func(r *rcRow) **money.Number { return &r.WithdrawalResultFeeAmount }),
		n("withdrawal_result_incentive_value", func(r *rcRow) **money.Number { return &r.WithdrawalResultIncentiveValue }),
		s("deposit_result_id", func(r *rcRow) *string { return &r.DepositResultID }),
		n("deposit_result_amount", func(r *rcRow) **money.Number { return &r.DepositResultAmount }),
		n("deposit_result_fee_amount", func(r *rcRow) **money.Number { return &r.DepositResultFeeAmount }),
		s("balance_change_currency", func(r *rcRow) *string { return &r.BalanceChangeCurrency }),
		n("balance_change", func(r *rcRow) **money.Number { return &r.BalanceChange }),
		n("balance_result", func(r *rcRow) **money.Number { return &r.BalanceResult }),
		s("destination_result_id", func(r *rcRow) *string { return &r.DestinationResultID }),
		n("destination_result_amount", func(r *rcRow) **money.Number { return &r.DestinationResultAmount }),
		n("destination_result_adjusted_amount", func(r *rcRow) **money.Number { return &r.DestinationResultAdjustedAmount }),
		n("destination_result_incentive_value", func(r *rcRow) **money.Number { return &r.DestinationResultIncentiveValue }),
		n("destination_result_proceeds", func(r *rcRow) **money.Number { return &r.DestinationResultProceeds }),
		n("destination_result_adjusted_proceeds", func(r *rcRow) **money.Number { return &r.DestinationResultAdjustedProceeds }),
		s("liquidation_status", func(r *rcRow) *string { return &r.LiquidationStatus }),
	}}
}
