package client_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/reporting"
	"treasury/wire/reporting/client"
	"treasury/wire/transport"
)

func noSleep(context.Context, time.Duration) error { return nil }

func newClient(t *testing.T, srv *sandbox.Server, id, secret string) *client.Client {
	t.Helper()
	src := auth.NewPayments(auth.PaymentsConfig{
		AuthURL: srv.Endpoints().Auth, ClientID: id, ClientSecret: auth.NewSecret(secret),
		Audience: srv.Credentials().PaymentsAudience,
	})
	c, err := client.NewClient(transport.Config{BaseURL: srv.Endpoints().Reporting, Auth: src, Sleep: noSleep})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func sandboxClient(t *testing.T) (*client.Client, *sandbox.Server) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	cr := srv.Credentials()
	return newClient(t, srv, cr.PaymentsClientID, cr.PaymentsClientSecret), srv
}

func canonical(t *testing.T, r *reporting.Rows) string {
	t.Helper()
	var b bytes.Buffer
	var err error
	if r.Type == reporting.TypeRecon {
		err = reporting.WriteReconCSV(&b, r.Recon)
	} else {
		err = reporting.WritePaymentOpsCSV(&b, r.PaymentOps)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestList(t *testing.T) {
	c, _ := sandboxClient(t)
	reps, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 12 {
		t.Fatalf("%d reports, want 3 periods x 2 types x 2 formats", len(reps))
	}
	type key struct{ typ, format, start string }
	seen := map[key]bool{}
	for _, r := range reps {
		k := key{r.Type, r.Format, r.StartDate.Format(time.RFC3339)}
		if r.ID == "" || r.DownloadLink != "" || !r.EndDate.After(r.StartDate) || r.Status != reporting.StatusReady || seen[k] {
			t.Errorf("listed report %+v: want a unique READY report with an id, no download link, end after start", r)
		}
		if !strings.Contains(string(r.RawJSON()), `"id":"`+r.ID+`"`) {
			t.Errorf("listed report %s keeps %q as its JSON", r.ID, r.RawJSON())
		}
		seen[k] = true
	}
}

func TestGet(t *testing.T) {
	c, srv := sandboxClient(t)
	ctx := context.Background()
	reps, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range reps {
		got, err := c.Get(ctx, r.ID)
		if err != nil {
			t.Fatalf("get %s: %v", r.ID, err)
		}
		link := srv.Endpoints().Reporting + reporting.PathDownload + r.ID
		if got.ID != r.ID || got.Type != r.Type || got.Format != r.Format || !got.StartDate.Equal(r.StartDate) || got.DownloadLink != link {
			t.Errorf("get %s = %+v, want the listed record with download link %s", r.ID, got, link)
		}
	}
}

// TestDownload downloads every report: CSV and JSON of one type and period
// hold the same rows, and RECON lines group per payment consistently.
func TestDownload(t *testing.T) {
	c, _ := sandboxClient(t)
	ctx := context.Background()
	reps, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ typ, start string }
	content := map[key]map[string]string{} // type+period -> format -> canonical CSV
	for _, r := range reps {
		d, err := c.Download(ctx, r)
		if err != nil {
			t.Fatalf("download %s %s %s: %v", r.ID, r.Type, r.Format, err)
		}
		if len(d.Raw) == 0 || d.Rows == nil || d.Rows.Type != r.Type || d.Rows.Len() == 0 {
			t.Fatalf("download %s: %d bytes, rows %+v", r.ID, len(d.Raw), d.Rows)
		}
		k := key{r.Type, r.StartDate.Format(time.RFC3339)}
		if content[k] == nil {
			content[k] = map[string]string{}
		}
		content[k][r.Format] = canonical(t, d.Rows)
		if r.Type == reporting.TypeRecon {
			for _, p := range reporting.GroupRecon(d.Rows.Recon) {
				if len(p.Mismatch) > 0 || p.Totals.Transactions != len(p.Lines) || p.Totals.Transactions == 0 {
					t.Errorf("payment %s: %d lines, %d counted, lines disagree on %v", p.NetworkPaymentID, len(p.Lines), p.Totals.Transactions, p.Mismatch)
				}
			}
		}
	}
	if len(content) != 6 {
		t.Fatalf("%d type and period pairs, want 6", len(content))
	}
	for k, byFormat := range content {
		if csv, js := byFormat[reporting.FormatCSV], byFormat[reporting.FormatJSON]; csv == "" || csv != js {
			t.Errorf("%s %s: CSV and JSON downloads hold different rows", k.typ, k.start)
		}
	}
}

func TestDownloadByID(t *testing.T) {
	c, _ := sandboxClient(t)
	ctx := context.Background()
	reps, err := c.List(ctx)
	if err != nil || len(reps) == 0 {
		t.Fatalf("list: %d, %v", len(reps), err)
	}
	r := reps[len(reps)-1]
	d, err := c.DownloadByID(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{r.Type, r.StartDate.Format("2006-01-02"), r.EndDate.Format("2006-01-02"), r.ID}, "_") + "." + strings.ToLower(r.Format)
	if d.Report.ID != r.ID || d.Report.DownloadLink == "" || d.Rows.Len() == 0 || d.FileName() != want {
		t.Errorf("download %+v, %d rows, file %q (want %q)", d.Report, d.Rows.Len(), d.FileName(), want)
	}
}

func TestUnknownReport(t *testing.T) {
	c, _ := sandboxClient(t)
	ctx := context.Background()
	const unknown = "0b8a7c1e-6d0f-4f5e-9a0b-000000000000"
	_, err := c.Get(ctx, unknown)
	if e, ok := apierr.As(err); !ok || e.HTTPStatus != http.StatusNotFound || e.Class != apierr.ClassNotFound || e.Code != "USR_002" {
		t.Errorf("get unknown id: %v", err)
	}
	_, err = c.DownloadByID(ctx, unknown)
	if e, ok := apierr.As(err); !ok || e.HTTPStatus != http.StatusNotFound {
		t.Errorf("download by unknown id: %v", err)
	}
	// A record without a download link is read again for its link.
	_, err = c.Download(ctx, reporting.Report{ID: unknown, Type: reporting.TypeRecon, Format: reporting.FormatCSV})
	if e, ok := apierr.As(err); !ok || e.HTTPStatus != http.StatusNotFound || e.Path != reporting.PathReports+"/"+unknown {
		t.Errorf("download unknown id: %v", err)
	}
	_, err = c.Get(ctx, "not-a-uuid")
	if e, ok := apierr.As(err); !ok || e.HTTPStatus != http.StatusBadRequest || e.Class != apierr.ClassFixRequest {
		t.Errorf("bad id: %v", err)
	}
	if _, err := c.Get(ctx, " "); err == nil {
		t.Error("blank id accepted")
	}
}

func TestBadToken(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	ctx := context.Background()
	static, err := client.NewClient(transport.Config{BaseURL: srv.Endpoints().Reporting, Auth: auth.NewStatic(auth.NewSecret("not.a.token")), Sleep: noSleep})
	if err != nil {
		t.Fatal(err)
	}
	_, err = static.List(ctx)
	if e, ok := apierr.As(err); !ok || e.HTTPStatus != http.StatusUnauthorized || e.Code != "AUTH_003" || e.Class != apierr.ClassRefreshAuth {
		t.Errorf("invalid token: %v", err)
	}
	cr := srv.Credentials()
	_, err = newClient(t, srv, cr.PaymentsClientID, cr.PaymentsClientSecret+"x").List(ctx)
	if e, ok := apierr.As(err); !ok || e.HTTPStatus != http.StatusUnauthorized {
		t.Errorf("wrong client secret: %v", err)
	}
	_, err = newClient(t, srv, cr.PaymentsLimitedClientID, cr.PaymentsLimitedClientSecret).List(ctx)
	if e, ok := apierr.As(err); !ok || e.HTTPStatus != http.StatusForbidden || e.Code != "AUTH_002" || e.Class != apierr.ClassForbidden {
		t.Errorf("client without reports scope: %v", err)
	}
}

// TestNotReady crosses midnight on the sandbox clock: the new month to date
// is PENDING until 00:01 UTC. The client's token has expired by then; it
// gets a new one on the 401.
func TestNotReady(t *testing.T) {
	opts := sandboxtest.Options()
	opts.LivePaymentsPerMinute = 0.05 // the default 12 would put 10,000 payments in the new month to date
	srv := sandboxtest.Listen(t, opts)
	cr := srv.Credentials()
	c := newClient(t, srv, cr.PaymentsClientID, cr.PaymentsClientSecret)
	ctx := context.Background()
	if _, err := c.List(ctx); err != nil {
		t.Fatal(err)
	}
	midnight := sandboxtest.Start().Truncate(24*time.Hour).AddDate(0, 0, 1)
	srv.Clock().Advance(midnight.Add(30 * time.Second).Sub(srv.Clock().Now()))
	reps, err := c.List(ctx)
	if err != nil {
		t.Fatalf("list with an expired token: %v", err)
	}
	var mtd reporting.Report
	for _, r := range reps {
		if r.Status == reporting.StatusPending {
			mtd = r
		}
	}
	if mtd.ID == "" || !mtd.EndDate.Before(midnight) || mtd.EndDate.Before(midnight.Add(-time.Second)) {
		t.Fatalf("no PENDING month to date ending at midnight in %+v", reps)
	}
	if _, err := c.Download(ctx, mtd); !errors.Is(err, reporting.ErrNotReady) {
		t.Errorf("download pending: %v", err)
	}
	if _, err := c.DownloadByID(ctx, mtd.ID); !errors.Is(err, reporting.ErrNotReady) {
		t.Errorf("download by id pending: %v", err)
	}
	srv.Clock().Advance(time.Minute)
	if d, err := c.DownloadByID(ctx, mtd.ID); err != nil || d.Rows.Len() == 0 {
		t.Errorf("at 00:01:30: %v", err)
	}
}
