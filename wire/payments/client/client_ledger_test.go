package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/paging"
	"treasury/wire/payments"
	"treasury/wire/payments/client"
)

// TestLedgerOffsetPagesConcurrently reads each currency's ledger in small
// pages, one at a time and concurrently: the same records, a chain of
// balances that ends at the balance; Ledger merges every currency.
func TestLedgerOffsetPagesConcurrently(t *testing.T) {
	faces(t, nil, testLedgerOffsetPagesConcurrently)
}

func testLedgerOffsetPagesConcurrently(t *testing.T, srv *sandbox.Server, _ bool) {
	ctx := context.Background()
	from := sandboxtest.Start().AddDate(0, -3, 0)
	seq, _ := fullClient(t, srv, client.Options{PageSize: 20, Concurrency: 1})
	par, _ := fullClient(t, srv, client.Options{PageSize: 20, Concurrency: 6})
	bal, err := par.Balances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, b := range bal.Balances {
		one, err := paging.Collect(seq.LedgerOf(ctx, b.Currency, from, time.Time{}))
		if err != nil {
			t.Fatal(err)
		}
		many, err := paging.Collect(par.LedgerOf(ctx, b.Currency, from, time.Time{}))
		if err != nil {
			t.Fatal(err)
		}
		first, err := par.LedgerPage(ctx, b.Currency, from, time.Time{}, 50, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(one) != first.Total || len(many) != first.Total || first.Total <= 40 {
			t.Fatalf("%s: %d records one page at a time, %d concurrently, total %d", b.Currency, len(one), len(many), first.Total)
		}
		reserved := decimal.Zero
		for i, x := range many {
			if x.Currency != b.Currency || !x.Amount.Equal(one[i].Amount.Decimal()) || !x.CreatedDttm.Equal(one[i].CreatedDttm) {
				t.Fatalf("%s record %d differs between concurrent and sequential reads", b.Currency, i)
			}
			if i > 0 && !x.AvailableBalanceBefore.Equal(many[i-1].AvailableBalanceAfter.Decimal()) {
				t.Fatalf("%s record %d: before %s, previous after %s: pages out of order", b.Currency, i, x.AvailableBalanceBefore, many[i-1].AvailableBalanceAfter)
			}
			switch x.Operation {
			case payments.OpReserve:
				reserved = reserved.Add(x.Amount.Decimal())
			case payments.OpDebit, payments.OpRelease:
				reserved = reserved.Sub(x.Amount.Decimal())
			}
		}
		last := many[len(many)-1]
		if !last.AvailableBalanceAfter.Equal(b.AvailableBalance.Decimal()) || !reserved.Equal(b.ReservedBalance.Decimal()) {
			t.Fatalf("%s: ledger ends at %s reserved %s, balances say %s reserved %s", b.Currency, last.AvailableBalanceAfter, reserved, b.AvailableBalance, b.ReservedBalance)
		}
		total += len(many)
	}
	merged, err := par.Ledger(ctx, from, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(merged) != total {
		t.Fatalf("Ledger read %d records, the currencies hold %d", len(merged), total)
	}
	for i := 1; i < len(merged); i++ {
		if merged[i].CreatedDttm.Before(merged[i-1].CreatedDttm) {
			t.Fatalf("Ledger not ordered by createdDttm at %d", i)
		}
	}
	// A closed window holds fewer records.
	week, err := par.Ledger(ctx, sandboxtest.Start().AddDate(0, 0, -7), sandboxtest.Start())
	if err != nil || len(week) == 0 || len(week) >= len(merged) {
		t.Fatalf("last week: %d records of %d, %v", len(week), len(merged), err)
	}
	for _, x := range week {
		if x.CreatedDttm.Before(sandboxtest.Start().AddDate(0, 0, -7)) || !x.CreatedDttm.Before(sandboxtest.Start()) {
			t.Fatalf("record at %v outside the week", x.CreatedDttm)
		}
	}
}
