package paymentsview

import (
	"strconv"
	"testing"

	"treasury/ui"
	"treasury/views/viewtest"
)

// TestReasonGroupsCSVIsData: ":payments failed" lists the reasons; their
// CSV has the code, the count as a number, the group's retry verdict and
// the newest time RFC 3339 UTC (the cells showed "—" for no title); a
// reason's payments export as the payments do, not as their cells, each
// with the group's code and verdict.
func TestReasonGroupsCSVIsData(t *testing.T) {
	e := shared.Env(t)
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{"failed"}})
	g := viewtest.ReadCSV(t, ui.CSVOf(v))
	g.HasHeader(t, "reason_code", "payments", "retry", "last_initiated_at", "title")
	if len(g.Rows) == 0 {
		t.Fatal("no reasons")
	}
	r := g.Rows[0]
	if n, err := strconv.Atoi(r["payments"]); err != nil || n < 1 || r["reason_code"] == "" {
		t.Errorf("first reason %v", r)
	}
	viewtest.Time(t, "last_initiated_at", r["last_initiated_at"], false)
	g.Plain(t)

	send(v, viewtest.Key("enter"))
	p := viewtest.ReadCSV(t, ui.CSVOf(v))
	if len(p.Header) == 0 || p.Header[0] != "initiated_at" || len(p.Rows) != mustInt(t, r["payments"]) {
		t.Fatalf("payments of %s: header %v, %d rows for %s", r["reason_code"], p.Header, len(p.Rows), r["payments"])
	}
	for _, row := range p.Rows {
		viewtest.Amount(t, "source_amount", row["source_amount"], row["source_currency"])
		if row["reason_code"] != r["reason_code"] || row["state"] != "FAILED" || row["retry"] != r["retry"] {
			t.Errorf("a payment of %s/%s (retry %s) among those of %s (retry %s)", row["state"], row["reason_code"], row["retry"], r["reason_code"], r["retry"])
		}
	}
	p.Plain(t)
}

func mustInt(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
