package columns

import (
	"treasury/wire/money"
	"treasury/wire/payments"
)

// Ledger are a ledger movement's short columns, sized to what the ledger
// holds, up to the widest values the document defines
// (OVERRIDE_PREFUND_BALANCE, POSTED_PAYMENT, a 5-letter currency);
// amounts at their currency's decimals, whole, points in line. At 80
// columns the status and the source (nearly always SUCCESS and PAYMENTS)
// give way first.
func Ledger() Set[payments.LedgerTransaction] {
	type tx = payments.LedgerTransaction
	return Set[tx]{
		{Title: "Created (UTC)", Width: 14, Priority: 9,
			Text: func(t tx, _ At) string { return TimeAs(t.CreatedDttm, "01-02 15:04:05") },
			Sort: func(t tx) Sort { return Time(t.CreatedDttm) }},
		{Title: "Cur", Max: payments.CurrencyWidth, Priority: 8, Text: func(t tx, _ At) string { return t.Currency }},
		{Title: "Operation", Max: payments.OperationWidth, Priority: 7, Text: func(t tx, _ At) string { return t.Operation }},
		{Title: "Amount", Max: 24, Align: Point, Priority: 9,
			Text: func(t tx, _ At) string { return money.Format(t.Amount.Decimal(), t.Currency) },
			Sort: func(t tx) Sort { return Decimal(t.Amount.Decimal()) }},
		{Title: "Status", Width: 7, Max: 12, Priority: 1, Text: func(t tx, _ At) string { return t.Status }},
		{Title: "Source", Width: 8, Max: payments.TxnSourceWidth, Priority: 2, Text: func(t tx, _ At) string { return t.TxnSource }},
		{Title: "Before", Max: 24, Align: Point, Priority: 5,
			Text: func(t tx, _ At) string { return money.Format(t.AvailableBalanceBefore.Decimal(), t.Currency) },
			Sort: func(t tx) Sort { return Decimal(t.AvailableBalanceBefore.Decimal()) }},
		{Title: "After", Max: 24, Align: Point, Priority: 6,
			Text: func(t tx, _ At) string { return money.Format(t.AvailableBalanceAfter.Decimal(), t.Currency) },
			Sort: func(t tx) Sort { return Decimal(t.AvailableBalanceAfter.Decimal()) }},
		{Title: "Payment", Width: 9, Max: 36, Flex: 1, Priority: 4, Text: func(t tx, _ At) string { return t.Reference() }},
	}
}
