package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// TestStatsCountsRequestsPerInterface sends known numbers of requests to
// each interface (answered or refused alike) and to the control API, and
// checks GET /_sandbox/stats counts exactly the interface requests.
func TestStatsCountsRequestsPerInterface(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	ep := srv.Endpoints()
	stats := func() sandbox.Stats {
		var s sandbox.Stats
		if st := sandboxtest.Get(t, ep.Control+"/stats", "", &s); st != http.StatusOK {
			t.Fatalf("stats: HTTP %d", st)
		}
		return s
	}
	if s := stats(); len(s.Requests) != 6 {
		t.Fatalf("stats at start: %v, want six interfaces", s.Requests)
	}
	for k, n := range stats().Requests {
		if n != 0 {
			t.Fatalf("stats at start: %s = %d", k, n)
		}
	}
	want := map[string]uint64{"liquidity": 3, "auth": 2, "payments": 4, "reporting": 1, "wallet": 5, "custody": 2}
	urls := map[string]string{
		"liquidity": ep.Liquidity + "/api/v0/quotes", "auth": ep.Auth + payments.PathTokenTest,
		"payments": ep.Payments + payments.PathIdentities, "reporting": ep.Reporting + "/v2/reports",
		"wallet": ep.Wallet + "/v2/vaults", "custody": ep.Custody + "/v1/domains/x/endpoints",
	}
	for k, n := range want {
		for range n {
			sandboxtest.Send(t, http.MethodGet, urls[k], "", nil) // no token: refused, still counted
		}
	}
	sandboxtest.Send(t, http.MethodGet, ep.Control+"/info", "", nil)
	if err := srv.SetFaults(sandbox.FaultSettings{UnavailableRate: 1}); err != nil {
		t.Fatal(err)
	}
	sandboxtest.Send(t, http.MethodGet, urls["custody"], "", nil) // a 503 reached custody too
	want["custody"]++
	got := stats().Requests
	for k, n := range want {
		if got[k] != n {
			t.Errorf("stats %s = %d, want %d (all: %v)", k, got[k], n, got)
		}
	}
	if s := srv.Stats(); s.Requests["wallet"] != want["wallet"] {
		t.Fatalf("Stats() = %v", s.Requests)
	}
	if s := stats(); s.PaymentsByID != 0 {
		t.Fatalf("reads by id = %d before any", s.PaymentsByID)
	}
	// Reads by id are counted apart: a payment's id alone, not its
	// states, nor the list, nor a path that is not an id.
	id := "0c6a7f3e-5d1b-4f5e-9a3b-2b7c8d9e0f1a"
	for _, path := range []string{payments.PathPaymentV3 + id, payments.PathPaymentV3 + id, payments.PathPaymentV3 + id + payments.SuffixStates,
		payments.PathPayments, payments.PathPaymentV3 + "not-an-id"} {
		sandboxtest.Send(t, http.MethodGet, ep.Payments+path, "", nil)
	}
	if s := stats(); s.PaymentsByID != 2 {
		t.Fatalf("reads by id = %d, want 2", s.PaymentsByID)
	}
}

// TestScaleOptions: HistoryPayments sets the history's size and a negative
// LivePaymentsPerMinute means no live payments.
func TestScaleOptions(t *testing.T) {
	e := payStart(t, func(o *sandbox.Options) { o.HistoryPayments = 40; o.LivePaymentsPerMinute = -1 })
	before := len(payFilterAll(t, e, payments.Filter{}, 100))
	if before != 39 { // one of the history is another org's
		t.Fatalf("%d payments in a history of 40, want 39 of ours", before)
	}
	e.srv.AdvanceClock(30 * time.Minute)
	if after := len(payFilterAll(t, e, payments.Filter{}, 100)); after != before {
		t.Fatalf("%d payments after 30 minutes without live traffic, want %d", after, before)
	}
	live := payStart(t, func(o *sandbox.Options) { o.HistoryPayments = 40; o.LivePaymentsPerMinute = 60 })
	live.srv.AdvanceClock(10 * time.Minute)
	if n := len(payFilterAll(t, live, payments.Filter{}, 100)); n < 39+300 {
		t.Fatalf("%d payments after 10 minutes at 60 a minute", n)
	}
}
