package sandbox_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/wallet"
)

// worldSize reads how much the payments world holds (GET /_sandbox/stats).
func worldSize(t *testing.T, srv *sandbox.Server) sandbox.WorldSize {
	t.Helper()
	var st sandbox.Stats
	if s := sandboxtest.Get(t, srv.Endpoints().Control+"/stats", "", &st); s != http.StatusOK {
		t.Fatalf("stats: HTTP %d", s)
	}
	return st.World
}

// TestRetainBoundsTheWorld runs a world for 12 days of sandbox time at a
// payment a minute with a day retained: it creates 17,280 payments and
// holds at no time more than about a day of them, their ids and their
// ledger entries.
func TestRetainBoundsTheWorld(t *testing.T) {
	const rate, retain = 1.0, 24 * time.Hour
	srv := sandboxtest.Listen(t, func() sandbox.Options {
		o := sandboxtest.Options()
		o.LivePaymentsPerMinute, o.Retain = rate, retain
		return o
	}())
	span := int(rate * retain.Minutes()) // payments created in the span
	most := sandbox.WorldSize{}
	for day := 1; day <= 12; day++ {
		for range 4 {
			srv.Clock().Advance(6 * time.Hour)
			s := worldSize(t, srv)
			if day > 2 {
				most.Payments, most.IDs = max(most.Payments, s.Payments), max(most.IDs, s.IDs)
				most.LedgerEntries = max(most.LedgerEntries, s.LedgerEntries)
				most.WalletTransactions = max(most.WalletTransactions, s.WalletTransactions)
			}
		}
	}
	// An eighth more before a compaction, an hour between prunings, and
	// the few payments still moving (a return due) after their creation
	// left the span.
	if limit := span * 3 / 2; most.Payments > limit || most.IDs > most.Payments {
		t.Fatalf("the world held up to %d payments (%d ids); a day is %d, the bound %d", most.Payments, most.IDs, span, limit)
	}
	if most.Payments < span {
		t.Fatalf("the world held at most %d payments, fewer than the %d of the day it keeps", most.Payments, span)
	}
	// A payment books two or three entries (reserve, then debit or
	// release, a credit on return) and a top-up funds many.
	if limit := span * 3 * 3 / 2; most.LedgerEntries > limit {
		t.Fatalf("the ledger held up to %d entries, the bound %d", most.LedgerEntries, limit)
	}
	// A wallet transaction every 3 minutes on average: 480 a day, 5,760 in
	// the twelve; a few are seeded frozen or waiting and stay.
	if limit := 480 * 3 / 2; most.WalletTransactions > limit || most.WalletTransactions < 300 {
		t.Fatalf("the wallets held up to %d transactions, want a day's (about 480) and at most %d", most.WalletTransactions, limit)
	}
}

// TestRetainKeepsAnswersInTheSpan compares a world that prunes with one
// that keeps everything, five days on: a search, the ledger and a payment
// by id inside the kept span answer the same; a payment created before it
// is no longer found.
func TestRetainKeepsAnswersInTheSpan(t *testing.T) {
	start := func(retain time.Duration) payEnv {
		return payStart(t, func(o *sandbox.Options) { o.LivePaymentsPerMinute, o.Retain = 1, retain })
	}
	all, kept := start(-1), start(24*time.Hour)
	for _, e := range []*payEnv{&all, &kept} {
		e.srv.Clock().Advance(5 * 24 * time.Hour)
		e.tok = sandboxtest.PaymentsToken(t, e.srv) // the first one has expired
	}
	if a, k := worldSize(t, all.srv), worldSize(t, kept.srv); k.Payments*3 > a.Payments {
		t.Fatalf("the world that keeps a day holds %d payments, the one that keeps all %d: nothing was pruned", k.Payments, a.Payments)
	}
	now := all.srv.Clock().Now()
	after := now.Add(-18 * time.Hour)
	same := func(what string, a, k any) {
		t.Helper()
		ja, _ := json.Marshal(a)
		jk, _ := json.Marshal(k)
		if string(ja) != string(jk) {
			t.Fatalf("%s differs once pruned:\nall:  %.300s\nkept: %.300s", what, ja, jk)
		}
	}
	f := payments.Filter{FilterRangeType: "PAYMENT_CREATION", AfterTimestamp: &after}
	pa, pk := payFilterAll(t, all, f, 100), payFilterAll(t, kept, f, 100)
	if len(pa) < 800 {
		t.Fatalf("the search found %d payments of the last 18 hours, want about 1,080", len(pa))
	}
	same("the search of the last 18 hours", pa, pk)
	for _, cur := range []string{"USD", "EUR", "GBP"} {
		la, lk := payLedger(t, all, cur, after, now), payLedger(t, kept, cur, after, now)
		if len(la) == 0 {
			t.Fatalf("no %s ledger entries in the last 18 hours", cur)
		}
		same("the "+cur+" ledger of the last 18 hours", la, lk)
	}
	id := pa[len(pa)-1].PaymentID
	var ba, bk, bs json.RawMessage
	sa := sandboxtest.Get(t, all.base+payments.PathPaymentV3+id, all.tok, &ba)
	sk := sandboxtest.Get(t, kept.base+payments.PathPaymentV3+id, kept.tok, &bk)
	if sa != http.StatusOK || sk != http.StatusOK {
		t.Fatalf("payment %s: HTTP %d and %d", id, sa, sk)
	}
	same("payment "+id, ba, bk)
	walletsSame(t, all.srv, kept.srv, after)
	// The other world has forgotten the payments of three days ago.
	long := now.Add(-72 * time.Hour)
	var oldPage payments.FilterResponse
	req := payments.FilterRequest{Filter: payments.Filter{FilterRangeType: "PAYMENT_CREATION", BeforeTimestamp: &long}, Page: &payments.PageIn{Size: 1}}
	if st := sandboxtest.PostJSON(t, all.base+payments.PathFilterV3, all.tok, req, &oldPage); st != http.StatusOK || len(oldPage.Data) != 1 {
		t.Fatalf("a payment of three days ago: HTTP %d, %d payments", st, len(oldPage.Data))
	}
	if s := sandboxtest.Get(t, kept.base+payments.PathPaymentV3+oldPage.Data[0].PaymentID, kept.tok, &bs); s != http.StatusNotFound {
		t.Fatalf("a payment created long before the span: HTTP %d, want 404", s)
	}
}

// TestRetainByDefaultKeepsTheReports runs a world that keeps what the
// reports cover past the turn of three months: the reports it lists read the
// same as those of a world that keeps everything, though it has dropped
// the months before them.
func TestRetainByDefaultKeepsTheReports(t *testing.T) {
	start := func(retain time.Duration) payEnv {
		return payStart(t, func(o *sandbox.Options) { o.LivePaymentsPerMinute, o.Retain = 0.1, retain })
	}
	all, kept := start(-1), start(0)
	for _, e := range []*payEnv{&all, &kept} {
		// November 16th to February 5th: the world keeps December on.
		e.srv.Clock().Advance(81 * 24 * time.Hour)
		e.tok = sandboxtest.PaymentsToken(t, e.srv)
	}
	a, k := worldSize(t, all.srv), worldSize(t, kept.srv)
	if k.Payments >= a.Payments || k.LedgerEntries >= a.LedgerEntries {
		t.Fatalf("the world that keeps the reports' months holds %+v, the one that keeps all %+v: nothing was pruned", k, a)
	}
	ra, rk := repList(t, all), repList(t, kept)
	same := func(what string, x, y any) {
		t.Helper()
		jx, _ := json.Marshal(x)
		jy, _ := json.Marshal(y)
		if string(jx) != string(jy) {
			t.Fatalf("%s differs once pruned:\nall:  %.300s\nkept: %.300s", what, jx, jy)
		}
	}
	same("the list of reports", ra, rk)
	rows := 0
	for _, r := range ra {
		if r.Format != reporting.FormatCSV {
			continue
		}
		xa, xk := repRaw(t, all, r), repRaw(t, kept, repFind(t, rk, r.Type, r.Format, r.StartDate))
		if !bytes.Equal(xa, xk) {
			t.Fatalf("report %s from %s differs once pruned: %d and %d bytes", r.Type, r.StartDate.Format(time.DateOnly), len(xa), len(xk))
		}
		rows += bytes.Count(xa, []byte("\n")) - 1
	}
	if rows == 0 {
		t.Fatal("the reports hold no rows")
	}
}

// repRaw downloads report r as it is sent.
func repRaw(t *testing.T, e payEnv, r reporting.Report) []byte {
	t.Helper()
	st, _, body := sandboxtest.Send(t, http.MethodGet, e.srv.Endpoints().Reporting+reporting.PathDownload+r.ID, e.tok, nil)
	if st != http.StatusOK {
		t.Fatalf("download %s: HTTP %d %.200s", r.ID, st, body)
	}
	return body
}

// walletsSame compares the newest page of every wallet's transactions of
// two sandboxes, those created at or after after.
func walletsSame(t *testing.T, a, b *sandbox.Server, after time.Time) {
	t.Helper()
	ta, tb := sandboxtest.WalletToken(t, a, "monitoring"), sandboxtest.WalletToken(t, b, "monitoring")
	var vaults wallet.VaultsPage
	sandboxtest.Get(t, a.Endpoints().Wallet+wallet.PathVaults, ta, &vaults)
	recent := func(srv *sandbox.Server, tok, id string) []wallet.Transaction {
		var page wallet.TransactionsPage
		if st := sandboxtest.Get(t, srv.Endpoints().Wallet+wallet.PathWallets+"/"+id+"/transactions", tok, &page); st != http.StatusOK {
			t.Fatalf("transactions of %s: HTTP %d", id, st)
		}
		var out []wallet.Transaction
		for _, x := range page.Transactions {
			if !x.CreatedAt.Before(after) {
				out = append(out, x)
			}
		}
		return out
	}
	n := 0
	for _, v := range vaults.Vaults {
		var ws wallet.WalletsPage
		sandboxtest.Get(t, a.Endpoints().Wallet+wallet.PathVaults+"/"+v.ID+"/wallets", ta, &ws)
		for _, w := range ws.Wallets {
			xa, xb := recent(a, ta, w.ID), recent(b, tb, w.ID)
			ja, _ := json.Marshal(xa)
			jb, _ := json.Marshal(xb)
			if string(ja) != string(jb) {
				t.Fatalf("recent transactions of wallet %s differ once pruned:\nall:  %.300s\nkept: %.300s", w.ID, ja, jb)
			}
			n += len(xa)
		}
	}
	if n == 0 {
		t.Fatal("no wallet transaction in the kept span")
	}
}
