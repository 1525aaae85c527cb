package get

import (
	"time"

	"treasury/figures/columns"
	"treasury/wire/custody"
	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/wallet"
)

// shortColumns are the short columns `get -o table` shows for a list of
// wide records, so that the table fits a terminal: the columns the
// dashboard's table of those records shows (package columns), judged at
// now. ok is false for a type that declares none: its table shows every
// field. CSV and JSON always carry every field.
func shortColumns(v any, now time.Time) (titles []string, row func(i int) []string, ok bool) {
	switch l := v.(type) {
	case []payments.Payment:
		return short(columns.Payments(), func(i int) *payments.Payment { return &l[i] }, now)
	case []payments.LedgerTransaction:
		return short(columns.Ledger(), func(i int) payments.LedgerTransaction { return l[i] }, now)
	case []wallet.Transaction:
		return short(columns.Transactions(false), func(i int) wallet.Transaction { return l[i] }, now)
	case []wallet.Wallet:
		return short(columns.Wallets(), func(i int) wallet.Wallet { return l[i] }, now)
	case []custody.Endpoint:
		return short(columns.Endpoints(), func(i int) custody.Endpoint { return l[i] }, now)
	case []reporting.PaymentOpsRow:
		return short(columns.ReportOps(), func(i int) *reporting.PaymentOpsRow { return &l[i] }, now)
	case []reporting.ReconRow:
		return short(columns.ReconRows(), func(i int) *reporting.ReconRow { return &l[i] }, now)
	case []exposureRow:
		return exposureTitles, func(i int) []string { return l[i].short() }, true
	case []fundingRow:
		return fundingTitles, func(i int) []string { return l[i].short() }, true
	}
	return nil, nil, false
}

func short[T any](s columns.Set[T], rec func(i int) T, now time.Time) ([]string, func(int) []string, bool) {
	at := columns.At{Now: now}
	return s.Titles(), func(i int) []string { return s.Texts(rec(i), at) }, true
}
