package reporting

import (
	"slices"

	"github.com/shopspring/decimal"

	"treasury/data/money"
)

// ReconPayment is one payment of a RECON report: its lines (one per
// transaction, 2.6) and totals over them. The payment fields are those of
// its first line; Mismatch names the payment fields on which later lines
// disagree with the first (they should not: a report to look at twice).
type ReconPayment struct {
	NetworkPaymentID string
	EndToEndID       string
	PaymentState     string
	SentAmount       money.Number
	SentCurrency     string
	ReceivedAmount   money.Number
	ReceivedCurrency string
	Lines            []ReconRow
	Totals           ReconTotals
	Mismatch         []string
}

// ReconTotals sums the transaction amounts of a payment's lines. Amounts
// absent on a line (the other side's fields) count as zero.
type ReconTotals struct {
	Transactions int // lines
	Complete     int // lines whose transaction_state is COMPLETE

	WithdrawalAmount      decimal.Decimal // sum of withdrawal_result_amount
	WithdrawalFees        decimal.Decimal // sum of withdrawal_result_fee_amount
	DepositAmount         decimal.Decimal // sum of deposit_result_amount
	DepositFees           decimal.Decimal // sum of deposit_result_fee_amount
	Incentives            decimal.Decimal // withdrawal and destination incentive values
	SourceAdjustedAmount  decimal.Decimal // sum of source_result_adjusted_amount
	DestinationProceeds   decimal.Decimal // sum of destination_result_adjusted_proceeds
	BalanceChange         map[string]decimal.Decimal
	BalanceChangeCurrency []string // keys of BalanceChange in first-seen order
}

// Fees is the withdrawal and deposit fees together.
func (t ReconTotals) Fees() decimal.Decimal { return t.WithdrawalFees.Add(t.DepositFees) }

// AllComplete reports whether every line's transaction is COMPLETE.
func (t ReconTotals) AllComplete() bool { return t.Transactions > 0 && t.Complete == t.Transactions }

// GroupRecon groups RECON lines by network_payment_id, payments in the order
// their first line appears, lines in report order (the lines of one payment
// need not be adjacent).
func GroupRecon(rows []ReconRow) []ReconPayment {
	var out []ReconPayment
	at := make(map[string]int)
	for _, r := range rows {
		i, ok := at[r.NetworkPaymentID]
		if !ok {
			i = len(out)
			at[r.NetworkPaymentID] = i
			out = append(out, ReconPayment{
				NetworkPaymentID: r.NetworkPaymentID, EndToEndID: r.EndToEndID, PaymentState: r.PaymentState,
				SentAmount: r.SentAmount, SentCurrency: r.SentCurrency,
				ReceivedAmount: r.ReceivedAmount, ReceivedCurrency: r.ReceivedCurrency,
				Totals: ReconTotals{BalanceChange: map[string]decimal.Decimal{}},
			})
		}
		p := &out[i]
		p.check(r)
		p.Lines = append(p.Lines, r)
		p.Totals.add(r)
	}
	return out
}

func (p *ReconPayment) check(r ReconRow) {
	note := func(field string, same bool) {
		if !same && !slices.Contains(p.Mismatch, field) {
			p.Mismatch = append(p.Mismatch, field)
		}
	}
	note("end_to_end_id", r.EndToEndID == p.EndToEndID)
	note("payment_state", r.PaymentState == p.PaymentState)
	note("sent_amount", r.SentAmount.Equal(p.SentAmount.Decimal))
	note("sent_currency", r.SentCurrency == p.SentCurrency)
	note("received_amount", r.ReceivedAmount.Equal(p.ReceivedAmount.Decimal))
	note("received_currency", r.ReceivedCurrency == p.ReceivedCurrency)
}

func (t *ReconTotals) add(r ReconRow) {
	sum := func(dst *decimal.Decimal, n *money.Number) {
		if n != nil {
			*dst = dst.Add(n.Decimal)
		}
	}
	t.Transactions++
	if r.TransactionState == TxnComplete {
		t.Complete++
	}
	sum(&t.WithdrawalAmount, r.WithdrawalResultAmount)
	sum(&t.WithdrawalFees, r.WithdrawalResultFeeAmount)
	sum(&t.DepositAmount, r.DepositResultAmount)
	sum(&t.DepositFees, r.DepositResultFeeAmount)
	sum(&t.Incentives, r.WithdrawalResultIncentiveValue)
	sum(&t.Incentives, r.DestinationResultIncentiveValue)
	sum(&t.SourceAdjustedAmount, r.SourceResultAdjustedAmount)
	sum(&t.DestinationProceeds, r.DestinationResultAdjustedProceeds)
	if r.BalanceChange != nil {
		cur := r.BalanceChangeCurrency
		if _, ok := t.BalanceChange[cur]; !ok {
			t.BalanceChangeCurrency = append(t.BalanceChangeCurrency, cur)
		}
		t.BalanceChange[cur] = t.BalanceChange[cur].Add(r.BalanceChange.Decimal)
	}
}
