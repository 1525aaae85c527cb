package reporting

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"treasury/wire"
	"treasury/wire/wiretest"
)

// FuzzReportList decodes any body as the report list (first byte even)
// or one report record (odd): no panic; each report read is stable and
// reads the same from the JSON it kept; skips are in order, inside the
// list, and say why.
func FuzzReportList(f *testing.F) {
	rec := `{"id":"3f0c9a52-5f2e-4c1a-9a43-0d2b7e6c1f10","type":"RECON","format":"CSV","status":"READY","start_date":"2026-10-01T00:00:00Z","end_date":"2026-10-31T23:59:59Z"}`
	for _, s := range []string{
		"\x00" + `{"reports":[` + rec + `,{"id":"b","type":"PAYMENT_OPS","format":"JSON","status":"GENERATING","start_date":"2026-10-01","end_date":"2026-10-31T23:59:59.999+0000","region":{"eu":true}},{"id":"c","start_date":"last month"},"d",{"type":7},null]}`,
		"\x00" + `{"reports":null}`, "\x00" + `{"reports":{}}`, "\x00" + `{"items":[]}`, "\x00" + `[]`,
		"\x01" + `{"id":"a","type":"RECON","format":"JSON","status":"READY","download_link":" https://reports.example/files/a.json ","start_date":null,"end_date":""}`,
		"\x01" + `{"id":"  "}`, "\x01" + `{"id":"x","start_date":"2026-02-30"}`,
	} {
		f.Add([]byte(s))
	}
	for i, b := range wiretest.Seeds("reports") {
		f.Add(append([]byte{byte(i * 2)}, b...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		body := data[1:]
		if data[0]%2 == 1 {
			if r, err := wire.Decode[Report](body); err == nil {
				wiretest.Stable(t, r)
			}
			return
		}
		var l ReportList
		if json.Unmarshal(body, &l) != nil {
			return
		}
		for _, r := range l.Reports {
			wiretest.Stable(t, r)
		}
		last := -1
		for _, s := range l.Skipped {
			if s.Index <= last || s.Reason == "" || s.String() == "" {
				t.Fatalf("skip %+v after index %d", s, last)
			}
			last = s.Index
		}
	})
}

// fuzzJSONRows checks, for any input: the parser does not panic; a
// failure of the whole content, and each row skipped, is a *ParseError
// with a line inside the input; the rows read, written as JSON and read
// back, are the same rows with nothing skipped, and write the same JSON.
func fuzzJSONRows[R any](t *testing.T, data []byte, parse func([]byte) ([]R, error)) {
	lines := 1 + bytes.Count(data, []byte("\n"))
	inside := func(pe *ParseError) {
		if pe.Line < 1 || pe.Line > lines {
			t.Fatalf("error at line %d of a %d-line input: %v", pe.Line, lines, pe)
		}
	}
	rows, err := parse(data)
	var sk *SkippedRows
	switch {
	case errors.As(err, &sk):
		for _, pe := range sk.Rows {
			inside(pe)
		}
	case err != nil:
		var pe *ParseError
		if !errors.As(err, &pe) || rows != nil {
			t.Fatalf("error %v (with %d rows) is not a *ParseError", err, len(rows))
		}
		inside(pe)
		return
	}
	a := mustJSON(t, rows)
	back, err := parse(a)
	if err != nil || len(back) != len(rows) {
		t.Fatalf("rows written as %s read back as %d rows: %v", a, len(back), err)
	}
	if b := mustJSON(t, back); !bytes.Equal(a, b) {
		t.Fatalf("not a fixed point:\n%s\nvs\n%s", a, b)
	}
}

func seedJSONRows(f *testing.F, file string) {
	b, err := os.ReadFile("testdata/" + file)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	for _, s := range []string{`[]`, `null`, ``, "\ufeff[{}]", `[{"network_payment_id":"n1","NETWORK_PAYMENT_ID":"n2"}]`,
		`[{"network_payment_id":"n1","transaction_id":"t1","sent_amount":"1e3","extra":{"a":[1]}}]`, `[1,"x",null]`, `[{"network_payment_id":"n1"}] []`, "[\n{\n\"a\":\n"} {
		f.Add([]byte(s))
	}
	for _, b := range wiretest.Seeds("") {
		f.Add(b)
	}
}

func FuzzParsePaymentOpsJSON(f *testing.F) {
	seedJSONRows(f, "payment_ops.json")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzJSONRows(t, data, ParsePaymentOpsJSON) })
}

func FuzzParseReconJSON(f *testing.F) {
	b, err := os.ReadFile("testdata/recon.csv")
	if err != nil {
		f.Fatal(err)
	}
	rows, err := ParseReconCSV(b)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(mustJSON(f, rows))
	seedJSONRows(f, "payment_ops.json")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzJSONRows(t, data, ParseReconJSON) })
}

// TestReportsAllocationBounded: a megabyte of adversarial report list,
// or of report rows in either format, costs a bounded multiple of its
// size.
func TestReportsAllocationBounded(t *testing.T) {
	wiretest.Bounded(t, "reports", func(b []byte) { var l ReportList; _ = json.Unmarshal(b, &l) })
	for _, typ := range []string{TypePaymentOps, TypeRecon} {
		t.Run(typ, func(t *testing.T) {
			wiretest.Bounded(t, "", func(b []byte) { _, _ = ParseRows(typ, FormatJSON, b) })
		})
	}
}

// TestRowsAllocationBounded: report rows in either format cost at most
// MaxRatio times their size plus the rows they hold (a row is hundreds of
// bytes however short its text, so a CSV of "a,b" lines is bounded by
// MaxRows, not by its size); rows skipped cost no row. A quarter of a
// megabyte is past every bound but MaxRows (TestMaxRows), at a quarter of
// the test's time.
func TestRowsAllocationBounded(t *testing.T) {
	const n = 256 << 10
	repeat := func(head, line string) []byte {
		b := []byte(head)
		for len(b) < n {
			b = append(b, line...)
		}
		return b
	}
	bodies := map[string][]byte{
		"rows":               repeat("network_payment_id,transaction_id\n", "a,b\n"),
		"rows missing an id": repeat("network_payment_id,transaction_id\n", ",\n"),
		"rows of one field":  repeat("network_payment_id,transaction_id\n", "a\n"),
		"bad amounts":        repeat("network_payment_id,transaction_id,sent_amount\n", "a,b,x\n"),
		"extra columns":      repeat("network_payment_id,transaction_id,"+strings.Repeat("x,", 1000)+"y\n", "a,b"+strings.Repeat(",", 1000)+"\n"),
		"bare quotes":        repeat("network_payment_id,transaction_id\n", "a\"b,c\n"),
		"json rows":          repeat("[", `{"network_payment_id":"a","transaction_id":"b"},`),
		"json rows missing":  repeat("[", `{"transaction_id":"b"},`),
		"json extra columns": repeat(`[{"network_payment_id":"a","transaction_id":"b"`, `,"k":1`),
	}
	for name, b := range bodies {
		for _, typ := range []string{TypePaymentOps, TypeRecon} {
			format := FormatCSV
			if strings.HasPrefix(name, "json") {
				format = FormatJSON
				if b[len(b)-1] == ',' {
					b = append(b[:len(b)-1:len(b)-1], ']')
				} else {
					b = append(b[:len(b):len(b)], `}]`...)
				}
			}
			var rows *Rows
			var err error
			got := wiretest.Allocated(func() { rows, err = ParseRows(typ, format, b) })
			size := int(unsafe.Sizeof(PaymentOpsRow{}))
			if typ == TypeRecon {
				size = int(unsafe.Sizeof(ReconRow{}))
			}
			held := 0 // rows read: those returned, or MaxRows before a refusal
			switch {
			case rows != nil:
				held = 3 * rows.Len() * size
			case errors.Is(err, ErrTooManyRows):
				held = 3 * MaxRows * size
			}
			if limit := wiretest.MaxRatio*len(b) + held; int(got) > limit {
				t.Errorf("%s %s: %d bytes allocated for %d bytes holding %d bytes of rows (bound %d)", typ, name, got, len(b), held/3, limit)
			}
		}
	}
}

// TestMaxRows: a report of more rows than the parser reads is refused
// whole; skipped rows are listed up to MaxSkipped and all counted.
func TestMaxRows(t *testing.T) {
	csv := []byte("network_payment_id,transaction_id\na,b\nc,d\n,\ne,f\ng,h\n")
	if _, _, err := parseCSV(csv, reconSchema(), 3); !errors.Is(err, ErrTooManyRows) {
		t.Errorf("4 CSV rows read at most 3: %v", err)
	}
	if rows, sk, err := parseCSV(csv, reconSchema(), 4); err != nil || len(rows) != 4 || sk.n != 1 {
		t.Errorf("4 CSV rows read at most 4: %d rows, %d skipped, %v", len(rows), sk.n, err)
	}
	js := []byte(`[{"network_payment_id":"a","transaction_id":"b"},{},{"network_payment_id":"c","transaction_id":"d"}]`)
	if _, _, err := parseJSON(js, reconSchema(), 1); !errors.Is(err, ErrTooManyRows) {
		t.Errorf("2 JSON rows read at most 1: %v", err)
	}
	many := []byte("network_payment_id,transaction_id\n" + strings.Repeat(",\n", MaxSkipped+5))
	rows, err := ParseRows(TypeRecon, FormatCSV, many)
	if err != nil || len(rows.Skipped) != MaxSkipped || rows.SkippedCount != MaxSkipped+5 || rows.Skips() != MaxSkipped+5 {
		t.Fatalf("%d listed, %d counted, %v", len(rows.Skipped), rows.SkippedCount, err)
	}
	var sk *SkippedRows
	if _, err := ParseReconCSV(many); !errors.As(err, &sk) || sk.Count != MaxSkipped+5 || !strings.Contains(err.Error(), strconv.Itoa(MaxSkipped+5)) {
		t.Fatalf("ParseReconCSV: %v", err)
	}
	values := []byte("[" + strings.Repeat("1,", MaxSkipped) + `{"network_payment_id":"a","transaction_id":"b"}]`)
	if rows, err := ParseRows(TypeRecon, FormatJSON, values); err != nil || rows.Len() != 1 || rows.Skips() != MaxSkipped {
		t.Fatalf("%d values that are not rows: %v", MaxSkipped, err)
	}
	wide := []byte("network_payment_id,transaction_id" + strings.Repeat(",x", MaxColumns-1) + "\na,b\n")
	if _, err := ParseRows(TypeRecon, FormatCSV, wide); err == nil || !strings.Contains(err.Error(), "columns") {
		t.Fatalf("a header of %d columns: %v", MaxColumns+1, err)
	}
	wide = []byte(`[{"network_payment_id":"a","transaction_id":"b"` + strings.Repeat(`,"k":1`, MaxColumns-1) + `}]`)
	if _, err := ParseRows(TypeRecon, FormatJSON, wide); err == nil || !strings.Contains(err.Error(), "columns") {
		t.Fatalf("a row of %d columns: %v", MaxColumns+1, err)
	}
	values = []byte("[" + strings.Repeat("1,", MaxSkipped+1) + `{}]`)
	if _, err := ParseRows(TypeRecon, FormatJSON, values); err == nil || !strings.Contains(err.Error(), "not row objects") {
		t.Fatalf("%d values that are not rows: %v", MaxSkipped+1, err)
	}
}

// BenchmarkParsePaymentOpsJSON reads 500 copies of the test report (1,500
// rows).
func BenchmarkParsePaymentOpsJSON(b *testing.B) {
	one, _ := os.ReadFile("testdata/payment_ops.json")
	one = bytes.TrimSpace(one)
	inner := one[1 : len(one)-1]
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i := range 500 {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(inner)
	}
	buf.WriteByte(']')
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParsePaymentOpsJSON(data); err != nil {
			b.Fatal(err)
		}
	}
}
