package sandboxtest

import (
	"net/http"
	"strings"
	"testing"

	"treasury/sandbox"
)

// recorder is a testing.TB that keeps what it is told.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, format)
}

// TestViolationsJudgeARepeatAsTheFirst: an exchange seen again is judged
// from the first check, not checked again, and reported every time it is
// seen: a violation is not forgotten because it repeats. An exchange that
// differs in anything the check reads (here its body) is checked.
func TestViolationsJudgeARepeatAsTheFirst(t *testing.T) {
	v, err := NewViolations()
	if err != nil {
		t.Fatal(err)
	}
	hd := func(k, val string) http.Header { return http.Header{k: {val}} }
	req := hd("Authorization", "Bearer x")
	req.Set("Content-Type", "application/json")
	refused := sandbox.Exchange{Method: "POST", Path: "/v3/payments/filter", Header: req,
		Body: []byte(`{"sort":{"sortField":"CREATED_AT","sortDirection":"DESC"}}`), Status: 400, RespHeader: hd("Content-Type", "application/json")}
	kept := refused
	kept.Body = []byte(`{"sort":{"sortField":"initiatedAt","sortDirection":"DESC"}}`)
	kept.Status, kept.RespBody = 200, []byte(`{"data":[],"filter":{},"sort":{"sortField":"initiatedAt","sortDirection":"DESC"},"page":{"size":20}}`)
	for range 3 {
		v.Observe(refused)
		v.Observe(kept)
	}
	if len(v.checked) != 2 {
		t.Errorf("%d exchanges checked, want the 2 that differ", len(v.checked))
	}
	r := &recorder{TB: t}
	v.Report(r)
	if len(r.errs) != 3 || v.checked[exchangeKey(refused)] == nil || v.checked[exchangeKey(kept)] != nil {
		t.Fatalf("reported %d violations, want the 3 of the refused request (judged %v, %v)",
			len(r.errs), v.checked[exchangeKey(refused)], v.checked[exchangeKey(kept)])
	}
	if !strings.Contains(r.errs[0], "contract") {
		t.Errorf("report %q", r.errs[0])
	}
}
