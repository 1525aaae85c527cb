package variant

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestTreeRoundTrip: a document the default face writes (encoding/json,
// with escapes, hostile text and decimals) reads and writes back byte for
// byte, so that what the variant does not change is as the default wrote it.
func TestTreeRoundTrip(t *testing.T) {
	in := map[string]any{"b": "\x1b[31mRED\x1b[0m <&> \u2028 \u202e", "a": []any{json.Number("0.00000001"), json.Number("-12345678901234567890.5"), true, nil},
		"c": map[string]any{"z": json.Number("1"), "y": []any{}}, "d": ""}
	raw, _ := json.Marshal(in)
	v, err := parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if out := marshal(v); !bytes.Equal(out, raw) {
		t.Fatalf("round trip:\n%s\n%s", raw, out)
	}
	o := v.(*object)
	o.insertAfter("a", "a2", "x")
	o.insertAfter("missing", "z", json.Number("2"))
	o.del("c")
	if got := string(marshal(o)); !strings.HasPrefix(got, `{"a":[`) || !strings.Contains(got, `],"a2":"x","b":`) || !strings.HasSuffix(got, `"d":"","z":2}`) {
		t.Fatalf("edits: %s", got)
	}
	for _, bad := range []string{`{"a":1} x`, `{"a":`, `[1,]`} {
		if _, err := parse([]byte(bad)); err == nil {
			t.Errorf("parse %q: no error", bad)
		}
	}
}

func TestIsJSONNumber(t *testing.T) {
	for s, want := range map[string]bool{"0": true, "17.1234": true, "-0.5": true, "100000000.00": true,
		"": false, "01": false, "1.": false, ".5": false, "1e5": false, "+1": false, "NaN": false, "1.2.3": false} {
		if isJSONNumber(s) != want {
			t.Errorf("isJSONNumber(%q) = %v", s, !want)
		}
	}
}

// TestReshapeCSVStreams rewrites a CSV report whose cells hold commas,
// quotes and line breaks, through a capture in streamed mode.
func TestReshapeCSVStreams(t *testing.T) {
	body := "end_to_end_id,network_payment_id,quote_ts,sent_amount,sent_currency,received_amount,payment_state,beneficiary_name\n" +
		"E1,P1,2026-10-02T10:00:00Z,10.5,USD,9.1,COMPLETED,\"Ann, \"\"A\"\"\nline\"\n" +
		"E2,P2,2026-10-03T10:00:00Z,7,EUR,6.2,DECLINED,Bob\r\n"
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		for _, chunk := range []string{body[:30], body[30:90], body[90:]} { // cut mid-record
			w.Write([]byte(chunk))
		}
	})
	rec := httptest.NewRecorder()
	c := newCapture(rec, func(int, http.Header) plan { return plan{mode: streamed, transform: reshapeCSV} })
	h.ServeHTTP(c, httptest.NewRequest("GET", "/", nil))
	if _, _, ok := c.finish(); ok {
		t.Fatal("a streamed answer reported a buffered body")
	}
	want := "end_to_end_id,network_payment_id,settlement_batch_id,quote_ts,sent_amount,sent_currency,fee_currency,received_amount,payment_state,beneficiary_name\n" +
		"E1,P1,SB-20261002,2026-10-02T10:00:00Z,10.5,USD,USD,9.1,COMPLETED,\"Ann, \"\"A\"\"\nline\"\n" +
		"E2,P2,SB-20261003,2026-10-03T10:00:00Z,7,EUR,EUR,,DECLINED,Bob\n"
	if got := rec.Body.String(); got != want {
		t.Fatalf("reshaped CSV:\n%q\nwant\n%q", got, want)
	}
}

func TestReshapeRowsJSON(t *testing.T) {
	in := `[` + "\n" + `{"network_payment_id":"P1","quote_ts":"2026-10-02T10:00:00Z","sent_currency":"USD","received_amount":9.1,"payment_state":"FAILED","deposit_result_amount":null,"x":1},` + "\n" +
		`{"network_payment_id":"P2","quote_ts":"2026-10-03T10:00:00Z","sent_currency":"EUR","received_amount":6.25,"payment_state":"COMPLETED"}` + "\n]\n"
	var out bytes.Buffer
	if err := reshapeRowsJSON(strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := "[\n" + `{"network_payment_id":"P1","settlement_batch_id":"SB-20261002","quote_ts":"2026-10-02T10:00:00Z","sent_currency":"USD","fee_currency":"USD","received_amount":"","payment_state":"FAILED","deposit_result_amount":"","x":1},` + "\n" +
		`{"network_payment_id":"P2","settlement_batch_id":"SB-20261003","quote_ts":"2026-10-03T10:00:00Z","sent_currency":"EUR","fee_currency":"EUR","received_amount":6.25,"payment_state":"COMPLETED"}` + "\n]\n"
	if out.String() != want {
		t.Fatalf("reshaped JSON:\n%s\nwant\n%s", out.String(), want)
	}
	if err := reshapeRowsJSON(strings.NewReader(`{"not":"an array"}`), io.Discard); err == nil {
		t.Fatal("a JSON report that is not an array was accepted")
	}
}
