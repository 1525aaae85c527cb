package reporting

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fuzzCSV checks, for any input: the parser does not panic; a failure of
// the whole content, and each row skipped, is a *ParseError with a line
// inside the input; the rows read (beside skipped ones or not) write back
// to a canonical CSV that parses, with nothing skipped, to the same
// canonical CSV (nothing is lost or invented between parse and write).
func fuzzCSV[R any](t *testing.T, data []byte, parse func([]byte) ([]R, error), write func(*bytes.Buffer, []R) error) {
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
	var a, b bytes.Buffer
	if err := write(&a, rows); err != nil {
		t.Fatalf("write: %v", err)
	}
	back, err := parse(a.Bytes())
	if err != nil {
		t.Fatalf("canonical CSV does not parse: %v\n%s", err, a.String())
	}
	if len(back) != len(rows) {
		t.Fatalf("%d rows became %d", len(rows), len(back))
	}
	if err := write(&b, back); err != nil {
		t.Fatalf("write: %v", err)
	}
	if a.String() != b.String() {
		t.Fatalf("not a fixed point:\n%s\nvs\n%s", a.String(), b.String())
	}
}

func seedCSV(f *testing.F, file string, cols []string) {
	b, err := os.ReadFile("testdata/" + file)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(strings.Join(cols, ",") + "\n"))
	f.Add([]byte(strings.Join(cols, ",") + "\n" + strings.Repeat(",", len(cols)-1) + "\n"))
	f.Add([]byte("\ufeff" + strings.Join(cols, ";")))
	f.Add([]byte{})
}

func FuzzParsePaymentOpsCSV(f *testing.F) {
	seedCSV(f, "payment_ops.csv", PaymentOpsColumns())
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzCSV(t, data, ParsePaymentOpsCSV, func(b *bytes.Buffer, r []PaymentOpsRow) error { return WritePaymentOpsCSV(b, r) })
	})
}

func FuzzParseReconCSV(f *testing.F) {
	seedCSV(f, "recon.csv", ReconColumns())
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzCSV(t, data, ParseReconCSV, func(b *bytes.Buffer, r []ReconRow) error { return WriteReconCSV(b, r) })
	})
}

func BenchmarkParseReconCSV(b *testing.B) {
	one, err := os.ReadFile("testdata/recon.csv")
	if err != nil {
		b.Fatal(err)
	}
	header, body, _ := bytes.Cut(one, []byte("\n"))
	data := append(append([]byte{}, header...), '\n')
	for range 250 { // 1,000 lines
		data = append(data, body...)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		rows, err := ParseReconCSV(data)
		if err != nil || len(rows) != 1000 {
			b.Fatalf("%d rows, %v", len(rows), err)
		}
	}
}
