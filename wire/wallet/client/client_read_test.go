package client_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/wallet"
	"treasury/wire/wallet/client"
)

func ids[T any](xs []T, id func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = id(x)
	}
	return out
}

func txID(t wallet.Transaction) string { return t.ID }

func TestVaultsWalletsBalances(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	// The token exchange of auth.NewWallet, as the dashboard does it.
	f := e.with(t, auth.NewWallet(auth.WalletConfig{BaseURL: e.srv.Endpoints().Wallet,
		ClientID: "transactions", ClientSecret: auth.NewSecret(e.secret(t, "transactions"))}))
	vs, err := f.c.Vaults(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 4 {
		t.Fatalf("%d vaults, want the 4 seeded", len(vs))
	}
	all, err := f.c.Wallets(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var perVault []wallet.Wallet
	for _, v := range vs {
		ws, err := f.c.Wallets(ctx, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ws {
			if w.VaultID != v.ID {
				t.Errorf("wallet %s of vault %s listed under %s", w.ID, w.VaultID, v.ID)
			}
		}
		perVault = append(perVault, ws...)
	}
	wid := func(w wallet.Wallet) string { return w.ID }
	if len(all) != 13 || !slices.Equal(ids(all, wid), ids(perVault, wid)) {
		t.Fatalf("Wallets(\"\") gave %d wallets, vault by vault %d", len(all), len(perVault))
	}
	small, err := f.c.WithPageSize(2).Wallets(ctx, "")
	if err != nil || !slices.Equal(ids(small, wid), ids(all, wid)) {
		t.Fatalf("pages of 2: %d wallets (%v), want the same %d", len(small), err, len(all))
	}
	one, err := f.c.Wallet(ctx, all[0].ID)
	if err != nil || one.ID != all[0].ID || one.Name != all[0].Name || one.Blockchain == "" {
		t.Fatalf("Wallet(%s) = %+v, %v", all[0].ID, one, err)
	}
	bs, err := f.c.Balances(ctx, "", all[0].ID)
	if err != nil || len(bs) == 0 {
		t.Fatalf("balances of %s: %d, %v", all[0].Name, len(bs), err)
	}
	for _, b := range bs {
		if b.Asset.Symbol == "" || b.Asset.Blockchain != all[0].Blockchain || b.Balance.IsNegative() {
			t.Errorf("balance %+v", b)
		}
	}
	if bs, err := f.c.Balances(ctx, "", "00000000-0000-4000-8000-000000000000"); err != nil || len(bs) != 0 {
		t.Errorf("balances of a missing wallet: %d, %v; want none", len(bs), err)
	}
	_, err = f.c.Wallet(ctx, "00000000-0000-4000-8000-000000000000")
	wantWalletErr(t, err, http.StatusNotFound, apierr.GRPCNotFound, "ERR009.101", apierr.ClassNotFound)
}

func TestTransactionsEveryPageAndFilter(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "monitoring")
	all := f.transactions(t)
	if len(all) < 100 {
		t.Fatalf("%d transactions: want the seeded hundreds", len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i].CreatedAt.After(all[i-1].CreatedAt) {
			t.Fatalf("transaction %d newer than %d: not newest first", i, i-1)
		}
	}
	small, err := f.c.WithPageSize(7).Transactions(ctx, wallet.ListFilter{})
	if err != nil || !slices.Equal(ids(small, txID), ids(all, txID)) {
		t.Fatalf("pages of 7: %d transactions (%v), want the same %d", len(small), err, len(all))
	}
	paged := len(f.sent.all()) // an index into the requests, not a count of GETs
	w := all[0].WalletID
	mine, err := f.c.WithPageSize(5).Transactions(ctx, wallet.ListFilter{WalletID: w, OrderBy: "created_at desc"})
	if err != nil || len(mine) < 6 {
		t.Fatalf("wallet %s: %d transactions, %v; want more than one page of 5", w, len(mine), err)
	}
	gets := 0
	for _, r := range f.sent.all()[paged:] {
		if r.method == http.MethodGet {
			gets++
		}
	}
	if want := (len(mine) + 4) / 5; gets < want {
		t.Errorf("wallet of %d transactions in pages of 5: %d requests, want at least %d", len(mine), gets, want)
	}
	for _, x := range mine {
		if x.WalletID != w {
			t.Fatalf("transaction %s of wallet %s in the list of %s", x.ID, x.WalletID, w)
		}
	}
	failed, err := f.c.Transactions(ctx, wallet.ListFilter{Status: wallet.TxFailed})
	if err != nil || len(failed) == 0 {
		t.Fatalf("FAILED: %d, %v", len(failed), err)
	}
	for _, x := range failed {
		if x.Status != wallet.TxFailed || len(x.Problems) != 0 || len(x.Reasons) == 0 {
			t.Errorf("FAILED filter gave %s %s problems %d reasons %d", x.ID, x.Status, len(x.Problems), len(x.Reasons))
		}
	}
	before := len(f.sent.all())
	asc, err := f.c.WithPageSize(5).Transactions(ctx, wallet.ListFilter{WalletID: w, OrderBy: "created_at"})
	if err != nil || len(asc) != len(mine) || asc[0].ID != mine[len(mine)-1].ID {
		t.Fatalf("created_at ascending: %d (%v), want %d oldest first", len(asc), err, len(mine))
	}
	if got, want := len(f.sent.all())-before, (len(mine)+4)/5; got != want {
		t.Errorf("%d transactions oldest first in pages of 5: %d requests, want %d", len(asc), got, want)
	}
	_, err = f.c.Transactions(ctx, wallet.ListFilter{WalletID: w, OrderBy: "createdAt"})
	wantWalletErr(t, err, http.StatusBadRequest, apierr.GRPCInvalidArgument, "ERR000.020", apierr.ClassFixRequest)

	// A client that has seen nothing finds the wallet of a transaction.
	fresh := e.static(t, "monitoring")
	got, err := fresh.c.Transaction(ctx, all[10].ID)
	if err != nil || got.ID != all[10].ID || got.WalletID != all[10].WalletID || !got.Qty.Equal(all[10].Qty) {
		t.Fatalf("Transaction(%s) = %+v, %v", all[10].ID, got, err)
	}
	if _, err := fresh.c.Transaction(ctx, "00000000-0000-4000-8000-000000000000"); !errors.Is(err, client.ErrTxNotVisible) {
		t.Fatalf("unknown transaction: %v, want ErrTxNotVisible", err)
	}
}

func TestAddressBookWebhooksSweepsPolicies(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "transactions")
	cps, err := f.c.Counterparties(ctx)
	if err != nil || len(cps) == 0 {
		t.Fatalf("counterparties: %d, %v", len(cps), err)
	}
	addrs, err := f.c.Addresses(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, cp := range cps {
		as, err := f.c.Addresses(ctx, cp.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range as {
			if a.CounterpartyID != cp.ID || len(a.Blockchains) == 0 || a.Address == "" {
				t.Errorf("address %+v of counterparty %s", a, cp.ID)
			}
		}
		n += len(as)
	}
	if n == 0 || len(addrs) != n {
		t.Fatalf("Addresses(\"\") %d, per counterparty %d", len(addrs), n)
	}
	hs, err := f.c.Webhooks(ctx)
	if err != nil || len(hs) == 0 {
		t.Fatalf("webhooks: %d, %v", len(hs), err)
	}
	subs, err := f.c.Subscriptions(ctx)
	if err != nil || len(subs) == 0 {
		t.Fatalf("subscriptions: %d, %v", len(subs), err)
	}
	hooks := map[string]bool{}
	for _, h := range hs {
		hooks[h.ID] = true
	}
	for _, s := range subs {
		if !hooks[s.WebhookID] || s.Domain == "" {
			t.Errorf("subscription %+v", s)
		}
	}
	sw, err := f.c.Sweeps(ctx)
	if err != nil || len(sw) != 3 {
		t.Fatalf("sweeps: %d, %v; want the 3 seeded", len(sw), err)
	}

	// Policy rules and limits need CONTROLS with policy:* and keylimit:*.
	_, err = f.c.Policies(ctx)
	wantWalletErr(t, err, http.StatusForbidden, apierr.GRPCPermissionDenied, "ERR000.002", apierr.ClassForbidden)
	_, err = f.c.Limits(ctx, "")
	wantWalletErr(t, err, http.StatusForbidden, apierr.GRPCPermissionDenied, "ERR000.002", apierr.ClassForbidden)
	f.noRetries(t, "403 retried: %d waits")
	ctl := e.static(t, "controls")
	rules, err := ctl.c.Policies(ctx)
	if err != nil || len(rules) == 0 {
		t.Fatalf("policy rules: %d, %v", len(rules), err)
	}
	limits, err := ctl.c.Limits(ctx, "")
	if err != nil || len(limits) == 0 {
		t.Fatalf("limits: %d, %v", len(limits), err)
	}
	w := limits[0].WalletID
	mine, err := ctl.c.Limits(ctx, w)
	if err != nil || len(mine) == 0 {
		t.Fatalf("limits of wallet %s: %d, %v", w, len(mine), err)
	}
	for _, l := range mine {
		if l.WalletID != w || l.LimitType == "" || len(l.Matchers) == 0 {
			t.Errorf("limit %+v of wallet %s", l, w)
		}
	}
}

// A webhook deleted between the list and its subscriptions counts as
// having none; the others' subscriptions are still read.
func TestSubscriptionsOfAWebhookGoneMeanwhile(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "monitoring")
	before, err := f.c.Subscriptions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	hs, err := f.c.Webhooks(ctx)
	if err != nil || len(hs) < 2 {
		t.Fatalf("webhooks: %d, %v; want two or more", len(hs), err)
	}
	victim := hs[0].ID
	ctlToken := sandboxtest.WalletToken(t, e.srv, "controls")
	f.sent.rewrite = func(r *http.Request, resp *http.Response) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, wallet.PathWebhooks) {
			sandboxtest.Do(t, http.MethodDelete, e.srv.Endpoints().Wallet+wallet.PathWebhooks+"/"+victim, ctlToken, nil, nil)
		}
	}
	after, err := f.c.Subscriptions(ctx)
	if err != nil {
		t.Fatalf("subscriptions with a webhook gone: %v", err)
	}
	want := 0
	for _, s := range before {
		if s.WebhookID != victim {
			want++
		}
	}
	if len(after) != want || want == len(before) {
		t.Fatalf("%d subscriptions, want %d (of %d, less those of the deleted webhook)", len(after), want, len(before))
	}
}

// TestVaultsPage reads one page, of the size asked for, with the token of
// the next; sizes outside 1..MaxPageSize are clamped.
func TestVaultsPage(t *testing.T) {
	e := newEnv(t)
	f := e.static(t, "monitoring")
	ctx := context.Background()
	pg, err := f.c.VaultsPage(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(pg.Items) != 1 || pg.Next == "" {
		t.Fatalf("page of 1: %d vaults, next %q; want 1 and a token (4 are seeded)", len(pg.Items), pg.Next)
	}
	pg, err = f.c.VaultsPage(ctx, 0)
	if err != nil || len(pg.Items) != 1 {
		t.Fatalf("page of 0 (clamped to 1): %d vaults, %v", len(pg.Items), err)
	}
	pg, err = f.c.VaultsPage(ctx, wallet.MaxPageSize+1)
	if err != nil || len(pg.Items) != 4 || pg.Next != "" {
		t.Fatalf("page of %d: %d vaults, next %q, %v", wallet.MaxPageSize+1, len(pg.Items), pg.Next, err)
	}
	if n := len(f.sent.all()); n != 3 {
		t.Errorf("%d requests, want one per page", n)
	}
}
