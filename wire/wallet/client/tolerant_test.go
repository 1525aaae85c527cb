package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/wallet"
	"treasury/wire/wallet/client"
)

// answer replaces resp with status and body.
func answer(resp *http.Response, status int, body string) {
	resp.Body.Close()
	resp.StatusCode = status
	resp.Body = io.NopCloser(strings.NewReader(body))
	resp.Header.Set("Content-Type", "application/json")
}

// TestOneWalletFailingDoesNotBlankTheOthers: one wallet's transactions
// answer 403; the others are returned beside a *wire.Partial naming it.
func TestOneWalletFailingDoesNotBlankTheOthers(t *testing.T) {
	e := newEnv(t)
	f := e.static(t, "monitoring")
	all := f.transactions(t)
	bad := all[0].WalletID
	f.sent.rewrite = func(r *http.Request, resp *http.Response) {
		if strings.Contains(r.URL.Path, bad) && strings.HasSuffix(r.URL.Path, "/transactions") {
			answer(resp, 403, `{"code":7,"message":"denied","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"ERR000.002","domain":"d","metadata":{}}]}`)
		}
	}
	got, err := f.c.Transactions(context.Background(), wallet.ListFilter{})
	var part *wire.Partial
	if !errors.As(err, &part) || len(part.Failed) != 1 || part.Of < 2 {
		t.Fatalf("err %v: want a partial read naming one wallet", err)
	}
	want := 0
	for _, x := range all {
		if x.WalletID != bad {
			want++
		}
	}
	if len(got) != want || want == 0 {
		t.Fatalf("%d transactions, want the %d of the other wallets", len(got), want)
	}
	if !strings.Contains(err.Error(), "ERR000.002") || !strings.HasPrefix(part.Failed[0].Name, "wallet ") {
		t.Fatalf("partial %v", err)
	}
}

// TestVaultFormOfWalletPaths: the variant serves the per-wallet paths only
// under /v2/vaults/{vaultId}/wallets/{walletId} (the other legal reading of
// the spec's `...`) and answers the short form with a 404 without a
// reason; the client moves to the vault form once and keeps to it, and
// reads records whose open fields have other shapes (reasons as objects,
// retryable as a string).
func TestVaultFormOfWalletPaths(t *testing.T) {
	e := variantEnv(t)
	f := e.static(t, "transactions")
	ctx := context.Background()
	all := f.transactions(t)
	shortForm := func() int {
		n := 0
		for _, r := range f.sent.all() {
			if strings.HasPrefix(r.path, "/wallet/v2/wallets/") && strings.Count(r.path, "/") > 4 {
				n++
			}
		}
		return n
	}
	before := shortForm()
	if before == 0 || before > client.Concurrency {
		t.Fatalf("%d requests in the short form, want at most one per wallet read at once (%d)", before, client.Concurrency)
	}
	tx := pick(t, all, "freezable", freezable)
	got, err := f.c.Freeze(ctx, client.RefOf(tx), "vault form", client.NewMutationID())
	if err != nil || !got.FreezeInfo.IsFrozen {
		t.Fatalf("freeze through the vault form: %v", err)
	}
	if _, err := f.c.Balances(ctx, tx.VaultID, tx.WalletID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.c.FreezeHistory(ctx, client.RefOf(tx)); err != nil {
		t.Fatal(err)
	}
	if n := shortForm(); n != before {
		t.Fatalf("%d requests in the short form after the move, %d before", n, before)
	}
	withReasons := 0
	for _, x := range all {
		if len(x.Reasons) > 0 {
			withReasons++
			if strings.HasPrefix(x.Reasons[0], "{") {
				t.Fatalf("reason read as raw JSON: %q", x.Reasons[0])
			}
		}
	}
	if withReasons == 0 {
		t.Fatal("no transaction with reasons: the test proves nothing about their shape")
	}
	// A wallet that really does not exist is still not found (the reason
	// code says so): it is not taken for a missing route.
	_, err = f.c.Transactions(ctx, wallet.ListFilter{WalletID: "00000000-0000-4000-8000-000000000000"})
	if apierr.ClassOf(err) != apierr.ClassNotFound {
		t.Fatalf("unknown wallet: %v", err)
	}
}

// TestFreezeReadsOnlyItsTarget: a freeze of a transaction whose record the
// caller holds sends the freeze and nothing else.
func TestFreezeReadsOnlyItsTarget(t *testing.T) {
	e := newEnv(t)
	reader := e.static(t, "monitoring")
	tx := pick(t, reader.transactions(t), "freezable", freezable)
	f := e.static(t, "transactions") // a fresh client: it has read nothing
	if _, err := f.c.Freeze(context.Background(), client.RefOf(tx), "review", client.NewMutationID()); err != nil {
		t.Fatal(err)
	}
	// The transaction itself is read (where the freeze goes), then the
	// freeze is sent: no list of any wallet, and one freeze.
	reqs := f.sent.all()
	if len(reqs) != 2 || reqs[0].method != http.MethodGet || !strings.HasSuffix(reqs[0].path, "/transactions/"+tx.ID) ||
		reqs[1].method != http.MethodPut || !strings.HasSuffix(reqs[1].path, "/transactions/"+tx.ID+"/freeze") {
		t.Fatalf("requests %v: want the transaction read, then its freeze", reqs)
	}
}

// TestRefusedFilterIsAppliedLocally: a server that does not take the
// filter parameter answers 400 without a reason; the client reads the
// plain list and selects locally, and does not send the filter again.
func TestRefusedFilterIsAppliedLocally(t *testing.T) {
	e := newEnv(t)
	f := e.static(t, "monitoring")
	all := f.transactions(t)
	w := all[0].WalletID
	filtered := 0
	f.sent.rewrite = func(r *http.Request, resp *http.Response) {
		if r.URL.Query().Has(wallet.QueryFilter) {
			filtered++
			answer(resp, 400, `{"code":3,"message":"invalid query parameter \"filter\""}`)
		}
	}
	status := all[0].Status
	for range 2 {
		got, err := f.c.Transactions(context.Background(), wallet.ListFilter{WalletID: w, Status: status})
		if err != nil || len(got) == 0 {
			t.Fatalf("%d, %v", len(got), err)
		}
		for _, x := range got {
			if x.Status != status || x.WalletID != w {
				t.Fatalf("transaction %s %s of %s selected", x.ID, x.Status, x.WalletID)
			}
		}
	}
	if filtered != 1 {
		t.Fatalf("the filter was sent %d times, want once", filtered)
	}
}
