package reports_test

import (
	"testing"

	"treasury/ui"
	"treasury/ui/uitest"
	"treasury/views/reports"
	"treasury/views/viewtest"
	"treasury/wire/reporting"
)

// TestReportsCSVsAreData: the report list's, a PAYMENT_OPS report's and
// a RECON report's CSVs (its payments and a payment's lines) hold data:
// the period as ISO 8601 UTC times (not "2026-10-01 … 2026-10-31"),
// amounts exact apart from their currency, "" for an absent value.
func TestReportsCSVsAreData(t *testing.T) {
	e := shared.Env(t)
	rs := list(t, e)
	v := reports.New(e.Ctx, e.P)
	run(v, v.Update(ui.StoreChanged{}))

	l := viewtest.ReadCSV(t, ui.CSVOf(v))
	l.HasHeader(t, "report_id", "type", "format", "status", "start_date", "end_date", "generated_at")
	if len(l.Rows) != len(rs) {
		t.Fatalf("%d rows for %d reports", len(l.Rows), len(rs))
	}
	for _, r := range l.Rows {
		viewtest.Time(t, "start_date", r["start_date"], false)
		viewtest.Time(t, "generated_at", r["generated_at"], false)
	}
	l.Plain(t)

	ops := rs[find(t, rs, reporting.TypePaymentOps, reporting.FormatCSV)]
	run(v, v.Update(ui.Open{View: "reports", Args: []string{"report", ops.ID}}))
	o := viewtest.ReadCSV(t, ui.CSVOf(v))
	if len(o.Header) < 20 || o.Header[0] != "end_to_end_id" || len(o.Rows) != 106 {
		t.Fatalf("PAYMENT_OPS: %d rows, header %v", len(o.Rows), o.Header)
	}
	r := o.Rows[0]
	viewtest.Time(t, "created_at", r["created_at"], false)
	viewtest.Time(t, "executed_at", r["executed_at"], true)
	viewtest.Amount(t, "sent_amount", r["sent_amount"], r["sent_currency"])
	o.Plain(t)

	recon := rs[find(t, rs, reporting.TypeRecon, reporting.FormatCSV)]
	run(v, v.Update(ui.Open{View: "reports", Args: []string{"report", recon.ID}}))
	p := viewtest.ReadCSV(t, ui.CSVOf(v))
	p.HasHeader(t, "network_payment_id", "end_to_end_id", "payment_state", "sent_amount", "sent_currency",
		"received_amount", "received_currency", "lines", "complete_lines", "mismatched",
		"withdrawal_amount", "withdrawal_fees", "deposit_amount", "deposit_fees", "incentives")
	if len(p.Rows) == 0 {
		t.Fatal("RECON: no payments")
	}
	viewtest.Amount(t, "sent_amount", p.Rows[0]["sent_amount"], p.Rows[0]["sent_currency"])
	viewtest.Amount(t, "withdrawal_fees", p.Rows[0]["withdrawal_fees"], p.Rows[0]["sent_currency"])
	p.Plain(t)

	run(v, v.Update(uitest.Key("enter")))
	ln := viewtest.ReadCSV(t, ui.CSVOf(v))
	if len(ln.Rows) == 0 || ln.Header[0] != "end_to_end_id" || ln.Rows[0]["network_payment_id"] != p.Rows[0]["network_payment_id"] {
		t.Fatalf("RECON lines of %s: header %v, rows %v", p.Rows[0]["network_payment_id"], ln.Header, ln.Rows)
	}
	for _, r := range ln.Rows {
		if r["withdrawal_result_fee_amount"] != "" {
			viewtest.Decimal(t, "withdrawal_result_fee_amount", r["withdrawal_result_fee_amount"])
		}
	}
	ln.Plain(t)
}
