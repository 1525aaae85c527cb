package sandbox

import (
	"net/http"
	"strings"
	"sync/atomic"

	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// countedInterfaces are the interfaces whose requests are counted: the
// index of each is that of its counter.
func countedInterfaces() [6]apierr.Interface {
	return [6]apierr.Interface{apierr.Liquidity, apierr.Auth, apierr.Payments,
		apierr.Reporting, apierr.Wallet, apierr.Custody}
}

// requestCounts counts the requests each interface has received since the
// sandbox started; control requests (/_sandbox) are not counted.
type requestCounts [6]atomic.Uint64

// Stats is what GET /_sandbox/stats answers: the requests received per
// interface since start, keyed liquidity, auth, payments, reporting, wallet
// and custody, so that tests can count the calls a client makes upstream.
type Stats struct {
	Requests map[string]uint64 `json:"requests"`
	// PaymentsByID counts GET /v3/payments/{id} (a payment read by id,
	// for its reasons or details), beside the payments interface's count.
	PaymentsByID uint64 `json:"payments_by_id"`
	// World is how much the payments world holds.
	World WorldSize `json:"world"`
}

// WorldSize is how much the world holds: payments, the ids it indexes,
// ledger entries and wallet transactions; Options.Retain bounds them.
type WorldSize struct {
	Payments           int `json:"payments"`
	IDs                int `json:"ids"`
	LedgerEntries      int `json:"ledger_entries"`
	WalletTransactions int `json:"wallet_transactions"`
}

// Stats returns the request counts so far.
func (s *Sandbox) Stats() Stats {
	out := Stats{Requests: make(map[string]uint64, len(s.requests)), PaymentsByID: s.byID.Load()}
	for i, iface := range countedInterfaces() {
		out.Requests[string(iface)] = s.requests[i].Load()
	}
	ws := s.world.Size()
	out.World = WorldSize{Payments: ws.Payments, IDs: ws.IDs, LedgerEntries: ws.LedgerEntries,
		WalletTransactions: s.wallet.Transactions()}
	return out
}

// counted counts every request to iface's handler (faults included: a
// request answered 503 still reached the interface) before serving it,
// and dates its answer on the sandbox clock.
func (s *Sandbox) counted(iface apierr.Interface, next http.Handler) http.Handler {
	n := &s.requests[0]
	for i, c := range countedInterfaces() {
		if c == iface {
			n = &s.requests[i]
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if iface == apierr.Payments && r.Method == http.MethodGet && readByID(r.URL.Path) {
			s.byID.Add(1)
		}
		// A server's Date is its own clock's (net/http would write the
		// host's): at --speed 10 it runs ahead, and clients read the
		// platform's time from it.
		w.Header().Set("Date", s.env.Clock.Now().UTC().Format(http.TimeFormat))
		next.ServeHTTP(w, r)
	})
}

// readByID reports whether path (under the payments prefix) is GET
// /v3/payments/{id}'s: a payment id and nothing after it.
func readByID(path string) bool {
	_, id, ok := strings.Cut(path, payments.PathPaymentV3)
	return ok && payments.IsPaymentID(id)
}
