package client_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"treasury/wire/reporting"
)

// record serves the report record of id at its Get path, with the link
// when it is not empty.
func (f *fake) record(id, typ, format, link string) {
	body := fmt.Sprintf(`{"id":%q,"type":%q,"format":%q,"status":"READY","start_date":"2026-10-01T00:00:00Z",`+
		`"end_date":"2026-10-31T23:59:59Z","generated_by":"batch-7"`, id, typ, format)
	if link != "" {
		body += fmt.Sprintf(`,"download_link":%q`, link)
	}
	f.serve(reporting.PathReports+"/"+id, 200, body+"}")
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/" + name) // package reporting's fixtures
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wantHits checks the requests f saw: their URIs, and whether each carried
// exactly the token (true) or no Authorization header at all (false).
func wantHits(t *testing.T, what string, f *fake, uris []string, token []bool) {
	t.Helper()
	got := f.requests()
	if len(got) != len(uris) {
		t.Fatalf("%s: requests %+v, want %v", what, got, uris)
	}
	for i, h := range got {
		if h.uri != uris[i] {
			t.Errorf("%s: request %d to %s, want %s", what, i, h.uri, uris[i])
		}
		switch {
		case token[i] && (len(h.auth) != 1 || h.auth[0] != "Bearer tok"):
			t.Errorf("%s: request %d carried Authorization %q, want the token", what, i, h.auth)
		case !token[i] && len(h.auth) != 0:
			t.Errorf("%s: request %d to another host carried Authorization %q", what, i, h.auth)
		}
	}
}

// TestDownloadLinkSameHost: a link to another path of the reporting host
// is followed with the token; the guessed path is never asked.
func TestDownloadLinkSameHost(t *testing.T) {
	f := newFake(t)
	f.record("r1", reporting.TypePaymentOps, reporting.FormatCSV, f.srv.URL+"/files/r1.csv?sig=abc")
	f.serve("/files/r1.csv", 200, fixture(t, "payment_ops.csv"))
	listed := reporting.Report{ID: "r1", Type: reporting.TypePaymentOps, Format: reporting.FormatCSV, Status: reporting.StatusReady}
	d, err := fakeClient(t, f).Download(context.Background(), listed)
	if err != nil || d.Rows.Len() != 2 || d.Report.DownloadLink == "" {
		t.Fatalf("download: %v, %+v", err, d)
	}
	wantHits(t, "same host", f, []string{reporting.PathReports + "/r1", "/files/r1.csv?sig=abc"}, []bool{true, true})
}

// TestDownloadLinkOtherHost: a link to another host (presigned storage)
// is followed without the token; a record that has the link is not read
// again.
func TestDownloadLinkOtherHost(t *testing.T) {
	f, store := newFake(t), newFake(t)
	link := store.srv.URL + "/bucket/r2.json?X-Amz-Signature=deadbeef"
	f.record("r2", reporting.TypePaymentOps, reporting.FormatJSON, link)
	store.serve("/bucket/r2.json", 200, fixture(t, "payment_ops.json"))
	c := fakeClient(t, f)
	ctx := context.Background()
	d, err := c.DownloadByID(ctx, "r2")
	if err != nil || d.Rows.Len() != 2 || d.Report.DownloadLink != link {
		t.Fatalf("download: %v, %+v", err, d)
	}
	if _, err := c.Download(ctx, d.Report); err != nil {
		t.Fatal(err)
	}
	wantHits(t, "reporting host", f, []string{reporting.PathReports + "/r2"}, []bool{true})
	uri := "/bucket/r2.json?X-Amz-Signature=deadbeef"
	wantHits(t, "storage host", store, []string{uri, uri}, []bool{false, false})

	// A refusal of the storage host names it, not the signature.
	store.serve("/bucket/r2.json", http.StatusForbidden, "<Error><Code>AccessDenied</Code></Error>")
	_, err = c.Download(ctx, d.Report)
	if err == nil || !strings.Contains(err.Error(), "/bucket/r2.json") || strings.Contains(err.Error(), "deadbeef") {
		t.Errorf("storage refusal: %v", err)
	}
}

// TestDownloadNoLink: when the record has no link, the guessed path is
// asked, with the token.
func TestDownloadNoLink(t *testing.T) {
	f := newFake(t)
	f.record("r3", reporting.TypeRecon, reporting.FormatCSV, "")
	f.serve(reporting.PathDownload+"r3", 200, fixture(t, "recon.csv"))
	d, err := fakeClient(t, f).Download(context.Background(), reporting.Report{ID: "r3", Type: reporting.TypeRecon, Format: reporting.FormatCSV})
	if err != nil || len(d.Rows.Recon) != 4 {
		t.Fatalf("download: %v, %+v", err, d)
	}
	wantHits(t, "no link", f, []string{reporting.PathReports + "/r3", reporting.PathDownload + "r3"}, []bool{true, true})
}

// TestDownloadOtherLegalReport: a PAYMENT_OPS report of 100 rows with
// extra columns in the middle, received_amount empty on the FAILED rows
// and one amount written "1,000.10": 99 rows are read, the odd one is
// skipped with its line and column.
func TestDownloadOtherLegalReport(t *testing.T) {
	header, row, _ := strings.Cut(fixture(t, "payment_ops.csv"), "\n")
	row, failed, _ := strings.Cut(row, "\n")
	failed = strings.Replace(strings.TrimSpace(failed), "Receiver Bank,15300.0,", "Receiver Bank,,", 1)
	var b strings.Builder
	b.WriteString(strings.Replace(header, ",sent_currency,", ",sent_currency,fee_tier,batch,", 1) + "\r\n")
	for i := range 100 {
		r := row
		if i%10 == 3 {
			r = failed
		}
		r = strings.Replace(r, "6f1c2d9e-8f0a-4a55-9a51-1b2c3d4e5f60", fmt.Sprintf("pay-%03d", i), 1)
		r = strings.Replace(r, "7a2b3c4d-0000-4a55-9a51-1b2c3d4e5f61", fmt.Sprintf("pay-%03d", i), 1)
		r = strings.Replace(r, ",USD,", fmt.Sprintf(",USD,t%d,b%d,", i%3, i), 1)
		r = strings.Replace(r, ",EUR,", fmt.Sprintf(",EUR,t%d,b%d,", i%3, i), 1)
		if i == 57 {
			r = strings.Replace(r, "1000.10", `"1,000.10"`, 1)
		}
		b.WriteString(r + "\r\n")
	}
	f := newFake(t)
	f.record("r4", reporting.TypePaymentOps, reporting.FormatCSV, "/files/r4")
	f.serve("/files/r4", 200, b.String())
	d, err := fakeClient(t, f).DownloadByID(context.Background(), "r4")
	if err != nil {
		t.Fatalf("one odd row failed the report: %v", err)
	}
	rows := d.Rows.PaymentOps
	if len(rows) != 99 || len(d.Rows.Skipped) != 1 {
		t.Fatalf("%d rows, skipped %v: want 99 and the row of pay-057", len(rows), d.Rows.Skipped)
	}
	if s := d.Rows.Skipped[0]; s.Line != 59 || s.Column != "sent_amount" || !strings.Contains(s.Error(), `"1,000.10" is not a decimal amount`) {
		t.Errorf("skipped %v, want line 59 column sent_amount", s)
	}
	failedRows := 0
	for _, r := range rows {
		if r.NetworkPaymentID == "pay-057" {
			t.Error("the unreadable row was read")
		}
		var i int
		fmt.Sscanf(r.NetworkPaymentID, "pay-%d", &i)
		if want := []reporting.Field{{Name: "fee_tier", Value: fmt.Sprint("t", i%3)}, {Name: "batch", Value: fmt.Sprint("b", i)}}; !slices.Equal(r.Extra, want) {
			t.Errorf("%s extras %v, want %v", r.NetworkPaymentID, r.Extra, want)
		}
		if r.PaymentState == "FAILED" {
			failedRows++
			if r.Received() != nil || r.ReceivedCurrency != "PHP" || r.Sent() == nil {
				t.Errorf("FAILED %s: received %v %s, sent %v", r.NetworkPaymentID, r.Received(), r.ReceivedCurrency, r.Sent())
			}
		} else if r.Received() == nil || r.SentCurrency != "USD" {
			t.Errorf("%s: received %v, sent in %q", r.NetworkPaymentID, r.Received(), r.SentCurrency)
		}
	}
	if failedRows != 10 {
		t.Errorf("%d FAILED rows read, want 10", failedRows)
	}
	wantHits(t, "relative link", f, []string{reporting.PathReports + "/r4", "/files/r4"}, []bool{true, true})
}

// TestDownloadKeepsRaw checks content that cannot be read at all, and an
// empty 204.
func TestDownloadKeepsRaw(t *testing.T) {
	bad := "<html><body>maintenance</body></html>\n"
	f := newFake(t)
	f.serve("/bad", 200, bad)
	f.serve("/empty", http.StatusNoContent, "")
	c := fakeClient(t, f)
	ctx := context.Background()
	d, err := c.Download(ctx, reporting.Report{ID: "bad", Type: reporting.TypePaymentOps, Format: reporting.FormatCSV, DownloadLink: f.srv.URL + "/bad"})
	var pe *reporting.ParseError
	if !errors.As(err, &pe) || pe.Column != "network_payment_id" || !errors.Is(err, reporting.ErrMissingColumn) {
		t.Fatalf("err = %v, want a missing column error naming network_payment_id", err)
	}
	if d == nil || string(d.Raw) != bad || d.Rows != nil {
		t.Fatalf("download = %+v, want the raw bytes kept", d)
	}
	d, err = c.Download(ctx, reporting.Report{ID: "empty", Type: reporting.TypeRecon, Format: reporting.FormatJSON, DownloadLink: "/empty"})
	if err != nil || d.Rows == nil || d.Rows.Len() != 0 || len(d.Rows.Skipped) != 0 {
		t.Fatalf("empty report = %+v, %v", d, err)
	}
	d.Report.StartDate = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	d.Report.EndDate = time.Date(2026, 10, 31, 23, 59, 59, 0, time.UTC)
	d.Report.ID = "../etc"
	if got, want := d.FileName(), "RECON_2026-10-01_2026-10-31_etc.json"; got != want {
		t.Errorf("file name %q, want %q", got, want)
	}
}
