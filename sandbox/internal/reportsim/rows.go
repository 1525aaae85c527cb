package reportsim

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/payworld"
	"treasury/sandbox/internal/simkit"
	"treasury/wire/money"
	"treasury/wire/payments"
	"treasury/wire/reporting"
)

// The requester of the sandbox's reports is the sending organization, so
// sender-only fields (2.5, 2.6) are filled and receiver-only ones are empty.

// sourceExchangeFee is the source exchange's fee on the fiat amount.
var sourceExchangeFee = decimal.RequireFromString("0.001")

// opsRow is the PAYMENT_OPS row of v (2.5).
func (s *Sim) opsRow(v payworld.PaymentView) reporting.PaymentOpsRow {
	row := reporting.PaymentOpsRow{
		EndToEndID: v.InternalID, NetworkPaymentID: v.PaymentID,
		QuoteTS: v.QuoteAt, CreatedAt: v.InitiatedAt, ExecutedAt: v.ExecutedAt,
		SenderAddress: s.senderAddress(v), SenderCustomer: v.SenderCustomer,
		SentAmount: money.N(v.SourceAmount), SentCurrency: v.SourceCurrency,
		ReceiverAddress: s.receiverAddress(v), ReceiverCustomer: v.ReceiverCustomer,
		ReceivedAmount: money.N(v.DestinationAmount), ReceivedCurrency: v.DestinationCurrency,
		FXSpotRate: num(v.SpotRate), SourceExchange: v.SourceExchange, PaymentMethod: v.Method,
		PaymentState: string(v.State),
		RemitterName: v.SenderName, RemitterAccount: v.SenderAccount,
		BeneficiaryName: v.BeneficiaryName, BeneficiaryAccount: v.BeneficiaryAccount,
	}
	if traded(v) {
		row.WithdrawalResultAmount = num(withdrawn(v))
	}
	return row
}

// reconRows are the RECON lines of v (2.6): one per ledger transaction of
// the payment, each with the payment's data. The DEBIT at settlement is the
// TRADE line and carries the trade, withdrawal and liquidation data; the
// other lines (RESERVE, RELEASE, CREDIT) carry their balance change.
func (s *Sim) reconRows(v payworld.PaymentView) []reporting.ReconRow {
	base := reporting.ReconRow{
		EndToEndID: v.InternalID, NetworkPaymentID: v.PaymentID,
		PaymentState: string(v.State), InternalPaymentState: internalState(v),
		QuoteTS: v.QuoteAt, ExecutedAt: v.ExecutedAt,
		SenderAddress: s.senderAddress(v), SenderCustomer: v.SenderCustomer,
		ReceiverAddress: s.receiverAddress(v), ReceiverCustomer: v.ReceiverCustomer,
		SentAmount: money.N(v.SourceAmount), ReceivedAmount: money.N(v.DestinationAmount),
		SentCurrency: v.SourceCurrency, ReceivedCurrency: v.DestinationCurrency,
		FXSpotRate: num(v.SpotRate), SourceExchange: v.SourceExchange, PaymentMethod: v.Method,
	}
	out := make([]reporting.ReconRow, 0, len(v.Ledger))
	for _, l := range v.Ledger {
		row := base
		row.TransactionID = l.ID
		row.TransactionType = l.Operation
		row.TransactionState = txnState(l.Status)
		row.BalanceChangeCurrency = l.Currency
		row.BalanceChange = num(l.Balance.Sub(l.BalanceBefore))
		row.BalanceResult = num(l.Balance)
		if l.Operation == payments.OpDebit {
			s.trade(&row, v, l.ID)
		}
		out = append(out, row)
	}
	return out
}

// trade fills the TRADE line: the source exchange converts the fiat sent
// into the bridge asset, withdraws it, and the destination side pays out.
func (s *Sim) trade(row *reporting.ReconRow, v payworld.PaymentView, txnID string) {
	sent := v.SourceAmount
	fee := sent.Mul(sourceExchangeFee).Round(2)
	k := simkit.Mix(s.env.Seed, simkit.Key(txnID))
	row.TransactionType = reporting.TxnTrade
	row.VenueID = fmt.Sprintf("order-%d", 10_000_000+k%90_000_000)
	row.SourceResultAmount = num(sent)
	row.SourceResultAdjustedAmount = num(sent.Sub(fee))
	row.SourceResultProceeds = num(v.BridgeAmount)
	row.SourceResultAdjustedProceeds = num(withdrawn(v))
	row.WithdrawalResultID = simkit.UUIDOf(s.env.Seed, simkit.Key("withdrawal"), simkit.Key(txnID))
	row.WithdrawalResultDetailsTransactionID = strings.ToUpper(fmt.Sprintf("%016x%016x%016x%016x",
		simkit.Mix(k, 1), simkit.Mix(k, 2), simkit.Mix(k, 3), simkit.Mix(k, 4)))
	row.WithdrawalResultAmount = num(withdrawn(v))
	row.WithdrawalResultFeeAmount = num(v.BridgeFee)
	row.WithdrawalResultIncentiveValue = num(decimal.Zero)
	row.DestinationResultID = simkit.UUIDOf(s.env.Seed, simkit.Key("destination"), simkit.Key(txnID))
	row.DestinationResultIncentiveValue = num(decimal.Zero)
	row.DestinationResultAdjustedProceeds = num(v.DestinationAmount)
}

// traded reports whether the payment's trade took place (its DEBIT).
func traded(v payworld.PaymentView) bool {
	for _, l := range v.Ledger {
		if l.Operation == payments.OpDebit {
			return true
		}
	}
	return false
}

// withdrawn is the bridge-asset amount withdrawn after the withdrawal fee.
func withdrawn(v payworld.PaymentView) decimal.Decimal { return v.BridgeAmount.Sub(v.BridgeFee) }

// internalState is the troubleshooting state of 2.6: a stage name, or the
// failure reason code in a terminal failure state.
func internalState(v payworld.PaymentView) string {
	switch st := v.State; {
	case v.ReasonCode != "" && st.FailedTerminal():
		return string(st) + ":" + v.ReasonCode
	case st == payments.Initiated:
		return "QUOTE_ACCEPTED"
	case st == payments.Validating:
		return "COMPLIANCE_CHECK"
	case st == payments.Transferring:
		return "IN_FLIGHT"
	case st == payments.Completed:
		return "SETTLED"
	default:
		return string(st)
	}
}

// txnState maps a ledger status to a RECON transaction state.
func txnState(status string) string {
	switch status {
	case payments.TxnSuccess:
		return reporting.TxnComplete
	case payments.TxnPending:
		return reporting.TxnPending
	}
	return status
}

// senderAddress is the sender's account name and ledger address.
func (s *Sim) senderAddress(v payworld.PaymentView) string {
	return v.SenderAccount + ", " + s.ledgerAddress("sender", v.SourceCurrency)
}

// receiverAddress is the receiver's payout account name and ledger address.
func (s *Sim) receiverAddress(v payworld.PaymentView) string {
	cur := v.DestinationCurrency
	return "payout-" + strings.ToLower(cur) + ", " + s.ledgerAddress("receiver", cur)
}

// ledgerAddress is a stable, seed-derived address in the shape of a
// classic ledger account ("r" and 33 base58 characters).
func (s *Sim) ledgerAddress(role, cur string) string {
	const alphabet = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz"
	r := simkit.Rand(s.env.Seed, simkit.Key("ledger-address"), simkit.Key(role), simkit.Key(cur))
	b := []byte{'r'}
	for len(b) < 34 {
		b = append(b, alphabet[r.IntN(len(alphabet))])
	}
	return string(b)
}

func num(d decimal.Decimal) *money.Number {
	n := money.N(d)
	return &n
}
