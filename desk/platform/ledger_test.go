package platform

import (
	"strings"
	"testing"
	"time"

	"treasury/wire/money"
	"treasury/wire/payments"
)

// TestLedgerKeepsTheCurrencyItCouldNotRead: a ledger read that missed a
// currency (a partial read) keeps the movements held of it (within the
// window), so its runway does not read "no outflow"; what was read is
// added to what is held, once (the overlap reads the newest again), and
// what left the window is dropped.
func TestLedgerKeepsTheCurrencyItCouldNotRead(t *testing.T) {
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	tx := func(cur string, ago time.Duration, amount string) payments.LedgerTransaction {
		return payments.LedgerTransaction{Currency: cur, Operation: "DEBIT", CreatedDttm: now.Add(-ago), Amount: money.N(money.MustParse(amount))}
	}
	f := &ledgerFeed{now: func() time.Time { return now }}
	held := []payments.LedgerTransaction{tx("USD", time.Minute, "5"), tx("GBP", time.Minute, "7"), tx("GBP", 30*time.Hour, "9")}
	// The USD read, from its newest held less the overlap: that one again
	// and a new one; GBP failed.
	read := []payments.LedgerTransaction{tx("USD", 10*time.Second, "3"), tx("USD", time.Minute, "5")}
	got, ch := f.fold(held, read, now)
	var ids []string
	for _, x := range got {
		ids = append(ids, x.Currency+" "+x.Amount.String())
	}
	if want := "USD 3 USD 5 GBP 7"; strings.Join(ids, " ") != want {
		t.Fatalf("held %v, want %s: GBP's movement of the window kept, USD's new one added once, newest first", ids, want)
	}
	if len(ch.Added) != 1 || len(ch.Removed) != 1 || ch.Reset {
		t.Fatalf("changes %+v: want the new USD movement added and the GBP one of 30 h ago removed", ch)
	}
	if again, ch := f.fold(got, read, now); len(again) != len(got) || !ch.Empty() {
		t.Fatalf("the same read folded again: %d held (want %d), changes %+v", len(again), len(got), ch)
	}
}
