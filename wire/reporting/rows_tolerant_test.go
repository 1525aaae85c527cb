package reporting

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"treasury/wire/money"
)

// editCSV reads CSV text, lets edit change the records (header first) and
// writes them back.
func editCSV(t *testing.T, in []byte, edit func(recs [][]string) [][]string) []byte {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(in)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(edit(recs)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// colAt is the position of name in a header.
func colAt(t *testing.T, header []string, name string) int {
	t.Helper()
	i := slices.Index(header, name)
	if i < 0 {
		t.Fatalf("no column %s in %v", name, header)
	}
	return i
}

// TestParseCSVTolerant reads a PAYMENT_OPS report as another legal server
// may write it: extra columns first and in the middle, header names in
// other letter case or with spaces, a column left out, one repeated with
// the same values, and the FAILED payment's received_amount empty.
func TestParseCSVTolerant(t *testing.T) {
	in := editCSV(t, readTestdata(t, "payment_ops.csv"), func(recs [][]string) [][]string {
		h := recs[0]
		mid := colAt(t, h, "sent_currency") + 1
		drop := colAt(t, h, "beneficiary_account")
		recv := colAt(t, h, "received_amount")
		recs[2][recv] = ""
		extra := [][]string{{"row_no", "1", "2"}, {"fee_tier", "gold", ""}}
		for i, r := range recs {
			r = append(r, r[colAt(t, h, "payment_state")]) // the state again, same values
			r = slices.Delete(r, drop, drop+1)
			r = slices.Insert(r, mid, extra[1][i])
			recs[i] = slices.Insert(r, 0, extra[0][i])
		}
		recs[0][colAt(t, recs[0], "sent_amount")] = "Sent_Amount"
		recs[0][colAt(t, recs[0], "payment_method")] = " payment_method "
		return recs
	})
	rows, err := ParsePaymentOpsCSV(in)
	if err != nil {
		t.Fatalf("%v\n%s", err, in)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	a, b := rows[0], rows[1]
	if want := []Field{{"row_no", "1"}, {"fee_tier", "gold"}}; !reflect.DeepEqual(a.Extra, want) {
		t.Errorf("row 1 extra %v, want %v", a.Extra, want)
	}
	if want := []Field{{"row_no", "2"}, {"fee_tier", ""}}; !reflect.DeepEqual(b.Extra, want) {
		t.Errorf("row 2 extra %v, want %v", b.Extra, want)
	}
	eqAmount(t, "Sent_Amount", a.SentAmount, "1000.10")
	if a.PaymentMethod != "SWIFT" || a.PaymentState != "COMPLETED" || b.PaymentState != "FAILED" {
		t.Errorf("method %q, states %q %q", a.PaymentMethod, a.PaymentState, b.PaymentState)
	}
	if a.BeneficiaryAccount != "" || a.Has("beneficiary_account") || !a.Has("beneficiary_name") {
		t.Errorf("a column the header lacks reads %q (has %v)", a.BeneficiaryAccount, a.Has("beneficiary_account"))
	}
	if !b.ReceivedAmountAbsent || b.Received() != nil || b.Has("received_amount") || b.Sent() == nil || a.Received() == nil {
		t.Errorf("FAILED row: received absent %v (%v), sent %v", b.ReceivedAmountAbsent, b.Received(), b.Sent())
	}
	eqOptAmount(t, "row 1 received", a.Received(), "17010.55")

	// Written back, nothing is lost: the extras follow the spec's columns.
	var out bytes.Buffer
	if err := WritePaymentOpsCSV(&out, rows); err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(out.String(), "\n")
	if want := strings.Join(append(PaymentOpsColumns(), "row_no", "fee_tier"), ","); header != want {
		t.Errorf("written header\n%s\nwant\n%s", header, want)
	}
	back, err := ParsePaymentOpsCSV(out.Bytes())
	if err != nil || canonicalOps(t, back) != out.String() || !reflect.DeepEqual(back[1].Extra, b.Extra) || !back[1].ReceivedAmountAbsent {
		t.Errorf("written and read again: %v\n%s\nwant\n%s", err, canonicalOps(t, back), out.String())
	}
}

// TestParseJSONTolerant reads rows whose keys the spec does not name, in
// the middle and of any JSON type; amounts as numbers or strings; null and
// "" as absent values.
func TestParseJSONTolerant(t *testing.T) {
	in := `[
{"network_payment_id": "p1", "batch": {"id": 7, "tags": ["a"]}, "sent_amount": "12.50", "flag": true,
 "received_amount": null, "quote_ts": "", "created_at": "2026-10-01 09:00:00", "n": 1.50, "none": null},
{"network_payment_id": "p2", "sent_amount": 0.1, "received_amount": "", "executed_at": null, "fx_spot_rate": "17.0125",
 "created_at": "2026-10-01T09:00:00.000+0000"}
]`
	rows, err := ParsePaymentOpsJSON([]byte(in))
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	a, b := rows[0], rows[1]
	want := []Field{{"batch", `{"id":7,"tags":["a"]}`}, {"flag", "true"}, {"n", "1.50"}, {"none", ""}}
	if !reflect.DeepEqual(a.Extra, want) {
		t.Errorf("extra %v, want %v", a.Extra, want)
	}
	eqOptAmount(t, "p1 sent", a.Sent(), "12.50")
	eqOptAmount(t, "p2 sent", b.Sent(), "0.1")
	if a.Received() != nil || b.Received() != nil || !a.QuoteTS.IsZero() || a.Has("quote_ts") || a.CreatedAt.IsZero() {
		t.Errorf("absent values read: received %v %v, quote_ts %v, created_at %v", a.Received(), b.Received(), a.QuoteTS, a.CreatedAt)
	}
	if !a.CreatedAt.Equal(b.CreatedAt) {
		t.Errorf("created_at %v and %v: the same time in two ISO 8601 forms", a.CreatedAt, b.CreatedAt)
	}
	eqOptAmount(t, "fx", b.FXSpotRate, "17.0125")

	// encoding/json of a row writes absent values as null and the extras
	// as strings, and reads it back to the same row.
	js, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"received_amount":null`, `"quote_ts":null`, `"sent_amount":12.5`, `"batch":"{\"id\":7,\"tags\":[\"a\"]}"`} {
		if !strings.Contains(string(js), s) {
			t.Errorf("JSON lacks %s:\n%s", s, js)
		}
	}
	var back []PaymentOpsRow
	if err := json.Unmarshal(js, &back); err != nil || canonicalOps(t, back) != canonicalOps(t, rows) || !reflect.DeepEqual(back[0].Extra, a.Extra) {
		t.Errorf("JSON round trip: %v\n%s\nwant\n%s", err, canonicalOps(t, back), canonicalOps(t, rows))
	}
	if err := json.Unmarshal([]byte(`{"sent_amount": 1}`), &back[0]); err == nil || !strings.Contains(err.Error(), "network_payment_id") {
		t.Errorf("a row without network_payment_id decoded: %v", err)
	}
}

// canonicalOps is rows written as CSV.
func canonicalOps(t *testing.T, rows []PaymentOpsRow) string {
	t.Helper()
	var b bytes.Buffer
	if err := WritePaymentOpsCSV(&b, rows); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestAbsentColumns: an amount whose column the CSV header lacks, or whose
// key a JSON row lacks, is absent, not 0.
func TestAbsentColumns(t *testing.T) {
	in := editCSV(t, readTestdata(t, "payment_ops.csv"), func(recs [][]string) [][]string {
		i := colAt(t, recs[0], "received_amount")
		for j := range recs {
			recs[j] = slices.Delete(recs[j], i, i+1)
		}
		return recs
	})
	rows, err := ParsePaymentOpsCSV(in)
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		if r.Received() != nil || r.Has("received_amount") || r.Sent() == nil {
			t.Errorf("%s: received %v, sent %v: want received absent", r.NetworkPaymentID, r.Received(), r.Sent())
		}
	}
	js, err := ParseReconJSON([]byte(`[{"network_payment_id": "p", "transaction_id": "t", "received_amount": 5}]`))
	if err != nil || len(js) != 1 {
		t.Fatalf("%d lines, %v", len(js), err)
	}
	if js[0].Sent() != nil || js[0].Has("sent_amount") || js[0].Received() == nil {
		t.Errorf("line without sent_amount: sent %v, received %v", js[0].Sent(), js[0].Received())
	}
}

// TestRowJSONUnchanged: a row with every value and no extras encodes as
// encoding/json encodes the struct (the sandbox serves its JSON reports
// so), escaping included, and the writer of rows with absent values or
// extras writes the same for it.
func TestRowJSONUnchanged(t *testing.T) {
	rows, err := ParseReconCSV(readTestdata(t, "recon.csv"))
	if err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	r.SenderCustomer = "A&B <Bank> \"x\" \u2028 \x01 é \xff"
	type plain ReconRow
	want, err := json.Marshal(plain(r))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(r)
	if err != nil || string(got) != string(want) {
		t.Errorf("row JSON\n%s\nwant\n%s", got, want)
	}
	if got, _ := marshalRow(&r, reconSchema()); string(got) != string(want) {
		t.Errorf("marshalRow\n%s\nwant\n%s", got, want)
	}
}

// TestGroupReconAbsentAmounts: a line without the payment's amounts
// neither sets nor contradicts them, and adds nothing to the totals.
func TestGroupReconAbsentAmounts(t *testing.T) {
	in := editCSV(t, readTestdata(t, "recon.csv"), func(recs [][]string) [][]string {
		h := recs[0]
		for _, c := range []string{"sent_amount", "received_amount", "withdrawal_result_fee_amount"} {
			recs[1][colAt(t, h, c)] = "" // pay-1's first line
		}
		recs[3][colAt(t, h, "received_amount")] = "" // pay-2's only line
		recs[2][colAt(t, h, "payment_state")] = ""
		return recs
	})
	rows, err := ParseReconCSV(in)
	if err != nil {
		t.Fatal(err)
	}
	pays := GroupRecon(rows)
	p1, p2 := pays[0], pays[1]
	if len(p1.Mismatch) != 0 || len(p2.Mismatch) != 0 {
		t.Errorf("absent values read as disagreement: %v %v", p1.Mismatch, p2.Mismatch)
	}
	eqOptAmount(t, "pay-1 sent (from its second line)", p1.SentAmount, "1000.10")
	eqOptAmount(t, "pay-1 received", p1.ReceivedAmount, "17010.55")
	eqOptAmount(t, "pay-2 received", p2.ReceivedAmount, "")
	if p1.PaymentState != "COMPLETED" {
		t.Errorf("pay-1 state %q", p1.PaymentState)
	}
	eqAmount(t, "pay-1 withdrawal fees", money.N(p1.Totals.WithdrawalFees), "0.25")
	rows[3].SentAmount = money.N(money.MustParse("999")) // pay-1's third line
	if p := GroupRecon(rows)[0]; !slices.Equal(p.Mismatch, []string{"sent_amount"}) {
		t.Errorf("a present amount that differs: mismatch %v", p.Mismatch)
	}
}

// TestFormerFailures: each content that failed the whole report before the
// tolerant reader is now read, and says what it holds.
func TestFormerFailures(t *testing.T) {
	header, row1, ops := opsFixture(t)
	js := string(readTestdata(t, "payment_ops.json"))
	cases := []struct {
		name  string
		json  bool
		in    string
		check func(t *testing.T, rows []PaymentOpsRow)
	}{
		{name: "unknown column", in: strings.Replace(ops, "payment_method", "payment_mode", 1), check: func(t *testing.T, rows []PaymentOpsRow) {
			if r := rows[0]; r.PaymentMethod != "" || r.Has("payment_method") || !slices.Equal(r.Extra, []Field{{"payment_mode", "SWIFT"}}) {
				t.Errorf("method %q, extra %v: want payment_mode kept as an extra column", r.PaymentMethod, r.Extra)
			}
		}},
		{name: "wrong case", in: strings.Replace(ops, "sent_amount", "Sent_Amount", 1), check: func(t *testing.T, rows []PaymentOpsRow) {
			eqOptAmount(t, "Sent_Amount", rows[0].Sent(), "1000.10")
		}},
		{name: "missing column", in: strings.Replace(header, ",beneficiary_account", "", 1) + "\n" + strings.TrimSuffix(row1, ",012180001234567897"),
			check: func(t *testing.T, rows []PaymentOpsRow) {
				if r := rows[0]; r.BeneficiaryAccount != "" || r.BeneficiaryName != "Juan Perez" || len(r.Extra) != 0 {
					t.Errorf("row %+v: want beneficiary_account absent", r)
				}
			}},
		{name: "empty required amount", in: header + "\n" + strings.Replace(row1, "Receiver Bank,17010.55", "Receiver Bank,", 1),
			check: func(t *testing.T, rows []PaymentOpsRow) {
				if r := rows[0]; r.Received() != nil || !r.ReceivedAmountAbsent || r.ReceivedCurrency != "MXN" {
					t.Errorf("received %v %q: want absent", r.Received(), r.ReceivedCurrency)
				}
			}},
		{name: "json unknown key", json: true, in: strings.Replace(js, `"payment_method"`, `"paymentMethod"`, 1),
			check: func(t *testing.T, rows []PaymentOpsRow) {
				if r := rows[0]; r.PaymentMethod != "" || !slices.Equal(r.Extra, []Field{{"paymentMethod", "SWIFT"}}) {
					t.Errorf("method %q, extra %v", r.PaymentMethod, r.Extra)
				}
			}},
		{name: "json missing payment_state", json: true, in: strings.Replace(js, `"payment_state": "FAILED"`, `"payment_method": "x"`, 1),
			check: func(t *testing.T, rows []PaymentOpsRow) {
				if r := rows[1]; r.PaymentState != "" || r.PaymentMethod != "x" || len(rows) != 2 {
					t.Errorf("row 2 state %q method %q", r.PaymentState, r.PaymentMethod)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			format := FormatCSV
			if c.json {
				format = FormatJSON
			}
			r, err := ParseRows(TypePaymentOps, format, []byte(c.in))
			if err != nil || r.Len() == 0 || len(r.Skipped) != 0 {
				t.Fatalf("rows %+v, %v", r, err)
			}
			c.check(t, r.PaymentOps)
		})
	}
}
