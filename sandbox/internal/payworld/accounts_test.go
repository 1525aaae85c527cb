package payworld

import (
	"slices"
	"testing"
	"time"

	"treasury/sandbox/internal/simkit"
)

// TestAccounts: Options.Accounts gives the org that many prefunded
// accounts, each with a balance and payments of its own corridor; the
// default world keeps its three; more than eight is refused.
func TestAccounts(t *testing.T) {
	start := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	open := func(n int) *World {
		w, err := New(&simkit.Env{Seed: 1, Clock: simkit.NewFrozenClock(start)}, Options{HistoryPayments: 400, Accounts: n})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		return w
	}
	currencies := func(w *World) []string {
		w.mu.RLock()
		defer w.mu.RUnlock()
		var out []string
		for _, b := range w.balances("") {
			out = append(out, b.Currency)
		}
		return out
	}
	if got := currencies(open(0)); !slices.Equal(got, []string{"USD", "EUR", "GBP"}) {
		t.Errorf("default accounts %v", got)
	}
	w := open(8)
	if got := currencies(w); !slices.Equal(got, []string{"USD", "EUR", "GBP", "CAD", "AUD", "CHF", "SGD", "HKD"}) {
		t.Errorf("eight accounts %v", got)
	}
	paid := map[string]bool{}
	w.mu.RLock()
	for i := range w.pays {
		paid[w.corridorOf(&w.pays[i]).src] = true
	}
	w.mu.RUnlock()
	for _, c := range []string{"CAD", "AUD", "CHF", "SGD", "HKD"} {
		if !paid[c] {
			t.Errorf("no payment from %s", c)
		}
	}
	if _, err := New(&simkit.Env{Seed: 1, Clock: simkit.NewFrozenClock(start)}, Options{Accounts: 9}); err == nil {
		t.Error("nine accounts accepted")
	}
}
