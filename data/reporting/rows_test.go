package reporting

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"treasury/data/money"
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
	if err != nil || r.Len() != 2 || r.Type != TypePaymentOps {
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
	if _, err := ParseRows(TypeRecon, FormatCSV, []byte(hdr)); err == nil || !strings.Contains(err.Error(), "created_at") {
		t.Errorf("PAYMENT_OPS header read as RECON: %v", err)
	}
}

func TestParseMalformed(t *testing.T) {
	ops := string(readTestdata(t, "payment_ops.csv"))
	header, body, _ := strings.Cut(ops, "\n")
	row2 := strings.Split(body, "\n")[0]
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
		{name: "unknown column", in: strings.Replace(header, "payment_method", "payment_mode", 1) + "\n", line: 1, column: "payment_mode", wrapped: ErrUnknownColumn},
		{name: "wrong case", in: strings.Replace(header, "sent_amount", "Sent_Amount", 1) + "\n", line: 1, column: "Sent_Amount", wrapped: ErrUnknownColumn},
		{name: "missing column", in: strings.Replace(header, ",beneficiary_account", "", 1) + "\n", line: 1, column: "beneficiary_account", wrapped: ErrMissingColumn},
		{name: "duplicate column", in: strings.Replace(header, "remitter_name", "sent_amount", 1) + "\n", line: 1, column: "sent_amount", wrapped: ErrDuplicateColumn},
		{name: "bad amount", in: header + "\n" + row2 + "\n" + strings.Replace(row2, "1000.10", `"1,000.10"`, 1), line: 3, column: "sent_amount", text: "not a decimal"},
		{name: "float amount text", in: header + "\n" + strings.Replace(row2, "1000.10", "1e3x", 1), line: 2, column: "sent_amount", text: "not a decimal"},
		{name: "empty required amount", in: header + "\n" + strings.Replace(row2, "Receiver Bank,17010.55", "Receiver Bank,", 1), line: 2, column: "received_amount", text: "required"},
		{name: "bad date", in: header + "\n" + strings.Replace(row2, "2026-10-01T09:00:00Z", "01/10/2026", 1), line: 2, column: "quote_ts", text: "ISO 8601"},
		{name: "short row", in: header + "\n" + row2 + "\na,b,c\n", line: 3, text: "wrong number of fields"},
		{name: "bare quote", in: header + "\n" + strings.Replace(row2, "Sender Bank", `Sen"der`, 1), line: 2, text: "quote"},
		{name: "json unknown key", json: true, in: strings.Replace(js, `"payment_method"`, `"paymentMethod"`, 1), line: 2, column: "paymentMethod", wrapped: ErrUnknownColumn},
		{name: "json missing required", json: true, in: strings.Replace(js, `"payment_state": "FAILED"`, `"payment_method": "x"`, 1), line: 27, column: "payment_state", wrapped: ErrMissingColumn},
		{name: "json bool amount", json: true, in: strings.Replace(js, `"sent_amount": 250`, `"sent_amount": true`, 1), line: 27, column: "sent_amount", text: "expected a string, number or null"},
		{name: "json numeric date", json: true, in: strings.Replace(js, `"quote_ts": "2026-10-02T10:00:00Z"`, `"quote_ts": 1759399200`, 1), line: 27, column: "quote_ts", text: "date-time"},
		{name: "json object", json: true, in: `{"reports": []}`, line: 1, text: "array of row objects"},
		{name: "json row not object", json: true, in: "[\n1]", line: 2, text: "not a JSON object"},
		{name: "json null row", json: true, in: "[\nnull\n]", line: 2, text: "null"},
		{name: "json trailing", json: true, in: "[] []", line: 1, text: "after the array"},
		{name: "json unterminated", json: true, in: "[", line: 1, text: "unterminated"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.json {
				_, err = ParsePaymentOpsJSON([]byte(c.in))
			} else {
				_, err = ParsePaymentOpsCSV([]byte(c.in))
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
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
