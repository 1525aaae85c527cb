package metrics

import (
	"io"
	"net/http/httptest"
	"testing"
	"time"
)

// BenchmarkAttempt is what each upstream attempt costs the process to
// count: its operation label made from the path, a counter and a
// histogram.
func BenchmarkAttempt(b *testing.B) {
	m := New(Build{})
	for b.Loop() {
		m.Attempt("wallet", "PUT", "/v2/vaults/68de198d-859e/wallets/dabec672-d7b3/transactions/2a791b3b-66af/freeze", 200, 30*time.Millisecond)
	}
}

// BenchmarkScrape is one scrape of /metrics: the process's families, the
// state read (a fixed one here), the Go runtime's and the process's.
func BenchmarkScrape(b *testing.B) {
	m := New(Build{Version: "(devel)"})
	for _, op := range []string{"/v3/payments/p", "/v3/payments/filter", "/api/v0/quotes", "/v2/vaults", "/v2/ledger-transactions"} {
		for _, st := range []int{200, 500, 0} {
			m.Attempt("payments", "GET", op, st, time.Millisecond)
		}
	}
	if err := m.Watch(func() State {
		return State{AlertsOpen: map[string]int{"low": 0, "medium": 1, "high": 2}, PaymentsHeld: 5000, DerivationsRunning: 12,
			Notifications: &Notifications{Accepted: 9, Rejected: map[string]int{"bad_signature": 1}},
			DataAge:       map[string]time.Duration{"payments": time.Second, "liquidity": time.Second}}
	}); err != nil {
		b.Fatal(err)
	}
	h := m.Handler()
	for b.Loop() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
		io.Copy(io.Discard, w.Body)
	}
}
