package get

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"treasury/figures"
	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/wallet"
)

// TestGetPaymentsErrorColumns: table and CSV end with the payment's
// figures as the dashboard gives them (package figures): its funding,
// every error's code, the one it is grouped under with its type, title and
// time, and the one retry verdict with its advice; JSON carries the wire
// fields as sent, errors[0].code included, and the same figures under one
// added key, _treasury.
func TestGetPaymentsErrorColumns(t *testing.T) {
	t.Parallel()
	rows := getCSV(t, "payments", "--state", "FAILED,DECLINED")
	head := rows[0]
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("no column %q in %v", name, head)
		}
		return i
	}
	want := []string{"funding", "fee_total", "fee_currency", "tax_total", "tax_currency", "errors_count", "error_codes", "reason_code",
		"error_type", "error_title", "error_timestamp", "retry", "retry_advice", "retry_why", "guidance"}
	if got := head[len(head)-len(want):]; !slices.Equal(got, want) {
		t.Errorf("last columns %v, want %v", got, want)
	}
	for _, embedded := range []string{"errors", "fees", "taxes"} {
		if slices.Contains(head, embedded) {
			t.Errorf("CSV embeds %q as JSON: %v", embedded, head)
		}
	}
	// The errors as the server sent them, by payment.
	sent := map[string]payments.Payment{}
	for _, p := range getJSON[[]payments.Payment](t, "payments", "--state", "FAILED,DECLINED") {
		sent[p.PaymentID] = p
	}
	withCode := 0
	for _, r := range rows[1:] {
		p, ok := sent[r[col("payment_id")]]
		if !ok {
			t.Fatalf("payment %s in CSV, not in JSON", r[col("payment_id")])
		}
		errs := p.Errors
		if e, ok := figures.Reason(&p); ok {
			if got := []string{r[col("errors_count")], r[col("reason_code")], r[col("error_type")], r[col("error_title")], r[col("error_timestamp")]}; !slices.Equal(got,
				[]string{strconv.Itoa(len(errs)), e.Code, e.Type, string(e.Title), figures.StampText(e.Timestamp)}) {
				t.Errorf("payment %s: error columns %q, sent %+v", r[0], got, e)
			}
		}
		a := figures.VerdictOf(&p)
		if r[col("error_codes")] != strings.Join(figures.Codes(&p), ";") || r[col("retry")] != a.Word.Word() ||
			r[col("retry_advice")] != a.Retry || r[col("retry_why")] != a.Why || r[col("guidance")] != a.Todo ||
			r[col("funding")] != figures.FundingOf(&p).Name() {
			t.Errorf("payment %s: %q, want the verdict %+v", r[0], r[len(r)-len(want):], a)
		}
		if len(errs) > 0 {
			withCode++
		}
	}
	if withCode == 0 {
		t.Fatal("no failed payment carried an error code")
	}

	code, out, _ := getRun(t, "payments", "--state", "FAILED")
	// One error column and one verdict: the short columns' ERROR (every
	// code) and RETRY, then the advice.
	if first, _, _ := strings.Cut(out, "\n"); code != 0 || !slices.Equal(strings.Fields(first)[len(strings.Fields(first))-2:], []string{"BENEFICIARY", "GUIDANCE"}) ||
		strings.Count(first, "ERROR") != 1 || strings.Count(first, "RETRY") != 1 {
		t.Errorf("table header %q (exit %d)", first, code)
	}

	code, out, _ = getRun(t, "payments", "--state", "FAILED", "-o", "json")
	var recs []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &recs); code != 0 || err != nil || len(recs) == 0 {
		t.Fatalf("json: exit %d, %v", code, err)
	}
	for _, r := range recs {
		for _, k := range []string{"error_code", "retry", "guidance", "state_meaning"} {
			if _, ok := r[k]; ok {
				t.Fatalf("-o json added %q to a wire record", k)
			}
		}
		var p payments.Payment
		var f paymentFigures
		if err := json.Unmarshal(r["_treasury"], &f); err != nil || json.Unmarshal(mustJSON(t, r), &p) != nil || p.PaymentID == "" {
			t.Fatalf("-o json: a record without its paymentId or _treasury (%v): %v", err, r)
		}
		if a := figures.VerdictOf(&p); f.Retry != a.Word.Word() || f.RetryWhy != a.Why || !slices.Equal(f.ErrorCodes, figures.Codes(&p)) {
			t.Errorf("payment %s: _treasury %+v, the verdict of its errors %+v", p.PaymentID, f, a)
		}
	}
}

// TestGetPaymentGuidance: one failed payment's table ends with what the
// dashboard's detail says: code, retry verdict, what to do, the state.
func TestGetPaymentGuidance(t *testing.T) {
	t.Parallel()
	failed := getJSON[[]payments.Payment](t, "payments", "--state", "DECLINED")
	if len(failed) == 0 {
		t.Fatal("no declined payment")
	}
	p := failed[len(failed)-1]
	code, out, stderr := getRun(t, "payment", p.PaymentID)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	full := getJSON[payments.Payment](t, "payment", p.PaymentID)
	if len(full.Errors) == 0 {
		t.Fatal("GET /v3/payments/{id} of a declined payment has no errors")
	}
	a := figures.VerdictOf(&full)
	for _, want := range []string{"error_codes  ", full.Errors[0].Code, "retry  ", a.Word.Word(), "retry_advice  ", a.Retry, "guidance  ", a.Todo,
		"state_meaning  ", a.State, "funding  "} {
		if !strings.Contains(out, want) {
			t.Errorf("get payment lacks %q:\n%s", want, out)
		}
	}
	// A completed payment (the oldest, looked up once for the package)
	// has no error rows.
	_, out, _ = getRun(t, "payment", seededIDs.get(t, "payment"))
	if strings.Contains(out, "\nerror_codes") || strings.Contains(out, "\nguidance") || strings.Contains(out, "\nretry") {
		t.Errorf("a completed payment shows error rows:\n%s", out)
	}
	if !regexp.MustCompile(`\nstate_meaning +` + regexp.QuoteMeta(payments.StateMeaning(payments.Completed))).MatchString(out) {
		t.Errorf("a completed payment does not say what COMPLETED means:\n%s", out)
	}
}

// TestGetReportsType: --type keeps the reports of that type.
func TestGetReportsType(t *testing.T) {
	t.Parallel()
	all := getJSON[[]reporting.Report](t, "reports")
	recon := getJSON[[]reporting.Report](t, "reports", "--type", "recon")
	n := 0
	for _, r := range all {
		if r.Type == reporting.TypeRecon {
			n++
		}
	}
	if n == 0 || len(recon) != n {
		t.Fatalf("%d RECON reports of %d, --type RECON gave %d", n, len(all), len(recon))
	}
	for _, r := range recon {
		if r.Type != reporting.TypeRecon {
			t.Fatalf("--type RECON gave a %s report", r.Type)
		}
	}
}

// TestWalletTxErrorColumns: a rejected transaction's problem reason, its
// retryability and apierr's advice for the reason.
func TestWalletTxErrorColumns(t *testing.T) {
	txs := []wallet.Transaction{
		{ID: "t1", Status: wallet.TxRejected, Problems: []wallet.Problem{{Reason: "ERR006.005", Message: "denied"}}},
		{ID: "t2", Status: wallet.TxConfirmed},
	}
	var out bytes.Buffer
	if err := writeRecords(&out, "csv", txs, time.Now()); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	n := len(rows[0])
	if got := rows[0][n-4:]; !slices.Equal(got, []string{"error_code", "retry", "retry_advice", "guidance"}) {
		t.Fatalf("last columns %v", got)
	}
	if r := rows[1][n-4:]; r[0] != "ERR006.005" || r[1] != "NO" || !strings.HasPrefix(r[2], "NO: ") || !strings.Contains(r[3], "policy denied") {
		t.Errorf("rejected transaction: %q", r)
	}
	if r := rows[2][n-4:]; r[0] != "" || r[1] != "" || r[2] != "" || r[3] != "" {
		t.Errorf("confirmed transaction: %q", r)
	}
}

// TestGetHelpSaysExitCodes: `treasury get --help` exits 0 and documents
// the exit status and what each format carries.
func TestGetHelpSaysExitCodes(t *testing.T) {
	code, out, stderr := getRun(t, "--help")
	help := out + stderr
	for _, want := range []string{"exit status:", "0  every record was read", "1  a call failed", "2  usage", "fee_total", "error_codes", "retry_advice", "_treasury"} {
		if !strings.Contains(help, want) {
			t.Errorf("get --help lacks %q", want)
		}
	}
	if code != 0 {
		t.Errorf("get --help exits %d", code)
	}
}

// mustJSON is v as JSON.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
