package sandbox_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"treasury/sandbox/sandboxtest"
	"treasury/wire/reporting"
)

// repTable reads a report body (CSV, or a JSON array of flat objects) as a
// header and rows of cells; JSON cells are their raw JSON text.
func repTable(t *testing.T, format string, body []byte) ([]string, [][]string) {
	t.Helper()
	if format == reporting.FormatCSV {
		recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Fatalf("CSV report: %v (%d records)", err, len(recs))
		}
		return recs[0], recs[1:]
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		t.Fatalf("JSON report does not start with [: %v", err)
	}
	var header []string
	var rows [][]string
	for dec.More() {
		if _, err := dec.Token(); err != nil { // {
			t.Fatal(err)
		}
		var row []string
		for i := 0; dec.More(); i++ {
			k, _ := dec.Token()
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			if len(rows) == 0 {
				header = append(header, k.(string))
			} else if header[i] != k {
				t.Fatalf("JSON row %d: key %d is %v, want %s", len(rows), i, k, header[i])
			}
			row = append(row, string(v))
		}
		dec.Token() // }
		rows = append(rows, row)
	}
	return header, rows
}

// TestVariantReporting checks the reporting variant: the download link on
// /files/{id}.{csv|json}, which only the variant serves (and the default
// download path answers 404 there), two extra columns in the middle of
// every report, and empty receiver-side amounts on the rows of failed and
// declined payments.
func TestVariantReporting(t *testing.T) {
	def, vr := faces(t)
	dtok, vtok := sandboxtest.PaymentsToken(t, def), sandboxtest.PaymentsToken(t, vr)
	var list reporting.ReportList
	sandboxtest.Get(t, def.Endpoints().Reporting+reporting.PathReports, dtok, &list)
	vlist := rawObject(t, http.MethodGet, vr.Endpoints().Reporting+reporting.PathReports, vtok, nil, 200)
	expectExtras(t, "variant reports", vlist, "reports", true)
	checked := 0
	for _, r := range list.Reports {
		if r.StartDate.Month() != 10 { // the full month of October
			continue
		}
		checked++
		var d reporting.Report
		sandboxtest.Get(t, def.Endpoints().Reporting+reporting.PathReports+"/"+r.ID, dtok, &d)
		v := rawObject(t, http.MethodGet, vr.Endpoints().Reporting+reporting.PathReports+"/"+r.ID, vtok, nil, 200)
		ext := strings.ToLower(r.Format)
		link, _ := v["download_link"].(string)
		if !hasExtras(v) || link != vr.Endpoints().Reporting+"/files/"+r.ID+"."+ext ||
			d.DownloadLink != def.Endpoints().Reporting+reporting.PathDownload+r.ID {
			t.Fatalf("%s links: default %s, variant %v", r.ID, d.DownloadLink, v)
		}
		for what, u := range map[string]string{
			"variant default path": vr.Endpoints().Reporting + reporting.PathDownload + r.ID,
			"variant other format": strings.TrimSuffix(link, ext) + map[string]string{"csv": "json", "json": "csv"}[ext],
			"default files path":   def.Endpoints().Reporting + "/files/" + r.ID + "." + ext,
		} {
			tok := vtok
			if strings.HasPrefix(what, "default") {
				tok = dtok
			}
			if st, _, b := sandboxtest.Send(t, http.MethodGet, u, tok, nil); st != 404 {
				t.Fatalf("%s %s: HTTP %d %.200s, want 404", what, u, st, b)
			}
		}
		st, _, db := sandboxtest.Send(t, http.MethodGet, d.DownloadLink, dtok, nil)
		st2, _, vb := sandboxtest.Send(t, http.MethodGet, link, vtok, nil)
		if st != 200 || st2 != 200 {
			t.Fatalf("%s downloads: HTTP %d and %d", r.ID, st, st2)
		}
		dh, drows := repTable(t, r.Format, db)
		vh, vrows := repTable(t, r.Format, vb)
		extra := map[string]bool{"settlement_batch_id": true, "fee_currency": true}
		var kept []string
		for i, c := range vh {
			if extra[c] {
				if i == len(vh)-1 || i < 2 {
					t.Fatalf("%s %s: column %s at %d of %d, want it in the middle", r.Type, r.Format, c, i, len(vh))
				}
				continue
			}
			kept = append(kept, c)
		}
		if !slices.Equal(kept, dh) || len(vh) != len(dh)+2 {
			t.Fatalf("%s %s header: default %v, variant %v", r.Type, r.Format, dh, vh)
		}
		if len(vrows) != len(drows) {
			t.Fatalf("%s %s: %d rows by default, %d in the variant", r.Type, r.Format, len(drows), len(vrows))
		}
		receiverSide := map[string]bool{"deposit_result_amount": true, "deposit_result_fee_amount": true, "destination_result_amount": true,
			"destination_result_adjusted_amount": true, "destination_result_proceeds": true, "destination_result_adjusted_proceeds": true}
		emptied := 0
		for i := range drows {
			drow := map[string]string{}
			for j, c := range dh {
				drow[c] = strings.Trim(drows[i][j], `"`)
			}
			failed := drow["payment_state"] == "FAILED" || drow["payment_state"] == "DECLINED"
			for j, c := range vh {
				got := strings.Trim(vrows[i][j], `"`)
				switch {
				case c == "fee_currency":
					if got != drow["sent_currency"] {
						t.Fatalf("row %d fee_currency %q, sent_currency %q", i, got, drow["sent_currency"])
					}
				case c == "settlement_batch_id":
					if !strings.HasPrefix(got, "SB-2026") {
						t.Fatalf("row %d settlement_batch_id %q", i, got)
					}
				case failed && c == "received_amount":
					if got != "" || drow[c] == "" {
						t.Fatalf("row %d (%s) received_amount: variant %q, default %q", i, drow["payment_state"], got, drow[c])
					}
					emptied++
				case failed && receiverSide[c]:
					if got != "" {
						t.Fatalf("row %d (%s) %s = %q, want empty", i, drow["payment_state"], c, got)
					}
				case got != drow[c]:
					t.Fatalf("row %d %s: variant %q, default %q", i, c, got, drow[c])
				}
			}
		}
		if emptied == 0 {
			t.Fatalf("%s %s: no failed or declined payment", r.Type, r.Format)
		}
	}
	if checked != 4 {
		t.Fatalf("%d October reports, want 4", checked)
	}
}
