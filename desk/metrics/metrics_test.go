package metrics

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"treasury/desk/metrics/metricstest"
)

func TestOperationKeepsOnlyTheInterfacesWords(t *testing.T) {
	for _, c := range []struct{ method, path, want string }{
		{"GET", "/v3/payments/6f1c2b9e-58aa-4d7e-9c1e-0b1f2e3d4c5b", "GET /v3/payments/{id}"},
		{"POST", "/v3/payments/filter", "POST /v3/payments/filter"},
		{"GET", "/v3/identities/idn_42/financial-instruments", "GET /v3/identities/{id}/financial-instruments"},
		{"PUT", "/v2/vaults/vault-1/wallets/w%2F2/transactions/tx-9/freeze", "PUT /v2/vaults/{id}/wallets/{id}/transactions/{id}/freeze"},
		{"GET", "/v1/domains/dom-1/endpoints/treasury-hot", "GET /v1/domains/{id}/endpoints/{id}"},
		{"GET", "/v2/reports/download/r1?x=1", "GET /v2/reports/download/{id}"},
		{"GET", "//storage.example.com/bucket/r2.json", "GET (link)"},
		{"GET", "/", "GET /"},
		{"GET", strings.Repeat("/a", 40), "GET " + strings.Repeat("/{id}", maxSegments) + "/…"},
	} {
		if got := Operation(c.method, c.path); got != c.want {
			t.Errorf("Operation(%s %s) = %q, want %q", c.method, c.path, got, c.want)
		}
	}
}

// A nil *Metrics takes every call and does nothing: the local dashboard
// has none.
func TestNilMetrics(t *testing.T) {
	var m *Metrics
	m.Attempt("payments", "GET", "/v3/payments/x", 200, time.Second)
	m.Retry("payments", "GET", "/x")
	m.TokenRefresh("auth", nil)
	m.AuditAppend(time.Millisecond, nil)
	m.Action("freeze", "done")
	m.Session("viewer")()
	m.Roles("viewer")
	if err := m.Watch(func() State { return State{} }); err != nil {
		t.Fatal(err)
	}
}

// What is fed and watched is served in the text format Prometheus's
// parser reads, with the values fed.
func TestServedFamilies(t *testing.T) {
	m := New(Build{Version: "(devel)", Commit: "abc", Modified: true})
	m.Attempt("payments", "GET", "/v3/payments/p-1", 200, 30*time.Millisecond)
	m.Attempt("payments", "GET", "/v3/payments/p-2", 0, time.Second)
	m.Retry("wallet", "GET", "/v2/vaults")
	m.TokenRefresh("auth", errors.New("refused"))
	m.AuditAppend(2*time.Millisecond, nil)
	m.Action("freeze", "done")
	end := m.Session("operator")
	m.Roles("viewer", "operator")
	if err := m.Watch(func() State {
		return State{AlertsOpen: map[string]int{"high": 2, "medium": 0}, PaymentsHeld: 7, DerivationsRunning: 3,
			Notifications: &Notifications{Accepted: 5, Rejected: map[string]int{"bad_signature": 1}},
			DataAge:       map[string]time.Duration{"payments": 2 * time.Second},
			Site:          &Site{Role: "follows", RecordLag: 4, LagKnown: true, PollerAge: time.Minute}}
	}); !errors.Is(m.Watch(func() State { return State{} }), ErrWatched) || err != nil {
		t.Fatalf("Watch: %v; a second Watch must be refused", err)
	}
	fams := scrape(t, m)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"treasury_upstream_requests_total", map[string]string{"interface": "payments", "operation": "GET /v3/payments/{id}", "status": "200"}, 1},
		{"treasury_upstream_requests_total", map[string]string{"status": "error"}, 1},
		{"treasury_upstream_request_duration_seconds", map[string]string{"operation": "GET /v3/payments/{id}"}, 2},
		{"treasury_upstream_retries_total", map[string]string{"interface": "wallet", "operation": "GET /v2/vaults"}, 1},
		{"treasury_token_refreshes_total", map[string]string{"interface": "auth", "result": "error"}, 1},
		{"treasury_audit_appends_total", map[string]string{"result": "ok"}, 1},
		{"treasury_audit_appends_total", map[string]string{"result": "error"}, 0},
		{"treasury_audit_append_duration_seconds", nil, 1},
		{"treasury_actions_total", map[string]string{"action": "freeze", "outcome": "done"}, 1},
		{"treasury_ssh_sessions", map[string]string{"role": "operator"}, 1},
		{"treasury_ssh_sessions", map[string]string{"role": "viewer"}, 0},
		{"treasury_alerts_open", map[string]string{"severity": "high"}, 2},
		{"treasury_notifications_accepted_total", nil, 5},
		{"treasury_notifications_rejected_total", map[string]string{"reason": "bad_signature"}, 1},
		{"treasury_payments_held", nil, 7},
		{"treasury_derivations_running", nil, 3},
		{"treasury_data_age_seconds", map[string]string{"interface": "payments"}, 2},
		{"treasury_site_role", map[string]string{"role": "follows"}, 1},
		{"treasury_site_role", map[string]string{"role": "polls"}, 0},
		{"treasury_site_record_lag_lines", nil, 4},
		{"treasury_site_poller_age_seconds", nil, 60},
		{"treasury_build_info", map[string]string{"commit": "abc", "modified": "true"}, 1},
	} {
		if got, ok := metricstest.Value(fams, c.name, c.labels); !ok || got != c.want {
			t.Errorf("%s%v = %v (found %v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
	end()
	end()
	if got, _ := metricstest.Value(scrape(t, m), "treasury_ssh_sessions", map[string]string{"role": "operator"}); got != 0 {
		t.Errorf("a session ended twice counts %v sessions, want 0", got)
	}
	for _, f := range []string{"go_goroutines", "go_memstats_heap_inuse_bytes", "process_open_fds"} {
		if _, ok := fams[f]; !ok {
			t.Errorf("no %s: the runtime's and the process's metrics are missing", f)
		}
	}
}

func scrape(t *testing.T, m *Metrics) metricstest.Families {
	t.Helper()
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	fams, err := metricstest.Parse(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}
