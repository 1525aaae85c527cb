package get

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"treasury/figures"
	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/wallet"
)

// derivedColumn is a column computed from a record rather than read from
// the wire: the error code a record carries and the guidance the dashboard
// shows for it. Table and CSV output add them after the record's fields;
// JSON output never does, so that `-o json` is the records exactly as the
// spec names their fields (a script keeps `errors[0].code` and the like,
// and a field the server adds later cannot collide with one of ours).
type derivedColumn struct {
	name string
	// one says the column is shown only for a single record (a
	// field-and-value table), not per row of a list.
	one bool
	// csv says the column flattens a list of the record (its fees, its
	// errors) for CSV and a single record: a table of a list shows the
	// short columns instead.
	csv   bool
	value func(rec reflect.Value) string
}

// flattened are the fields of a record type that derived columns write
// instead of a cell of embedded JSON: a payment's fees, taxes and errors.
func flattened(t reflect.Type) []string {
	if t == reflect.TypeFor[payments.Payment]() {
		return []string{"fees", "taxes", "errors"}
	}
	return nil
}

// withoutFlattened is fs without the fields derived columns flatten.
func withoutFlattened(t reflect.Type, fs []recordField) []recordField {
	drop := flattened(t)
	return slices.DeleteFunc(fs, func(f recordField) bool { return slices.Contains(drop, f.name) })
}

// derivedColumns are the computed columns of a record type; nil for most.
func derivedColumns(t reflect.Type, list bool) []derivedColumn {
	var cols []derivedColumn
	switch t {
	case reflect.TypeFor[payments.Payment]():
		cols = paymentColumns()
	case reflect.TypeFor[wallet.Transaction]():
		cols = walletTxColumns()
	}
	out := cols[:0:0]
	for _, c := range cols {
		if !list || !c.one {
			out = append(out, c)
		}
	}
	return out
}

// paymentColumns: the payment's figures as every surface gives them
// (package figures): its funding class, every error's code, the error the
// reason groups count it under, and the one retry verdict (the strictest
// of its errors, with why they disagree) with what to do. A terminal
// failure without an error entry (a list the server sends without
// errors[]) gets what its state means.
func paymentColumns() []derivedColumn {
	pay := func(rec reflect.Value) (*payments.Payment, bool) {
		p, ok := rec.Interface().(payments.Payment)
		return &p, ok
	}
	verdict := func(rec reflect.Value) (figures.Advice, bool) {
		p, ok := pay(rec)
		if !ok || figures.RetryOf(p) == figures.RetryNone {
			return figures.Advice{}, false
		}
		return figures.VerdictOf(p), true
	}
	reason := func(rec reflect.Value) payments.PaymentError {
		if p, ok := pay(rec); ok {
			e, _ := figures.Reason(p)
			return e
		}
		return payments.PaymentError{}
	}
	// sum totals the amounts of a payment's fees or taxes, in their one
	// currency ("" and "" when they have none, or several).
	sum := func(rec reflect.Value, taxes bool) (string, string) {
		p, ok := pay(rec)
		if !ok {
			return "", ""
		}
		var total decimal.Decimal
		var cur string
		add := func(d decimal.Decimal, c string) bool {
			if cur != "" && c != cur {
				return false
			}
			cur, total = c, total.Add(d)
			return true
		}
		if taxes {
			for _, x := range p.Taxes {
				if !add(x.TotalTaxes.Decimal(), x.TaxCurrency) {
					return "", "several"
				}
			}
		} else {
			for _, x := range p.Fees {
				if !add(x.TotalFee.Decimal(), x.FeeCurrency) {
					return "", "several"
				}
			}
		}
		if cur == "" {
			return "", ""
		}
		return figures.MoneyData(total, cur), cur
	}
	return []derivedColumn{
		{name: "funding", csv: true, value: func(rec reflect.Value) string {
			p, _ := pay(rec)
			return figures.FundingOf(p).Name()
		}},
		{name: "fee_total", csv: true, value: func(rec reflect.Value) string { v, _ := sum(rec, false); return v }},
		{name: "fee_currency", csv: true, value: func(rec reflect.Value) string { _, c := sum(rec, false); return c }},
		{name: "tax_total", csv: true, value: func(rec reflect.Value) string { v, _ := sum(rec, true); return v }},
		{name: "tax_currency", csv: true, value: func(rec reflect.Value) string { _, c := sum(rec, true); return c }},
		{name: "errors_count", csv: true, value: func(rec reflect.Value) string {
			if p, ok := pay(rec); ok && len(p.Errors) > 0 {
				return strconv.Itoa(len(p.Errors))
			}
			return ""
		}},
		{name: "error_codes", value: func(rec reflect.Value) string {
			p, _ := pay(rec)
			return strings.Join(figures.Codes(p), ";")
		}},
		{name: "reason_code", csv: true, value: func(rec reflect.Value) string { return reason(rec).Code }},
		{name: "error_type", csv: true, value: func(rec reflect.Value) string { return reason(rec).Type }},
		{name: "error_title", csv: true, value: func(rec reflect.Value) string { return reason(rec).Title }},
		{name: "error_timestamp", csv: true, value: func(rec reflect.Value) string { return figures.StampText(reason(rec).Timestamp) }},
		{name: "retry", value: func(rec reflect.Value) string {
			a, _ := verdict(rec)
			return a.Word.Word()
		}},
		{name: "retry_advice", csv: true, value: func(rec reflect.Value) string {
			a, _ := verdict(rec)
			return a.Retry
		}},
		{name: "retry_why", csv: true, value: func(rec reflect.Value) string {
			a, _ := verdict(rec)
			return a.Why
		}},
		{name: "guidance", value: func(rec reflect.Value) string {
			if a, ok := verdict(rec); ok {
				return a.Todo
			}
			return ""
		}},
		{name: "state_meaning", one: true, value: func(rec reflect.Value) string {
			if p, ok := pay(rec); ok {
				return payments.StateMeaning(p.PaymentState)
			}
			return ""
		}},
	}
}

// walletTxColumns: the first problem's reason code, whether the wallet
// says it is retryable, and apierr's advice for that code when it has one.
func walletTxColumns() []derivedColumn {
	problem := func(rec reflect.Value) (wallet.Problem, bool) {
		tx, ok := rec.Interface().(wallet.Transaction)
		if !ok || len(tx.Problems) == 0 {
			return wallet.Problem{}, false
		}
		return tx.Problems[0], true
	}
	return []derivedColumn{
		{name: "error_code", value: func(rec reflect.Value) string {
			p, _ := problem(rec)
			return p.Reason
		}},
		{name: "retry", value: func(rec reflect.Value) string {
			p, ok := problem(rec)
			switch {
			case !ok:
				return ""
			case p.Retryable:
				return figures.RetryYes.Word()
			}
			return figures.RetryNo.Word()
		}},
		{name: "retry_advice", csv: true, value: func(rec reflect.Value) string {
			p, ok := problem(rec)
			switch {
			case !ok:
				return ""
			case p.Retryable:
				return "YES: the wallet interface marks the problem retryable."
			}
			return "NO: the wallet interface marks the problem not retryable."
		}},
		{name: "guidance", value: func(rec reflect.Value) string {
			p, _ := problem(rec)
			return apierr.CodeGuidance(p.Reason)
		}},
	}
}
