package reports_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/reports"
	"treasury/views/viewtest"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/reporting"
	reportingclient "treasury/wire/reporting/client"
	"treasury/wire/transport"
)

// answer is what the other server sends on a path.
type answer struct {
	status int
	body   string
}

// otherServer is a reporting interface that made other legal choices
// than the sandbox; the env's platform (the session's own copy) downloads
// from it.
func otherServer(t *testing.T, e *viewtest.Env, routes map[string]answer) *reportingclient.Client {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := routes[r.URL.Path]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"code":"USR_002","type":"NOT_FOUND","status":404,"timestamp":"2026-11-16T09:30:00Z"}`))
			return
		}
		w.WriteHeader(a.status)
		w.Write([]byte(a.body))
	}))
	t.Cleanup(hs.Close)
	c, err := reportingclient.NewClient(transport.Config{BaseURL: hs.URL, Auth: auth.NewStatic(auth.NewSecret("tok")),
		Retry: transport.Retry{Attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	e.P.Reporting = c
	e.P.RebuildReads()
	return c
}

// record is a READY report record of October with a link to /files/id.
func record(id, typ, format string) answer {
	return answer{200, `{"id":"` + id + `","type":"` + typ + `","format":"` + format + `","status":"READY",` +
		`"start_date":"2026-10-01T00:00:00Z","end_date":"2026-10-31T23:59:59Z","download_link":"/files/` + id + `","region":"eu"}`}
}

// opsCSV is a PAYMENT_OPS report in CSV with the column fee_tier after
// sent_currency; each row gives the values of some columns by name.
func opsCSV(t *testing.T, rows ...map[string]string) string {
	t.Helper()
	cols := reporting.PaymentOpsColumns()
	i := slices.Index(cols, "sent_currency") + 1
	cols = slices.Insert(cols, i, "fee_tier")
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(cols)
	for _, r := range rows {
		rec := make([]string, len(cols))
		for j, c := range cols {
			rec[j] = r[c]
		}
		w.Write(rec)
	}
	w.Flush()
	return b.String()
}

func opsRow(id, state, sent, received, tier string) map[string]string {
	return map[string]string{"network_payment_id": id, "payment_state": state, "created_at": "2026-10-02T10:00:00Z",
		"sent_amount": sent, "sent_currency": "USD", "received_amount": received, "received_currency": "MXN",
		"payment_method": "MX_SPEI", "fee_tier": tier}
}

// open opens report id by the palette's open message.
func open(v *reports.View, id string) {
	run(v, v.Update(ui.StoreChanged{}))
	run(v, v.Update(ui.Open{View: "reports", Args: []string{"report", id}}))
}

func press(v *reports.View, k string) { run(v, v.Update(viewtest.Key(k))) }

func mustContain(t *testing.T, what, frame string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(frame, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, frame)
		}
	}
	if r, bad := viewtest.Harmful(frame); bad {
		t.Errorf("%s holds %U", what, r)
	}
}

func mustNotContain(t *testing.T, what, frame string, unwanted ...string) {
	t.Helper()
	for _, u := range unwanted {
		if strings.Contains(frame, u) {
			t.Errorf("%s says %q:\n%s", what, u, frame)
		}
	}
}

// TestSkippedRowsAndExtras: a report with an extra column, a FAILED
// payment without received_amount and a row whose amount cannot be read
// shows its two good rows, says which row was skipped and why (! lists
// them all), shows the absent amount as absent and the extra column in the
// row's detail.
func TestSkippedRowsAndExtras(t *testing.T) {
	e := shared.Env(t)
	otherServer(t, e, map[string]answer{
		reporting.PathReports + "/r-ops": record("r-ops", reporting.TypePaymentOps, reporting.FormatCSV),
		"/files/r-ops": {200, opsCSV(t,
			opsRow("pay-1", "COMPLETED", "1000.10", "17010.55", "gold"),
			opsRow("pay-2", "FAILED", "250", "", "silver"),
			opsRow("pay-3", "COMPLETED", "1,000.10", "5", "red"),
			opsRow("pay-4", "COMPLETED", "\x1b]0;pwned\x07\u202e", "5", "\x1b[31mred"))},
	})
	v := reports.New(e.Ctx, e.P)
	open(v, "r-ops")
	viewtest.Fits(t, "report at 80 columns", v.Render(80, 20), 80, 20)
	frame := v.Render(120, 30)
	mustContain(t, "report", frame, "2 payments", "2 rows skipped", `skipped line 4 · sent_amount: "1,000.10" is not a decimal amount`,
		"! lists all 2", "1,000.10 USD", "pay-2")
	var failed string
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "pay-2") {
			failed = l
		}
	}
	if !strings.Contains(failed, "FAILED") || !strings.Contains(failed, "—") || strings.Contains(failed, "0 MXN") {
		t.Errorf("the FAILED row shows a received amount: %q", failed)
	}
	if !slices.ContainsFunc(v.Keys(), func(b key.Binding) bool { return slices.Contains(b.Keys(), "!") }) {
		t.Error("the skipped rows key is not offered")
	}

	press(v, "!")
	viewtest.Fits(t, "skipped page at 80 columns", v.Render(80, 20), 80, 20)
	mustContain(t, "skipped page", v.Render(120, 30), "2 rows skipped of PAYMENT_OPS CSV 2026-10-01 … 2026-10-31: they could not be read",
		`line 4 · sent_amount: "1,000.10" is not a decimal amount`, "line 5 · sent_amount: ", "pwned")
	v.Back() // the shell's esc
	press(v, "down")
	press(v, "enter")
	detail := v.Render(120, 40)
	mustContain(t, "detail of the FAILED row", detail, "network_payment_id", "pay-2", "fee_tier", "silver")
	for _, l := range strings.Split(detail, "\n") {
		if strings.HasPrefix(l, "received_amount") && !strings.HasSuffix(strings.TrimSpace(l), "—") {
			t.Errorf("received_amount of the FAILED row: %q", l)
		}
	}
	// The raw pager shows the row with its extra column and the absent
	// amount as null.
	_, rec, ok := ui.SelectedOf(v)
	js, err := json.Marshal(rec)
	if !ok || err != nil || !strings.Contains(string(js), `"received_amount":null`) || !strings.Contains(string(js), `"fee_tier":"silver"`) {
		t.Errorf("raw record %s, %v", js, err)
	}
}

// TestReconAbsentAmounts: RECON lines without the payment's amounts
// neither show a false amount nor a mismatch.
func TestReconAbsentAmounts(t *testing.T) {
	e := shared.Env(t)
	lines := `[
{"network_payment_id": "pay-1", "transaction_id": "t1", "transaction_type": "TRADE", "transaction_state": "COMPLETE", "payment_state": "COMPLETED",
 "sent_amount": null, "sent_currency": "USD", "received_amount": "", "balance_change": "-100", "balance_change_currency": "USD", "desk": "ny"},
{"network_payment_id": "pay-1", "transaction_id": "t2", "transaction_type": "TRANSFER", "transaction_state": "COMPLETE",
 "sent_amount": "100.00", "sent_currency": "USD", "received_amount": 1700, "received_currency": "MXN"},
{"network_payment_id": "pay-2", "transaction_id": "t3", "transaction_type": "TRADE", "transaction_state": "PENDING", "payment_state": "FAILED",
 "sent_amount": 5, "sent_currency": "EUR"}
]`
	otherServer(t, e, map[string]answer{
		reporting.PathReports + "/r-recon": record("r-recon", reporting.TypeRecon, reporting.FormatJSON),
		"/files/r-recon":                   {200, lines},
	})
	v := reports.New(e.Ctx, e.P)
	open(v, "r-recon")
	frame := v.Render(120, 30)
	mustContain(t, "RECON", frame, "2 payments, 3 lines", "0 with mismatched payment fields", "100.00 USD", "1,700.00 MXN", "-100.00 USD")
	mustNotContain(t, "RECON", frame, "MISMATCH", "rows skipped")
	// pay-2: sent 5.00 EUR, received — (absent), balance change —.
	if !regexp.MustCompile(`(?m)^[ ▸] pay-2 +FAILED +5.00 EUR +— +— +0/1 open`).MatchString(frame) {
		t.Errorf("pay-2 has no received amount and no balance change:\n%s", frame)
	}
}

// TestFailedDownloadSaysWhy: a download that fails shows the error's code,
// message and guidance where the rows would be, never an empty report.
func TestFailedDownloadSaysWhy(t *testing.T) {
	e := shared.Env(t)
	otherServer(t, e, map[string]answer{
		reporting.PathReports + "/r-gone": record("r-gone", reporting.TypePaymentOps, reporting.FormatCSV),
		"/files/r-gone": {http.StatusForbidden, `{"code":"AUTH_002","type":"AUTH_ERROR","status":403,"title":"Missing scope",` +
			`"timestamp":"2026-11-16T09:30:00Z"}`},
		reporting.PathReports + "/r-html": record("r-html", reporting.TypePaymentOps, reporting.FormatCSV),
		"/files/r-html":                   {200, "<html>maintenance</html>\n"},
	})
	for id, want := range map[string][]string{
		"r-gone":    {"The download failed", "AUTH_002 HTTP 403", "Missing scope", "GET /files/r-gone", "do not retry", "r downloads it again"},
		"r-nothere": {"The download failed", "USR_002 HTTP 404", "/v2/reports/r-nothere", "does not exist"},
		"r-html":    {"The download failed", "missing column", "network_payment_id", "w saves the 25 bytes as downloaded"},
	} {
		v := reports.New(e.Ctx, e.P)
		open(v, id)
		viewtest.Fits(t, id+" at 80 columns", v.Render(80, 20), 80, 20)
		frame := v.Render(120, 30)
		mustContain(t, id, frame, want...)
		mustNotContain(t, id, frame, "no rows", "has no rows", "no row could be read")
	}
}

// TestAllRowsSkipped: when no row could be read the page says so, not
// that the report is empty.
func TestAllRowsSkipped(t *testing.T) {
	e := shared.Env(t)
	otherServer(t, e, map[string]answer{
		reporting.PathReports + "/r-bad": record("r-bad", reporting.TypePaymentOps, reporting.FormatCSV),
		"/files/r-bad":                   {200, opsCSV(t, opsRow("p1", "COMPLETED", "abc", "1", ""), opsRow("", "COMPLETED", "1", "1", ""))},
	})
	v := reports.New(e.Ctx, e.P)
	open(v, "r-bad")
	frame := v.Render(120, 30)
	mustContain(t, "report", frame, "0 payments", "2 rows skipped", "no row could be read: 2 rows skipped (! lists why)",
		`line 2 · sent_amount: "abc"`, "line 3 · network_payment_id: a value is required: it identifies the row")
	mustNotContain(t, "report", frame, "the report has no rows")
}

// TestListSaysWhyItIsEmpty: the list shows "no reports" only when the
// server said so; while loading, or when the list could not be read, it
// says that.
func TestListSaysWhyItIsEmpty(t *testing.T) {
	e := shared.Env(t)
	c := otherServer(t, e, map[string]answer{
		reporting.PathReports: {200, `{"reports": [{"id": "r1", "type": "RECON", "format": "CSV", "status": "READY",
			"start_date": "2026-10-01T00:00:00Z", "end_date": "2026-10-31T23:59:59Z", "region": "eu"}, {"id": 5}]}`},
	})
	fail := true
	store := live.New(live.Options{Now: e.Ctx.Now, Feeds: []live.Feed{live.ListFeed(live.ReportsKey, func(r reporting.Report) string { return r.ID },
		func(ctx context.Context) ([]reporting.Report, error) {
			if fail {
				return nil, &apierr.Error{Interface: apierr.Reporting, HTTPStatus: 500, Code: "SYS_001", Class: apierr.ClassRetry}
			}
			return c.List(ctx)
		}, live.FeedOptions[[]reporting.Report, []reporting.Report]{Interface: apierr.Reporting, Interval: time.Minute})}})
	ctx := e.Ctx.Apart()
	ctx.Store = store
	v := reports.New(ctx, e.P)
	run(v, v.Update(ui.StoreChanged{}))
	frame := v.Render(120, 20)
	mustContain(t, "list loading", frame, "loading")
	mustNotContain(t, "list loading", frame, "no reports")
	store.FetchNow(context.Background(), live.Reports)
	run(v, v.Update(ui.StoreChanged{}))
	frame = v.Render(120, 20)
	mustContain(t, "list failed", frame, "SYS_001")
	mustNotContain(t, "list failed", frame, "no reports")

	fail = false
	store.FetchNow(context.Background(), live.Reports)
	run(v, v.Update(ui.StoreChanged{}))
	mustContain(t, "list", v.Render(120, 20), "RECON", "2026-10-01 … 2026-10-31")
	// The raw pager shows the record as it arrived, unknown fields
	// included.
	_, rec, ok := ui.SelectedOf(v)
	raw, isRaw := rec.(json.RawMessage)
	if !ok || !isRaw || !strings.Contains(string(raw), `"region": "eu"`) {
		t.Errorf("selected %T %v", rec, rec)
	}
}

// TestMoreSkippedThanListed: past reporting.MaxSkipped the parse lists
// the first rows skipped and counts them all; the page says how many
// were skipped and that only the first are listed.
func TestMoreSkippedThanListed(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	n := reporting.MaxSkipped + 3
	otherServer(t, e, map[string]answer{
		reporting.PathReports + "/r-many": record("r-many", reporting.TypePaymentOps, reporting.FormatCSV),
		"/files/r-many":                   {200, "network_payment_id,sent_amount\n" + strings.Repeat(",1\n", n) + "p1,1\n"},
	})
	v := reports.New(e.Ctx, e.P)
	open(v, "r-many")
	frame := v.Render(160, 30)
	mustContain(t, "report", frame, "1 payment", "1003 rows skipped", "lists the first 1000 of 1003")
}
