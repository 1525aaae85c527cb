package sandbox_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/wallet"
)

// walAll reads every wallet (vault id, wallet id) of a sandbox.
func walAll(t *testing.T, srv *sandbox.Server, tok string) [][2]string {
	t.Helper()
	var out [][2]string
	var vaults wallet.VaultsPage
	sandboxtest.Get(t, srv.Endpoints().Wallet+wallet.PathVaults, tok, &vaults)
	for _, v := range vaults.Vaults {
		var ws wallet.WalletsPage
		sandboxtest.Get(t, srv.Endpoints().Wallet+wallet.PathVaults+"/"+v.ID+"/wallets", tok, &ws)
		for _, w := range ws.Wallets {
			out = append(out, [2]string{v.ID, w.ID})
		}
	}
	if len(out) == 0 {
		t.Fatal("no wallets")
	}
	return out
}

// isUnknownRoute reports whether an answer is the wallet's unknown route:
// 404 NOT_FOUND without an ErrorInfo reason.
func isUnknownRoute(st int, body []byte) bool {
	var w apierr.WalletBody
	if json.Unmarshal(body, &w) != nil || st != 404 || w.Code != apierr.GRPCNotFound {
		return false
	}
	for _, d := range w.Details {
		if d.Type == apierr.ErrorInfoType {
			return false
		}
	}
	return true
}

// TestVariantWalletPaths: the default face serves a wallet's sub-resources
// under /v2/wallets/{walletId}/..., the variant only under
// /v2/vaults/{vaultId}/wallets/{walletId}/...; the other form is an unknown
// route. GET of the wallet itself answers in both forms in both faces.
func TestVariantWalletPaths(t *testing.T) {
	def, vr := faces(t)
	tok := sandboxtest.WalletToken(t, def, "monitoring")
	vtok := sandboxtest.WalletToken(t, vr, "monitoring")
	_, w, tx := walRead(t, def)
	flat := wallet.PathWallets + "/" + w.ID
	nested := wallet.PathVaults + "/" + w.VaultID + "/wallets/" + w.ID
	subs := []struct{ method, path string }{
		{"GET", "/balances"}, {"GET", "/transactions"}, {"GET", "/transactions/" + tx.ID},
		{"PUT", "/transactions/" + tx.ID + "/freeze"}, {"PUT", "/transactions/" + tx.ID + "/unfreeze"},
		{"GET", "/transactions/" + tx.ID + "/freeze-history"}, {"PUT", "/settings"}, {"GET", "/policy-rules/limits"},
	}
	for _, face := range []struct {
		name        string
		srv         *sandbox.Server
		tok         string
		serve, skip string
	}{{"default", def, tok, flat, nested}, {"variant", vr, vtok, nested, flat}} {
		base := face.srv.Endpoints().Wallet
		for _, s := range subs {
			var body []byte
			if s.method == "PUT" {
				body = []byte(`{}`)
			}
			st, _, b := sandboxtest.Send(t, s.method, base+face.serve+s.path, face.tok, body)
			if isUnknownRoute(st, b) || (st != 200 && st != 403) {
				t.Fatalf("%s %s %s: HTTP %d %s, want it served (200, or 403 for a MONITORING credential)", face.name, s.method, face.serve+s.path, st, b)
			}
			st, _, b = sandboxtest.Send(t, s.method, base+face.skip+s.path, face.tok, body)
			if !isUnknownRoute(st, b) {
				t.Fatalf("%s %s %s: HTTP %d %s, want 404 without ErrorInfo", face.name, s.method, face.skip+s.path, st, b)
			}
		}
		for _, p := range []string{flat, nested} {
			if st := sandboxtest.Get(t, base+p, face.tok, nil); st != 200 {
				t.Fatalf("%s GET %s: HTTP %d", face.name, p, st)
			}
		}
	}
	// The vault of the path must hold the wallet.
	other := wallet.PathVaults + "/00000000-0000-4000-8000-000000000000/wallets/" + w.ID + "/balances"
	st, _, b := sandboxtest.Send(t, http.MethodGet, vr.Endpoints().Wallet+other, vtok, nil)
	if st != 200 || !strings.Contains(string(b), `"balances":[]`) {
		t.Fatalf("variant balances under another vault: HTTP %d %s, want an empty list (spec 7.2)", st, b)
	}
	st, _, b = sandboxtest.Send(t, http.MethodGet, vr.Endpoints().Wallet+strings.TrimSuffix(other, "/balances")+"/transactions", vtok, nil)
	expectWallet(t, "variant transactions under another vault", st, b, apierr.GRPCNotFound, "ERR009.101")
}

// TestVariantWalletRecords compares every transaction and balance of both
// faces: quantities and balances as JSON numbers, reasons as objects,
// problems' retryable as a string, "" for an absent hash or externalId,
// extras; and the filter parameter refused on transaction lists.
func TestVariantWalletRecords(t *testing.T) {
	def, vr := faces(t)
	tok := sandboxtest.WalletToken(t, def, "monitoring")
	vtok := sandboxtest.WalletToken(t, vr, "monitoring")
	var sawReason, sawProblem, sawNoHash, sawNoExt bool
	for _, vw := range walAll(t, def, tok) {
		flat := def.Endpoints().Wallet + wallet.PathWallets + "/" + vw[1]
		nested := vr.Endpoints().Wallet + wallet.PathVaults + "/" + vw[0] + "/wallets/" + vw[1]
		db := rawObject(t, "GET", flat+"/balances", tok, nil, 200)
		vb := rawObject(t, "GET", nested+"/balances", vtok, nil, 200)
		expectExtras(t, "variant balances", vb, "balances", true)
		for i, b := range objects(t, vb, "balances") {
			for _, k := range []string{"balance", "availableBalance", "pendingBalance", "frozenBalance", "fiatValue"} {
				if n, ok := b[k].(json.Number); !ok || string(n) != objects(t, db, "balances")[i][k] {
					t.Fatalf("balance %s: variant %#v, default %#v", k, b[k], objects(t, db, "balances")[i][k])
				}
			}
		}
		dt := rawObject(t, "GET", flat+"/transactions?"+wallet.QueryPageSize+"=1000", tok, nil, 200)
		vt := rawObject(t, "GET", nested+"/transactions?"+wallet.QueryPageSize+"=1000", vtok, nil, 200)
		expectExtras(t, "default transactions", dt, "transactions", false)
		expectExtras(t, "variant transactions", vt, "transactions", true)
		for i, v := range objects(t, vt, "transactions") {
			d := objects(t, dt, "transactions")[i]
			if n, ok := v["qty"].(json.Number); !ok || string(n) != d["qty"] {
				t.Fatalf("qty: variant %#v, default %#v", v["qty"], d["qty"])
			}
			for _, k := range []string{"hash", "externalId"} {
				if _, has := d[k]; !has {
					sawNoHash = sawNoHash || k == "hash"
					sawNoExt = sawNoExt || k == "externalId"
					if v[k] != "" {
						t.Fatalf("%s absent by default, variant %#v; want \"\"", k, v[k])
					}
				} else if v[k] != d[k] {
					t.Fatalf("%s: variant %#v, default %#v", k, v[k], d[k])
				}
			}
			for j, r := range v["reasons"].([]any) {
				ro, _ := r.(map[string]any)
				msg, _ := d["reasons"].([]any)[j].(string)
				if ro == nil || ro["message"] != msg || ro["code"] == "" || !strings.HasPrefix(msg, ro["code"].(string)) {
					t.Fatalf("reason %d: variant %#v, default %q", j, r, msg)
				}
				sawReason = true
			}
			for j, p := range v["problems"].([]any) {
				dp := d["problems"].([]any)[j].(map[string]any)
				if got, _ := p.(map[string]any)["retryable"].(string); got != strconv.FormatBool(dp["retryable"].(bool)) {
					t.Fatalf("problem %d retryable: variant %#v, default %#v", j, p, dp["retryable"])
				}
				sawProblem = true
			}
		}
	}
	if !sawReason || !sawProblem || !sawNoHash || !sawNoExt {
		t.Fatalf("the world lacks a case: reasons %v, problems %v, no hash %v, no external id %v", sawReason, sawProblem, sawNoHash, sawNoExt)
	}

	// filter on transaction lists: a parser error in the variant.
	_, w, _ := walRead(t, def)
	q := "?" + wallet.QueryFilter + "=" + url.QueryEscape(`status = "CONFIRMED"`)
	if st := sandboxtest.Get(t, def.Endpoints().Wallet+wallet.PathWallets+"/"+w.ID+"/transactions"+q, tok, nil); st != 200 {
		t.Fatalf("default filter: HTTP %d", st)
	}
	st, _, b := sandboxtest.Send(t, http.MethodGet, vr.Endpoints().Wallet+wallet.PathVaults+"/"+w.VaultID+"/wallets/"+w.ID+"/transactions"+q, vtok, nil)
	expectWallet(t, "variant filter", st, b, apierr.GRPCInvalidArgument, "")
	var sweeps wallet.SweepsPage
	sandboxtest.Get(t, vr.Endpoints().Wallet+wallet.PathSweeps, vtok, &sweeps)
	inst := vr.Endpoints().Wallet + wallet.PathSweeps + "/" + sweeps.SweepConfigurations[0].ID + "/instances/00000000-0000-4000-8000-000000000000/transactions"
	st, _, b = sandboxtest.Send(t, http.MethodGet, inst+q, vtok, nil)
	expectWallet(t, "variant filter on sweep-instance transactions", st, b, apierr.GRPCInvalidArgument, "")
	if st := sandboxtest.Get(t, inst, vtok, nil); st != 200 {
		t.Fatalf("variant sweep-instance transactions without filter: HTTP %d", st)
	}
}
