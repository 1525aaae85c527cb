package columns

import (
	"time"

	"treasury/wire/money"
	"treasury/wire/reporting"
)

// ReportOps are the short columns of a PAYMENT_OPS report row. An absent
// value is "—" and sorts as text, before every amount.
func ReportOps() Set[*reporting.PaymentOpsRow] {
	type row = *reporting.PaymentOpsRow
	return Set[row]{
		{Title: "Created (UTC)", Width: 19,
			Text: func(r row, _ At) string { return TimeAs(r.CreatedAt, "2006-01-02 15:04:05") },
			Sort: func(r row) Sort { return optTime(r.CreatedAt) }},
		{Title: "State", Width: 10, Text: func(r row, _ At) string { return Dash(r.PaymentState) }},
		{Title: "Sent", Width: 16, Align: Right, Flex: 1,
			Text: func(r row, _ At) string { return optAmount(r.Sent(), r.SentCurrency) },
			Sort: func(r row) Sort { return optNumber(r.Sent()) }},
		{Title: "Received", Width: 16, Align: Right, Flex: 1,
			Text: func(r row, _ At) string { return optAmount(r.Received(), r.ReceivedCurrency) },
			Sort: func(r row) Sort { return optNumber(r.Received()) }},
		{Title: "FX rate", Width: 9, Align: Right,
			Text: func(r row, _ At) string { return Number(r.FXSpotRate) },
			Sort: func(r row) Sort { return optNumber(r.FXSpotRate) }},
		{Title: "Method", Width: 10, Text: func(r row, _ At) string { return Dash(r.PaymentMethod) }},
		{Title: "Network payment id", Width: 12, Flex: 2, Text: func(r row, _ At) string { return r.NetworkPaymentID }},
		{Title: "End-to-end id", Width: 10, Flex: 1, Text: func(r row, _ At) string { return Dash(r.EndToEndID) }},
	}
}

// ReconLines are the short columns of a RECON line among the lines of its
// payment.
func ReconLines() Set[*reporting.ReconRow] {
	type row = *reporting.ReconRow
	num := func(title string, width, flex int, n func(row) *money.Number) Column[row] {
		return Column[row]{Title: title, Width: width, Flex: flex, Align: Right,
			Text: func(r row, _ At) string { return Number(n(r)) }, Sort: func(r row) Sort { return optNumber(n(r)) }}
	}
	return Set[row]{
		{Title: "Transaction id", Width: 14, Flex: 2, Text: func(r row, _ At) string { return r.TransactionID }},
		{Title: "Type", Width: 10, Text: func(r row, _ At) string { return r.TransactionType }},
		{Title: "State", Width: 8, Text: func(r row, _ At) string { return r.TransactionState }},
		{Title: "Balance change", Width: 16, Align: Right, Flex: 1,
			Text: func(r row, _ At) string {
				if r.BalanceChange != nil {
					return Amount(r.BalanceChange.Decimal(), r.BalanceChangeCurrency)
				}
				return "—"
			},
			Sort: func(r row) Sort { return optNumber(r.BalanceChange) }},
		num("Withdrawal", 12, 1, func(r row) *money.Number { return r.WithdrawalResultAmount }),
		num("W. fee", 8, 0, func(r row) *money.Number { return r.WithdrawalResultFeeAmount }),
		num("Deposit", 12, 1, func(r row) *money.Number { return r.DepositResultAmount }),
		num("D. fee", 8, 0, func(r row) *money.Number { return r.DepositResultFeeAmount }),
		num("Balance", 12, 0, func(r row) *money.Number { return r.BalanceResult }),
		{Title: "Venue", Width: 8, Flex: 1, Text: func(r row, _ At) string { return Dash(r.VenueID) }},
	}
}

// ReconRows are the short columns of a RECON line among the lines of
// every payment (a whole report): its payment and that payment's state,
// then ReconLines.
func ReconRows() Set[*reporting.ReconRow] {
	type row = *reporting.ReconRow
	return append(Set[row]{
		{Title: "Network payment id", Width: 12, Flex: 2, Text: func(r row, _ At) string { return r.NetworkPaymentID }},
		{Title: "Payment state", Width: 10, Text: func(r row, _ At) string { return Dash(r.PaymentState) }},
	}, ReconLines()...)
}

// Number is an optional amount as received, "—" when absent.
func Number(n *money.Number) string {
	if n == nil {
		return "—"
	}
	return n.String()
}

// optAmount is an optional amount with its currency, "—" when absent.
func optAmount(n *money.Number, currency string) string {
	if n == nil {
		return "—"
	}
	return Amount(n.Decimal(), currency)
}

// optNumber sorts an optional amount; an absent one sorts as its text.
func optNumber(n *money.Number) Sort {
	if n == nil {
		return Sort{}
	}
	return Decimal(n.Decimal())
}

// optTime sorts an optional time; an absent one sorts as its text.
func optTime(t time.Time) Sort {
	if t.IsZero() {
		return Sort{}
	}
	return Time(t)
}
