package reporting

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"treasury/wire/money"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func eqAmount(t *testing.T, what string, got money.Number, want string) {
	t.Helper()
	if !got.Equal(money.MustParse(want)) {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

func eqOptAmount(t *testing.T, what string, got *money.Number, want string) {
	t.Helper()
	if want == "" {
		if got != nil {
			t.Errorf("%s = %s, want absent", what, got)
		}
		return
	}
	if got == nil {
		t.Errorf("%s absent, want %s", what, want)
		return
	}
	eqAmount(t, what, *got, want)
}

// checkPaymentOps checks the two rows of testdata/payment_ops.{csv,json}.
func checkPaymentOps(t *testing.T, rows []PaymentOpsRow) {
	t.Helper()
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2", len(rows))
	}
	a, b := rows[0], rows[1]
	if a.EndToEndID != "e2e-0001" || a.NetworkPaymentID != "6f1c2d9e-8f0a-4a55-9a51-1b2c3d4e5f60" {
		t.Errorf("ids = %q %q", a.EndToEndID, a.NetworkPaymentID)
	}
	if a.SenderAddress != "treasury-usd, rAddr1" || a.SenderCustomer != "Sender Bank" {
		t.Errorf("sender = %q %q", a.SenderAddress, a.SenderCustomer)
	}
	eqAmount(t, "sent_amount", a.SentAmount, "1000.10")
	if a.SentAmount.String() != "1000.1" {
		t.Errorf("sent_amount lost exactness: %s", a.SentAmount)
	}
	eqOptAmount(t, "withdrawal_result_amount", a.WithdrawalResultAmount, "1700.123456")
	eqAmount(t, "received_amount", a.ReceivedAmount, "17010.55")
	eqOptAmount(t, "fx_spot_rate", a.FXSpotRate, "17.0125")
	if want := time.Date(2026, 10, 1, 9, 2, 10, 250e6, time.UTC); a.ExecutedAt == nil || !a.ExecutedAt.Equal(want) {
		t.Errorf("executed_at = %v, want %v", a.ExecutedAt, want)
	}
	if !a.QuoteTS.Equal(time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)) || !a.CreatedAt.Equal(time.Date(2026, 10, 1, 9, 0, 5, 0, time.UTC)) {
		t.Errorf("quote_ts, created_at = %v, %v", a.QuoteTS, a.CreatedAt)
	}
	if a.PaymentState != "COMPLETED" || a.PaymentMethod != "SWIFT" || a.SourceExchange != "Bitstamp" || a.DestinationExchange != "" {
		t.Errorf("state/method/exchanges = %q %q %q %q", a.PaymentState, a.PaymentMethod, a.SourceExchange, a.DestinationExchange)
	}
	if a.RemitterName != "Ana Ruiz" || a.BeneficiaryAccount != "012180001234567897" {
		t.Errorf("remitter/beneficiary = %q %q", a.RemitterName, a.BeneficiaryAccount)
	}
	if b.ExecutedAt != nil || b.WithdrawalResultAmount != nil || b.FXSpotRate != nil {
		t.Errorf("receiver-side row has sender-only values: %v %v %v", b.ExecutedAt, b.WithdrawalResultAmount, b.FXSpotRate)
	}
	eqAmount(t, "row 2 sent_amount", b.SentAmount, "250")
	if b.DestinationExchange != "Coins.ph" || b.PaymentState != "FAILED" || b.RemitterName != "" {
		t.Errorf("row 2 = %+v", b)
	}
}

func TestParsePaymentOpsCSV(t *testing.T) {
	rows, err := ParsePaymentOpsCSV(readTestdata(t, "payment_ops.csv"))
	if err != nil {
		t.Fatal(err)
	}
	checkPaymentOps(t, rows)
}

func TestParsePaymentOpsJSON(t *testing.T) {
	rows, err := ParsePaymentOpsJSON(readTestdata(t, "payment_ops.json"))
	if err != nil {
		t.Fatal(err)
	}
	checkPaymentOps(t, rows)
}

func TestParsePaymentOpsCSVColumnOrderFree(t *testing.T) {
	// Swap the first two columns in the header and in every row.
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(readTestdata(t, "payment_ops.csv"))), "\n") {
		f := strings.SplitN(l, ",", 3)
		out = append(out, f[1]+","+f[0]+","+f[2])
	}
	rows, err := ParsePaymentOpsCSV([]byte(strings.Join(out, "\r\n")))
	if err != nil {
		t.Fatal(err)
	}
	checkPaymentOps(t, rows)
}

func TestParseReconCSVAndGroup(t *testing.T) {
	rows, err := ParseReconCSV(readTestdata(t, "recon.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("got %d lines, want 4", len(rows))
	}
	if r := rows[1]; r.TransactionType != TxnWithdrawal || r.WithdrawalResultDetailsTransactionID != "ABCDEF0123456789" || r.SourceResultAmount != nil {
		t.Errorf("line 2 = %+v", r)
	}
	pays := GroupRecon(rows)
	if len(pays) != 2 {
		t.Fatalf("got %d payments, want 2", len(pays))
	}
	p1, p2 := pays[0], pays[1]
	if p1.NetworkPaymentID != "pay-1" || len(p1.Lines) != 3 || p1.Lines[2].TransactionID != "txn-4" {
		t.Fatalf("payment 1 = %s with %d lines", p1.NetworkPaymentID, len(p1.Lines))
	}
	tt := p1.Totals
	if tt.Transactions != 3 || tt.Complete != 3 || !tt.AllComplete() {
		t.Errorf("counts = %d/%d", tt.Complete, tt.Transactions)
	}
	for _, c := range []struct {
		what string
		got  money.Number
		want string
	}{
		{"withdrawal fees", money.N(tt.WithdrawalFees), "0.25"},
		{"fees", money.N(tt.Fees()), "0.25"},
		{"incentives", money.N(tt.Incentives), "0.05"},
		{"withdrawal amount", money.N(tt.WithdrawalAmount), "1699.5"},
		{"USD balance change", money.N(tt.BalanceChange["USD"]), "-999.60"},
		{"XRP balance change", money.N(tt.BalanceChange["XRP"]), "-1699.5"},
		{"source adjusted", money.N(tt.SourceAdjustedAmount), "999.10"},
	} {
		eqAmount(t, c.what, c.got, c.want)
	}
	if strings.Join(tt.BalanceChangeCurrency, ",") != "USD,XRP" {
		t.Errorf("currencies = %v", tt.BalanceChangeCurrency)
	}
	if len(p1.Mismatch) != 0 {
		t.Errorf("mismatch = %v", p1.Mismatch)
	}
	if p2.Totals.AllComplete() || p2.Totals.Complete != 0 {
		t.Errorf("payment 2 complete = %d", p2.Totals.Complete)
	}
	eqAmount(t, "p2 fees", money.N(p2.Totals.Fees()), "0.1")
	eqAmount(t, "p2 proceeds", money.N(p2.Totals.DestinationProceeds), "15300.0")
	eqAmount(t, "p2 incentives", money.N(p2.Totals.Incentives), "0.02")
}

func TestGroupReconMismatch(t *testing.T) {
	rows, err := ParseReconCSV(readTestdata(t, "recon.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows[3].PaymentState = "RETURNED"
	rows[3].SentAmount = money.N(money.MustParse("1"))
	p := GroupRecon(rows)[0]
	if strings.Join(p.Mismatch, ",") != "payment_state,sent_amount" {
		t.Errorf("mismatch = %v", p.Mismatch)
	}
}

func TestParseReconJSONRoundTrip(t *testing.T) {
	// CSV -> rows -> JSON (encoding/json of the records) -> rows -> CSV
	// must give the same CSV.
	rows, err := ParseReconCSV(readTestdata(t, "recon.csv"))
	if err != nil {
		t.Fatal(err)
	}
	js := mustJSON(t, rows)
	back, err := ParseReconJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := WriteReconCSV(&a, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteReconCSV(&b, back); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("JSON round trip changed rows:\n%s\nvs\n%s", a.String(), b.String())
	}
}

func TestParseRowsDispatch(t *testing.T) {
	r, err := ParseRows(TypePaymentOps, FormatJSON, readTestdata(t, "payment_ops.json"))
	if err != nil || r.Len() != 2 || r.Type != TypePaymentOps || len(r.Skipped) != 0 {
		t.Fatalf("ParseRows = %+v, %v", r, err)
	}
	r, err = ParseRows(TypeRecon, FormatCSV, readTestdata(t, "recon.csv"))
	if err != nil || len(r.Recon) != 4 {
		t.Fatalf("ParseRows recon = %+v, %v", r, err)
	}
	for _, empty := range []string{"", " \n", "\ufeff"} {
		for _, f := range []string{FormatCSV, FormatJSON} {
			r, err := ParseRows(TypeRecon, f, []byte(empty))
			if err != nil || r.Len() != 0 {
				t.Errorf("empty %q %s = %+v, %v", empty, f, r, err)
			}
		}
	}
	if _, err := ParseRows("OTHER", FormatCSV, nil); err == nil {
		t.Error("unknown type parsed")
	}
	hdr := strings.Join(PaymentOpsColumns(), ",") + "\n"
	if r, err := ParseRows(TypePaymentOps, FormatCSV, []byte(hdr)); err != nil || r.Len() != 0 {
		t.Errorf("header only = %+v, %v", r, err)
	}
	// A PAYMENT_OPS report has no transaction_id: read as RECON, no line
	// could say which transaction it is.
	_, err = ParseRows(TypeRecon, FormatCSV, []byte(hdr))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 1 || pe.Column != "transaction_id" || !errors.Is(err, ErrMissingColumn) {
		t.Errorf("PAYMENT_OPS header read as RECON: %v", err)
	}
}

// opsFixture is testdata/payment_ops.csv cut up: the header, its first
// row, and the content of both rows.
func opsFixture(t *testing.T) (header, row1, csv string) {
	csv = string(readTestdata(t, "payment_ops.csv"))
	header, body, _ := strings.Cut(csv, "\n")
	row1, _, _ = strings.Cut(body, "\n")
	return header, row1, csv
}

// TestParseUnreadable: content that cannot be read at all is an error at
// a line (and column), with no rows.
func TestParseUnreadable(t *testing.T) {
	header, row1, _ := opsFixture(t)
	js := string(readTestdata(t, "payment_ops.json"))
	cases := []struct {
		name    string
		json    bool
		in      string
		line    int
		column  string
		wrapped error
		text    string
	}{
		{name: "no payment id column", in: strings.Replace(header, "network_payment_id", "payment_id", 1) + "\n" + row1,
			line: 1, column: "network_payment_id", wrapped: ErrMissingColumn},
		{name: "html", in: "<html><body>Service unavailable</body></html>\n", line: 1, column: "network_payment_id", wrapped: ErrMissingColumn},
		{name: "header quote", in: `a,"b` + "\n", line: 1, text: "quote"},
		{name: "json object", json: true, in: `{"reports": []}`, line: 1, text: "array of row objects"},
		{name: "json trailing", json: true, in: "[] []", line: 1, text: "after the array"},
		{name: "json unterminated", json: true, in: "[", line: 1, text: "unterminated"},
		{name: "json cut short", json: true, in: js[:strings.Index(js, `"sent_amount": 250`)], line: 27, text: "not well-formed JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			var n int
			if c.json {
				var rows []PaymentOpsRow
				rows, err = ParsePaymentOpsJSON([]byte(c.in))
				n = len(rows)
			} else {
				var rows []PaymentOpsRow
				rows, err = ParsePaymentOpsCSV([]byte(c.in))
				n = len(rows)
			}
			var pe *ParseError
			var sk *SkippedRows
			if !errors.As(err, &pe) || errors.As(err, &sk) || n != 0 {
				t.Fatalf("err = %v with %d rows, want a *ParseError of the whole content", err, n)
			}
			if pe.Line != c.line || pe.Column != c.column {
				t.Errorf("at line %d column %q, want line %d column %q (%v)", pe.Line, pe.Column, c.line, c.column, err)
			}
			if c.wrapped != nil && !errors.Is(err, c.wrapped) {
				t.Errorf("err = %v, want it to wrap %v", err, c.wrapped)
			}
			if !strings.Contains(err.Error(), c.text) || (c.column != "" && !strings.Contains(err.Error(), c.column)) {
				t.Errorf("message %q does not say %q and name the column", err, c.text)
			}
		})
	}
}

// TestParseSkipsBadRowsAlone: a row that cannot be read is skipped with
// its line, column and reason; the other rows are read.
func TestParseSkipsBadRowsAlone(t *testing.T) {
	header, row1, _ := opsFixture(t)
	js := string(readTestdata(t, "payment_ops.json"))
	cases := []struct {
		name    string
		json    bool
		in      string
		read    int // rows read
		line    int // of the (first) skipped row
		column  string
		wrapped error
		text    string
	}{
		{name: "bad amount", in: header + "\n" + row1 + "\n" + strings.Replace(row1, "1000.10", `"1,000.10"`, 1),
			read: 1, line: 3, column: "sent_amount", text: "not a decimal"},
		{name: "word amount", in: header + "\n" + strings.Replace(row1, "1000.10", "abc", 1) + "\n" + row1,
			read: 1, line: 2, column: "sent_amount", text: `"abc" is not a decimal`},
		{name: "float amount text", in: header + "\n" + strings.Replace(row1, "1000.10", "1e3x", 1), line: 2, column: "sent_amount", text: "not a decimal"},
		{name: "bad date", in: header + "\n" + strings.Replace(row1, "2026-10-01T09:00:00Z", "01/10/2026", 1) + "\n" + row1,
			read: 1, line: 2, column: "quote_ts", text: "ISO 8601"},
		{name: "short row", in: header + "\n" + row1 + "\na,b,c\n" + row1, read: 2, line: 3, text: "wrong number of fields: 3 where the header has 23"},
		{name: "bare quote", in: header + "\n" + strings.Replace(row1, "Sender Bank", `Sen"der`, 1) + "\n" + row1, read: 1, line: 2, text: "quote"},
		{name: "quote runs on", in: header + "\n" + row1 + "\n" + strings.Replace(row1, ",012180001234567897", `,"0121`, 1) + "\n" + row1 + "\n" + row1,
			read: 2, line: 3, text: "runs to line 4"},
		{name: "empty payment id", in: header + "\n" + strings.Replace(row1, "6f1c2d9e-8f0a-4a55-9a51-1b2c3d4e5f60", " ", 1) + "\n" + row1,
			read: 1, line: 2, column: "network_payment_id", wrapped: ErrRequired},
		{name: "duplicate column disagrees", in: strings.Replace(header, "remitter_name", "sent_amount", 1) + "\n" + row1 + "\n" +
			strings.Replace(row1, "Ana Ruiz", "1000.10", 1), read: 1, line: 2, column: "sent_amount", wrapped: ErrDuplicateColumn},
		{name: "json missing payment id", json: true, in: strings.Replace(js, `"network_payment_id": "7a2b3c4d-0000-4a55-9a51-1b2c3d4e5f61",`, "", 1),
			read: 1, line: 27, column: "network_payment_id", wrapped: ErrRequired},
		{name: "json null payment id", json: true, in: strings.Replace(js, `"7a2b3c4d-0000-4a55-9a51-1b2c3d4e5f61"`, "null", 1),
			read: 1, line: 27, column: "network_payment_id", wrapped: ErrRequired},
		{name: "json bool amount", json: true, in: strings.Replace(js, `"sent_amount": 250`, `"sent_amount": true`, 1),
			read: 1, line: 27, column: "sent_amount", text: "expected a string, number or null"},
		{name: "json comma amount", json: true, in: strings.Replace(js, `"sent_amount": 250`, `"sent_amount": "1,000.10"`, 1),
			read: 1, line: 27, column: "sent_amount", text: "not a decimal"},
		{name: "json numeric date", json: true, in: strings.Replace(js, `"quote_ts": "2026-10-02T10:00:00Z"`, `"quote_ts": 1759399200`, 1),
			read: 1, line: 27, column: "quote_ts", text: "date-time"},
		{name: "json duplicate key disagrees", json: true, in: strings.Replace(js, `"sent_amount": 250`, `"sent_amount": 250, "SENT_AMOUNT": 251`, 1),
			read: 1, line: 27, column: "sent_amount", wrapped: ErrDuplicateColumn},
		{name: "json row not object", json: true, in: "[\n1,\n" + mustRow(t, js, 1) + "]", read: 1, line: 2, text: "not a JSON object: 1"},
		{name: "json null row", json: true, in: "[\nnull\n]", line: 2, text: "not a JSON object: null"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			format := FormatCSV
			if c.json {
				format = FormatJSON
			}
			r, err := ParseRows(TypePaymentOps, format, []byte(c.in))
			if err != nil {
				t.Fatalf("one bad row failed the report: %v", err)
			}
			if r.Len() != c.read || len(r.Skipped) != 1 {
				t.Fatalf("%d rows read, %d skipped (%v), want %d read and 1 skipped", r.Len(), len(r.Skipped), r.Skipped, c.read)
			}
			pe := r.Skipped[0]
			if pe.Line != c.line || pe.Column != c.column {
				t.Errorf("skipped at line %d column %q, want line %d column %q (%v)", pe.Line, pe.Column, c.line, c.column, pe)
			}
			if c.wrapped != nil && !errors.Is(pe, c.wrapped) {
				t.Errorf("reason %v, want it to wrap %v", pe, c.wrapped)
			}
			if !strings.Contains(pe.Error(), c.text) || (c.column != "" && !strings.Contains(pe.Error(), c.column)) {
				t.Errorf("reason %q does not say %q and name the column", pe, c.text)
			}
			// The per-type parsers return the same rows, and the skips as
			// a *SkippedRows error.
			var rows []PaymentOpsRow
			if c.json {
				rows, err = ParsePaymentOpsJSON([]byte(c.in))
			} else {
				rows, err = ParsePaymentOpsCSV([]byte(c.in))
			}
			var sk *SkippedRows
			var first *ParseError
			if !errors.As(err, &sk) || len(sk.Rows) != 1 || !errors.As(err, &first) || first != sk.Rows[0] || len(rows) != c.read {
				t.Errorf("per-type parser: %d rows, err %v", len(rows), err)
			}
		})
	}
}

// mustRow is the i-th row object (from 0) of a JSON report.
func mustRow(t *testing.T, js string, i int) string {
	t.Helper()
	var rows []json.RawMessage
	if err := json.Unmarshal([]byte(js), &rows); err != nil || i >= len(rows) {
		t.Fatalf("row %d of %d: %v", i, len(rows), err)
	}
	return string(rows[i])
}
