package client_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/wire/auth"
	"treasury/wire/reporting"
	"treasury/wire/reporting/client"
	"treasury/wire/transport"
)

// hit is a request a fake server saw.
type hit struct {
	uri  string
	auth []string // Authorization headers
}

// fake answers as another legal implementation of the reporting interface
// (or a storage host) would: each path has its own answer; it records
// every request.
type fake struct {
	mu     sync.Mutex
	routes map[string]func(w http.ResponseWriter)
	hits   []hit
	srv    *httptest.Server
}

func newFake(t *testing.T) *fake {
	f := &fake{routes: map[string]func(http.ResponseWriter){}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.hits = append(f.hits, hit{uri: r.URL.RequestURI(), auth: r.Header.Values("Authorization")})
		h := f.routes[r.URL.Path]
		f.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) serve(path string, status int, body string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.routes[path] = func(w http.ResponseWriter) {
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
}

func (f *fake) requests() []hit {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]hit(nil), f.hits...)
}

// fakeClient is a client of f with the static token "tok".
func fakeClient(t *testing.T, f *fake) *client.Client {
	t.Helper()
	c, err := client.NewClient(transport.Config{BaseURL: f.srv.URL, Auth: auth.NewStatic(auth.NewSecret("tok")), Sleep: noSleep,
		Retry: transport.Retry{Attempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestListTolerant: a record that cannot be read is skipped with its
// reason, the others are listed with their JSON as received; unknown
// fields are ignored; other ISO 8601 forms of the dates are read.
func TestListTolerant(t *testing.T) {
	f := newFake(t)
	f.serve(reporting.PathReports, 200, `{"reports": [
 {"id": "a", "type": "RECON", "format": "CSV", "status": "READY", "start_date": "2026-10-01", "end_date": "2026-10-31T23:59:59.999+0000", "region": {"eu": true}},
 {"id": "b", "type": "RECON", "format": "JSON", "status": "READY", "start_date": "last month"},
 "c",
 {"type": "PAYMENT_OPS", "format": "CSV"},
 {"id": "e", "type": 7},
 {"id": "f", "type": "PAYMENT_OPS", "format": "JSON", "status": "GENERATING", "start_date": null}
], "next": null}`)
	c := fakeClient(t, f)
	l, err := c.ListRecords(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Reports) != 2 || l.Reports[0].ID != "a" || l.Reports[1].ID != "f" {
		t.Fatalf("listed %+v", l.Reports)
	}
	a := l.Reports[0]
	if !a.StartDate.Equal(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)) || a.EndDate.Nanosecond() != 999e6 ||
		!bytes.Contains(a.RawJSON(), []byte(`"region": {"eu": true}`)) || !l.Reports[1].StartDate.IsZero() {
		t.Errorf("report a = %+v, raw %s", a, a.RawJSON())
	}
	want := []string{
		`report b: start_date: "last month" is not an ISO 8601 date-time`,
		`report record 3: the record is a JSON string, not an object`,
		`report record 4: id: a report id is required`,
		`report e: type: a JSON number where a string was expected`,
	}
	if len(l.Skipped) != len(want) {
		t.Fatalf("skipped %v, want %d", l.Skipped, len(want))
	}
	for i, s := range l.Skipped {
		if s.String() != want[i] {
			t.Errorf("skip %d: %q, want %q", i, s, want[i])
		}
	}
	reps, err := c.List(context.Background())
	if err != nil || len(reps) != 2 {
		t.Errorf("List: %d, %v", len(reps), err)
	}
	for body, text := range map[string]string{`{"reports": {}}`: "not an array", `{"items": []}`: "no reports array", `[]`: "report list"} {
		f.serve(reporting.PathReports, 200, body)
		if _, err := c.List(context.Background()); err == nil || !strings.Contains(err.Error(), text) {
			t.Errorf("list answered %s: %v, want it to say %q", body, err, text)
		}
	}
}
