package reports

import (
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/views/viewkit"
	"treasury/wire/money"
	"treasury/wire/reporting"
)

// The reports' CSVs (ctrl+s): data a spreadsheet reads, not the cells as
// shown. `w` saves a report's file as downloaded; ctrl+s saves what a
// page lists, filtered and sorted.

// listExport is the report list's CSV: its period as the times received,
// in ISO 8601 UTC, and when it was generated (derived, 2.4).
var listExport = &viewkit.Export[reporting.Report]{
	Header: []string{"report_id", "type", "format", "status", "start_date", "end_date", "generated_at"},
	Row: func(r reporting.Report) []string {
		gen := ""
		if !r.EndDate.IsZero() {
			gen = viewkit.ISO(generated0(r))
		}
		return []string{r.ID, r.Type, r.Format, r.Status, viewkit.ISO(r.StartDate), viewkit.ISO(r.EndDate), gen}
	},
}

// wireNames are the spec's columns of a report row type, in its order.
func wireNames(rec row) []string {
	rt := reflect.TypeOf(rec).Elem()
	var out []string
	for i := range rt.NumField() {
		if name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// rowRecord is a report row's spec columns (wireNames' order) as data:
// amounts exactly as received, times in ISO 8601 UTC, "" for what the row
// does not have. The columns the spec does not name are left out (their
// set differs from row to row): `w` saves them.
func rowRecord(rec row) []string {
	var out []string
	for _, v := range specFields(rec) {
		s := ""
		if v != nil {
			s = datum(v)
		}
		out = append(out, s)
	}
	return out
}

// datum is a field's value as data.
func datum(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case money.Number:
		return viewkit.Exact(x.Decimal())
	case *money.Number:
		if x == nil {
			return ""
		}
		return viewkit.Exact(x.Decimal())
	case decimal.Decimal:
		return viewkit.Exact(x)
	case time.Time:
		return viewkit.ISO(x)
	case *time.Time:
		if x == nil {
			return ""
		}
		return viewkit.ISO(*x)
	}
	return ""
}

var opsExport = &viewkit.Export[opsRec]{
	Header: wireNames(&reporting.PaymentOpsRow{}),
	Row:    func(r opsRec) []string { return rowRecord(&r.PaymentOpsRow) },
}

var reconLinesExport = &viewkit.Export[reconLine]{
	Header: wireNames(&reporting.ReconRow{}),
	Row:    func(l reconLine) []string { return rowRecord(&l.ReconRow) },
}

// reconExport is the RECON report's payments: each with the sums of its
// lines; "mismatched" names the fields its lines disagree on ("; "
// between two). The balance change, of one column per currency on the
// screen, is in the lines' CSV.
var reconExport = &viewkit.Export[reporting.ReconPayment]{
	Header: []string{"network_payment_id", "end_to_end_id", "payment_state", "sent_amount", "sent_currency",
		"received_amount", "received_currency", "lines", "complete_lines", "mismatched",
		"withdrawal_amount", "withdrawal_fees", "deposit_amount", "deposit_fees", "incentives"},
	Row: func(g reporting.ReconPayment) []string {
		t := g.Totals
		return []string{g.NetworkPaymentID, g.EndToEndID, g.PaymentState, datum(g.SentAmount), g.SentCurrency,
			datum(g.ReceivedAmount), g.ReceivedCurrency, strconv.Itoa(t.Transactions), strconv.Itoa(t.Complete), strings.Join(g.Mismatch, "; "),
			viewkit.Exact(t.WithdrawalAmount), viewkit.Exact(t.WithdrawalFees), viewkit.Exact(t.DepositAmount), viewkit.Exact(t.DepositFees), viewkit.Exact(t.Incentives)}
	},
}
