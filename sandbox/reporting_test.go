package sandbox_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"treasury/figures"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
	"treasury/wire/reporting"
)

func repList(t *testing.T, e payEnv) []reporting.Report {
	t.Helper()
	var l reporting.ReportList
	if st := sandboxtest.Get(t, e.srv.Endpoints().Reporting+reporting.PathReports, e.tok, &l); st != http.StatusOK {
		t.Fatalf("list reports: HTTP %d", st)
	}
	return l.Reports
}

// repFind returns the listed report of type, format and start.
func repFind(t *testing.T, reps []reporting.Report, typ, format string, start time.Time) reporting.Report {
	t.Helper()
	for _, r := range reps {
		if r.Type == typ && r.Format == format && r.StartDate.Equal(start) {
			return r
		}
	}
	t.Fatalf("no %s %s report starting %s in %d reports", typ, format, start, len(reps))
	return reporting.Report{}
}

// repRows downloads report r and parses it.
func repRows(t *testing.T, e payEnv, r reporting.Report) *reporting.Rows {
	t.Helper()
	st, _, body := sandboxtest.Send(t, http.MethodGet, e.srv.Endpoints().Reporting+reporting.PathDownload+r.ID, e.tok, nil)
	if st != http.StatusOK {
		t.Fatalf("download %s: HTTP %d %.200s", r.ID, st, body)
	}
	rows, err := reporting.ParseRows(r.Type, r.Format, body)
	if err != nil {
		t.Fatalf("parse %s %s: %v", r.Type, r.Format, err)
	}
	return rows
}

var (
	novStart = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	octStart = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	sepStart = time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
)

func TestReportingListAndGet(t *testing.T) {
	e := payStart(t, nil)
	var raw map[string][]map[string]any
	sandboxtest.Get(t, e.srv.Endpoints().Reporting+reporting.PathReports, e.tok, &raw)
	if len(raw["reports"]) != 12 {
		t.Fatalf("%d reports, want 3 periods x 2 types x 2 formats", len(raw["reports"]))
	}
	for k := range raw["reports"][0] {
		if !slices.Contains([]string{"id", "type", "format", "status", "start_date", "end_date"}, k) {
			t.Errorf("listed report has field %q", k)
		}
	}
	reps := repList(t, e)
	ends := map[time.Time]time.Time{
		novStart: time.Date(2026, 11, 15, 23, 59, 59, 999e6, time.UTC), // month to date: up to 00:00 today
		octStart: time.Date(2026, 10, 31, 23, 59, 59, 999e6, time.UTC),
		sepStart: time.Date(2026, 9, 30, 23, 59, 59, 999e6, time.UTC),
	}
	ids := map[string]bool{}
	for _, r := range reps {
		if end, ok := ends[r.StartDate]; !ok || !r.EndDate.Equal(end) {
			t.Errorf("report %s period %s to %s", r.ID, r.StartDate, r.EndDate)
		}
		if ids[r.ID] || len(r.ID) != 36 || r.Status != reporting.StatusReady {
			t.Errorf("report %+v: want a unique uuid, READY", r)
		}
		ids[r.ID] = true
	}
	r := repFind(t, reps, reporting.TypeRecon, reporting.FormatCSV, octStart)
	var got reporting.Report
	if st := sandboxtest.Get(t, e.srv.Endpoints().Reporting+reporting.PathReports+"/"+r.ID, e.tok, &got); st != http.StatusOK {
		t.Fatalf("get: HTTP %d", st)
	}
	want := e.srv.Endpoints().Reporting + reporting.PathDownload + r.ID
	if got.ID != r.ID || got.DownloadLink != want {
		t.Fatalf("get = %+v, want the record with download_link %s", got, want)
	}
	st, h, body := sandboxtest.Send(t, http.MethodGet, got.DownloadLink, e.tok, nil)
	ct := h.Get("Content-Type")
	if st != http.StatusOK || ct != "text/csv; charset=utf-8" || !bytes.HasPrefix(body, []byte("end_to_end_id,network_payment_id,payment_state,")) {
		t.Fatalf("download link: HTTP %d %s %.80s", st, ct, body)
	}
}

// TestReportingRowsMatchWorld checks the month-to-date reports against the
// payments interface: the same payments, amounts and states as of 00:00
// today, and RECON lines that are the prefunded payments' ledger
// transactions (a just-in-time or credit payment moves no prefunded
// account: it has none).
func TestReportingRowsMatchWorld(t *testing.T) {
	e := payStart(t, nil)
	gen := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	reps := repList(t, e)
	ops := repRows(t, e, repFind(t, reps, reporting.TypePaymentOps, reporting.FormatJSON, novStart)).PaymentOps
	// A quote never accepted (QUOTED, no initiatedAt) is no payment of the
	// reports.
	pays := slices.DeleteFunc(payFilterAll(t, e, payments.Filter{AfterTimestamp: &novStart, BeforeTimestamp: &gen}, 100),
		func(p payments.Payment) bool { return p.InitiatedAt.IsZero() })
	if len(ops) == 0 || len(ops) != len(pays) {
		t.Fatalf("%d PAYMENT_OPS rows for %d payments created in the period", len(ops), len(pays))
	}
	byID := map[string]payments.Payment{}
	for _, p := range pays {
		byID[p.PaymentID] = p
	}
	for i, row := range ops {
		p, ok := byID[row.NetworkPaymentID]
		if !ok {
			t.Fatalf("row %d: payment %s is not in the world's period", i, row.NetworkPaymentID)
		}
		if row.EndToEndID != p.Originator.InternalID || !row.CreatedAt.Equal(p.InitiatedAt) ||
			!row.SentAmount.Equal(p.Originator.SourceAmount.Decimal()) || row.SentCurrency != p.Originator.SourceCurrency ||
			!row.ReceivedAmount.Equal(p.Destination.DestinationAmount.Decimal()) || row.ReceivedCurrency != p.Destination.DestinationCurrency {
			t.Errorf("row %+v disagrees with payment %+v", row, p)
		}
		if i%10 == 0 { // the state as of generation, from the state history
			var h payments.StateTransitions
			sandboxtest.Get(t, e.base+"/v3/payments/"+p.PaymentID+"/states", e.tok, &h)
			var at payments.State
			for _, s := range h.StateTransitions {
				if !s.UpdatedAt.After(gen) {
					at = s.UpdatedTo
				}
			}
			if row.PaymentState != string(at) || (row.ExecutedAt != nil) != (at == payments.Completed || at == payments.Returned) {
				t.Errorf("row %s: state %s executed %v, want %s as of %s", p.PaymentID, row.PaymentState, row.ExecutedAt, at, gen)
			}
		}
	}

	recon := reporting.GroupRecon(repRows(t, e, repFind(t, reps, reporting.TypeRecon, reporting.FormatCSV, novStart)).Recon)
	prefunded := 0
	for _, p := range pays {
		if figures.FundingOf(&p).Class == figures.Prefunded {
			prefunded++
		}
	}
	if len(recon) != prefunded || prefunded == len(pays) {
		t.Fatalf("%d payments in RECON, want the %d prefunded of %d", len(recon), prefunded, len(pays))
	}
	ledger := map[string][]payments.LedgerTransaction{} // by payment id
	for _, cur := range []string{"USD", "EUR", "GBP"} {
		for off, total := 0, 1; off < total; off += 50 {
			var page payments.LedgerPage
			q := url.Values{"currency": {cur}, "page-size": {"50"}, "offset": {itoa(off)},
				"start-dttm": {novStart.Format(time.RFC3339)}, "end-dttm": {gen.Add(time.Millisecond).Format(time.RFC3339Nano)}}
			if st := sandboxtest.Get(t, e.base+payments.PathLedger+"?"+q.Encode(), e.tok, &page); st != http.StatusOK {
				t.Fatalf("ledger %s: HTTP %d", cur, st)
			}
			total = page.Total
			for _, x := range page.StatementTransactions {
				ledger[x.Reference()] = append(ledger[x.Reference()], x)
			}
		}
	}
	for _, p := range recon {
		// The ledger names the payment on its RESERVE and DEBIT (the TRADE
		// line) only.
		txns := ledger[p.NetworkPaymentID]
		lines := slices.DeleteFunc(slices.Clone(p.Lines), func(l reporting.ReconRow) bool {
			return l.TransactionType != payments.OpReserve && l.TransactionType != reporting.TxnTrade
		})
		if len(p.Mismatch) > 0 || len(lines) != len(txns) {
			t.Fatalf("payment %s: %d lines (mismatch %v), %d ledger transactions", p.NetworkPaymentID, len(lines), p.Mismatch, len(txns))
		}
		for i, l := range lines {
			x := txns[i]
			change := x.AvailableBalanceAfter.Decimal().Sub(x.AvailableBalanceBefore.Decimal())
			if l.BalanceChange == nil || !l.BalanceChange.Equal(change) || !l.BalanceResult.Equal(x.AvailableBalanceAfter.Decimal()) ||
				l.BalanceChangeCurrency != x.Currency || l.TransactionState != reporting.TxnComplete ||
				(x.Operation == payments.OpDebit) != (l.TransactionType == reporting.TxnTrade) {
				t.Errorf("payment %s line %d %+v, ledger %+v", p.NetworkPaymentID, i, l, x)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestReportingErrors(t *testing.T) {
	e := payStart(t, nil)
	base := e.srv.Endpoints().Reporting
	id := repList(t, e)[0].ID
	cr := e.srv.Credentials()
	limited := sandboxtest.PaymentsTokenFor(t, e.srv, cr.PaymentsLimitedClientID, cr.PaymentsLimitedClientSecret)
	for _, c := range []struct {
		name, path, tok string
		status          int
		code            string
	}{
		{"no token", reporting.PathReports, "", 401, "AUTH_003"},
		{"bad token", reporting.PathReports + "/" + id, e.tok + "x", 401, "AUTH_003"},
		{"no reports scope", reporting.PathDownload + id, limited, 403, "AUTH_002"},
		{"not a uuid", reporting.PathReports + "/not-a-uuid", e.tok, 400, "USR_001"},
		{"unknown report", reporting.PathReports + "/0b8a7c1e-6d0f-4f5e-9a0b-000000000000", e.tok, 404, "USR_002"},
		{"unknown download", reporting.PathDownload + "0b8a7c1e-6d0f-4f5e-9a0b-000000000000", e.tok, 404, "USR_002"},
		{"unknown path", "/v2/report", e.tok, 404, "USR_002"},
	} {
		st, h, body := sandboxtest.Send(t, http.MethodGet, base+c.path, c.tok, nil)
		ct := h.Get("Content-Type")
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil || st != c.status || m["code"] != c.code || ct != "application/json" {
			t.Errorf("%s: HTTP %d %s %.200s, want %d %s", c.name, st, ct, body, c.status, c.code)
			continue
		}
		for _, f := range []string{"type", "status", "timestamp", "title", "description"} {
			if _, ok := m[f]; !ok {
				t.Errorf("%s: error body lacks %s: %s", c.name, f, body)
			}
		}
	}
}

// TestReportingDailyGeneration moves the clock over midnight: the new
// month-to-date report is PENDING until 00:01 UTC, then READY; on the
// first of a month only the two previous months are listed.
func TestReportingDailyGeneration(t *testing.T) {
	e := payStart(t, func(o *sandbox.Options) { o.LivePaymentsPerMinute = 0.01 })
	base := e.srv.Endpoints().Reporting
	old := repFind(t, repList(t, e), reporting.TypePaymentOps, reporting.FormatCSV, novStart)
	advance := func(d time.Duration) { // tokens live an hour: take a new one
		e.srv.Clock().Advance(d)
		e.tok = sandboxtest.PaymentsToken(t, e.srv)
	}
	advance(sandboxtest.Start().AddDate(0, 0, 1).Truncate(24 * time.Hour).Add(30 * time.Second).Sub(e.srv.Clock().Now()))
	cur := repFind(t, repList(t, e), reporting.TypePaymentOps, reporting.FormatCSV, novStart)
	if cur.ID == old.ID || cur.Status != reporting.StatusPending || !cur.EndDate.Equal(time.Date(2026, 11, 16, 23, 59, 59, 999e6, time.UTC)) {
		t.Fatalf("at 00:00:30 the month to date is %+v, want a new PENDING report to the 16th", cur)
	}
	var got reporting.Report
	sandboxtest.Get(t, base+reporting.PathReports+"/"+cur.ID, e.tok, &got)
	if st := sandboxtest.Get(t, base+reporting.PathDownload+cur.ID, e.tok, nil); st != 400 || got.DownloadLink != "" {
		t.Fatalf("pending report: download HTTP %d, link %q; want 400 and no link", st, got.DownloadLink)
	}
	if st := sandboxtest.Get(t, base+reporting.PathDownload+old.ID, e.tok, nil); st != 404 {
		t.Fatalf("yesterday's month to date: HTTP %d, want 404", st)
	}
	advance(time.Minute)
	if rows := repRows(t, e, cur); len(rows.PaymentOps) == 0 {
		t.Fatal("the month-to-date report is empty after 00:01")
	}
	advance(time.Date(2026, 12, 1, 0, 5, 0, 0, time.UTC).Sub(e.srv.Clock().Now()))
	reps := repList(t, e)
	if len(reps) != 8 || len(repRows(t, e, repFind(t, reps, reporting.TypeRecon, reporting.FormatJSON, novStart)).Recon) == 0 {
		t.Fatalf("on December 1st: %d reports, want November and October in 2 types x 2 formats", len(reps))
	}
	repFind(t, reps, reporting.TypeRecon, reporting.FormatJSON, octStart)
}

// TestReportingDeterministic: one seed gives the same ids and bytes.
func TestReportingDeterministic(t *testing.T) {
	a, b := payStart(t, nil), payStart(t, nil)
	c := payStart(t, func(o *sandbox.Options) { o.Seed = 2 })
	ra, rb, rc := repList(t, a), repList(t, b), repList(t, c)
	if !slices.Equal(ra, rb) || ra[0].ID == rc[0].ID {
		t.Fatalf("lists: seed 1 twice equal %v, seed 2 distinct %v", slices.Equal(ra, rb), ra[0].ID != rc[0].ID)
	}
	for _, r := range ra {
		_, _, x := sandboxtest.Send(t, http.MethodGet, a.srv.Endpoints().Reporting+reporting.PathDownload+r.ID, a.tok, nil)
		_, _, y := sandboxtest.Send(t, http.MethodGet, b.srv.Endpoints().Reporting+reporting.PathDownload+r.ID, b.tok, nil)
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Fatalf("report %s %s: %d and %d bytes differ for one seed", r.Type, r.Format, len(x), len(y))
		}
	}
}
