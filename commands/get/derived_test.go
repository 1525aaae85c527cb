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

	"treasury/data/payments"
	"treasury/data/reporting"
	"treasury/data/wallet"
)

// TestGetPaymentsErrorColumns: table and CSV end with the first error's
// code and the detail view's verdict and advice; JSON carries the wire
// fields only, errors[0].code included.
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
	want := []string{"fee_total", "fee_currency", "tax_total", "tax_currency", "errors_count", "error_code", "error_type", "error_title", "error_timestamp", "retry", "guidance"}
	if got := head[len(head)-len(want):]; !slices.Equal(got, want) {
		t.Errorf("last columns %v, want %v", got, want)
	}
	for _, embedded := range []string{"errors", "fees", "taxes"} {
		if slices.Contains(head, embedded) {
			t.Errorf("CSV embeds %q as JSON: %v", embedded, head)
		}
	}
	// The errors as the server sent them, by payment.
	sent := map[string][]payments.PaymentError{}
	for _, p := range getJSON[[]payments.Payment](t, "payments", "--state", "FAILED,DECLINED") {
		sent[p.PaymentID] = p.Errors
	}
	withCode := 0
	for _, r := range rows[1:] {
		errs, ok := sent[r[col("paymentId")]]
		if !ok {
			t.Fatalf("payment %s in CSV, not in JSON", r[col("paymentId")])
		}
		if len(errs) > 0 {
			e := errs[0]
			if got := []string{r[col("errors_count")], r[col("error_type")], r[col("error_title")], r[col("error_timestamp")]}; !slices.Equal(got, []string{strconv.Itoa(len(errs)), e.Type, string(e.Title), e.Timestamp}) {
				t.Errorf("payment %s: error columns %q, sent %+v", r[0], got, e)
			}
		}
		st := payments.State(r[col("paymentState")])
		switch {
		case len(errs) == 0:
			want := ""
			if st.FailedTerminal() {
				want = payments.StateMeaning(st)
			}
			if r[col("error_code")] != "" || r[col("guidance")] != want {
				t.Errorf("payment %s without errors: code %q guidance %q", r[0], r[col("error_code")], r[col("guidance")])
			}
		default:
			withCode++
			a := payments.Advise(st, errs[0])
			if r[col("error_code")] != errs[0].Code || r[col("retry")] != a.Retry || r[col("guidance")] != a.Todo {
				t.Errorf("payment %s: %q %q %q, want %q %q %q", r[0], r[col("error_code")], r[col("retry")], r[col("guidance")], errs[0].Code, a.Retry, a.Todo)
			}
		}
	}
	if withCode == 0 {
		t.Fatal("no failed payment carried an error code")
	}

	code, out, _ := getRun(t, "payments", "--state", "FAILED")
	// One error column: the short columns' ERROR (the code), then the
	// verdict and advice.
	if first, _, _ := strings.Cut(out, "\n"); code != 0 || !slices.Equal(strings.Fields(first)[len(strings.Fields(first))-2:], []string{"RETRY", "GUIDANCE"}) ||
		strings.Count(first, "ERROR") != 1 {
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
		if _, ok := r["paymentId"]; !ok {
			t.Fatalf("-o json lacks paymentId: %v", r)
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
	a := payments.Advise(full.PaymentState, full.Errors[0])
	for _, want := range []string{"error_code  ", full.Errors[0].Code, "retry  ", a.Retry, "guidance  ", a.Todo, "state_meaning  ", a.State} {
		if !strings.Contains(out, want) {
			t.Errorf("get payment lacks %q:\n%s", want, out)
		}
	}
	// A completed payment (the oldest, looked up once for the package)
	// has no error rows.
	_, out, _ = getRun(t, "payment", seededIDs.get(t, "payment"))
	if strings.Contains(out, "\nerror_code") || strings.Contains(out, "\nguidance") {
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
	if got := rows[0][n-3:]; !slices.Equal(got, []string{"error_code", "retry", "guidance"}) {
		t.Fatalf("last columns %v", got)
	}
	if r := rows[1][n-3:]; r[0] != "ERR006.005" || !strings.HasPrefix(r[1], "NO") || !strings.Contains(r[2], "policy denied") {
		t.Errorf("rejected transaction: %q", r)
	}
	if r := rows[2][n-3:]; r[0] != "" || r[1] != "" || r[2] != "" {
		t.Errorf("confirmed transaction: %q", r)
	}
}

// TestGetHelpSaysExitCodes: `treasury get --help` exits 0 and documents
// the exit status and what each format carries.
func TestGetHelpSaysExitCodes(t *testing.T) {
	code, out, stderr := getRun(t, "--help")
	help := out + stderr
	for _, want := range []string{"exit status:", "0  every record was read", "1  a call failed", "2  usage", "fee_total", "error_code", "retry and guidance"} {
		if !strings.Contains(help, want) {
			t.Errorf("get --help lacks %q", want)
		}
	}
	if code != 0 {
		t.Errorf("get --help exits %d", code)
	}
}
