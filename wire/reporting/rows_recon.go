package reporting

import (
	"slices"

	"github.com/shopspring/decimal"

	"treasury/wire/money"
)

// ReconPayment is one payment of a RECON report: its lines (one per
// transaction, 2.6) and totals over them. Each payment field is that of
// the first line that has it (nil or empty when none has); Mismatch names
// the payment fields on which lines that have them disagree (they should
// not: a report to look at twice). A line without a value does not
// disagree.
type ReconPayment struct {
	NetworkPaymentID string
	EndToEndID       string
	PaymentState     string
	SentAmount       *money.Number
	SentCurrency     string
	ReceivedAmount   *money.Number
	ReceivedCurrency string
	Lines            []ReconRow
	Totals           ReconTotals
	Mismatch         []string
}

// ReconTotals sums the transaction amounts of a payment's lines. An amount
// absent on a line (the other side's fields) adds nothing; a balance change
// without a currency is summed under "".
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
				NetworkPaymentID: r.NetworkPaymentID,
				Totals:           ReconTotals{BalanceChange: map[string]decimal.Decimal{}},
			})
		}
		p := &out[i]
		p.take(&r)
		p.Lines = append(p.Lines, r)
		p.Totals.add(r)
	}
	return out
}

// take fills the payment fields the payment does not have yet from line
// r, and notes those r disagrees on.
func (p *ReconPayment) take(r *ReconRow) {
	text := func(field string, dst *string, v string) {
		switch {
		case v == "":
		case *dst == "":
			*dst = v
		case *dst != v:
			p.mismatch(field)
		}
	}
	amount := func(field string, dst **money.Number, v *money.Number) {
		switch {
		case v == nil:
		case *dst == nil:
			*dst = v
		case !(*dst).Equal(v.Decimal()):
			p.mismatch(field)
		}
	}
	text("end_to_end_id", &p.EndToEndID, r.EndToEndID)
	text("payment_state", &p.PaymentState, r.PaymentState)
	amount("sent_amount", &p.SentAmount, r.Sent())
	text("sent_currency", &p.SentCurrency, r.SentCurrency)
	amount("received_amount", &p.ReceivedAmount, r.Received())
	text("received_currency", &p.ReceivedCurrency, r.ReceivedCurrency)
}

func (p *ReconPayment) mismatch(field string) {
	if !slices.Contains(p.Mismatch, field) {
		p.Mismatch = append(p.Mismatch, field)
	}
}

func (t *ReconTotals) add(r ReconRow) {
	sum := func(dst *decimal.Decimal, n *money.Number) {
		if n != nil {
			*dst = dst.Add(n.Decimal())
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
		t.BalanceChange[cur] = t.BalanceChange[cur].Add(r.BalanceChange.Decimal())
	}
}
