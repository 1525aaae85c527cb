package sandbox_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/wallet"
)

// typeValidation is the error type the document gives a request that fails
// validation (USR_001).
const typeValidation = "USER_VALIDATION_ERROR"

// ledgerWindow is the dated window the document requires of every ledger
// read.
const ledgerWindow = "&start-dttm=2026-01-01T00:00:00Z&end-dttm=2027-01-01T00:00:00Z"

// expectPayments fails unless an answer is a payments error (in whichever
// shape the operation answers it) of status and code, with type and
// timestamp.
func expectPayments(t *testing.T, what string, status int, body []byte, wantStatus int, wantCode, wantType string) sandboxtest.PayErr {
	t.Helper()
	var e sandboxtest.PayErr
	if err := json.Unmarshal(body, &e); err != nil || status != wantStatus || e.Status != wantStatus ||
		e.Code != wantCode || e.Type != wantType || e.Timestamp == "" {
		t.Fatalf("%s: HTTP %d %.300s, want a payments error %d %s %s", what, status, body, wantStatus, wantCode, wantType)
	}
	return e
}

// expectWallet fails unless an answer is the wallet error object of a gRPC
// code with the ErrorInfo reason (none when reason is "") and a RequestInfo.
func expectWallet(t *testing.T, what string, status int, body []byte, wantCode int, reason string) {
	t.Helper()
	var w apierr.WalletBody
	if err := json.Unmarshal(body, &w); err != nil || w.Code != wantCode || status != apierr.GRPCHTTPStatus(wantCode) {
		t.Fatalf("%s: HTTP %d %.300s, want gRPC %d", what, status, body, wantCode)
	}
	gotReason, reqID := "", ""
	for _, d := range w.Details {
		switch d.Type {
		case apierr.ErrorInfoType:
			gotReason = d.Reason
		case apierr.RequestInfoType:
			reqID = d.RequestID
		}
	}
	if gotReason != reason || reqID == "" {
		t.Fatalf("%s: %.300s, want reason %q and a requestId", what, body, reason)
	}
}

// walRead is a MONITORING token and a wallet that has transactions, with
// one of them.
func walRead(t *testing.T, srv *sandbox.Server) (tok string, w wallet.Wallet, tx wallet.Transaction) {
	t.Helper()
	tok = sandboxtest.WalletToken(t, srv, "monitoring")
	base := srv.Endpoints().Wallet
	var vaults wallet.VaultsPage
	sandboxtest.Get(t, base+wallet.PathVaults, tok, &vaults)
	for _, v := range vaults.Vaults {
		var ws wallet.WalletsPage
		sandboxtest.Get(t, base+wallet.PathVaults+"/"+v.ID+"/wallets", tok, &ws)
		for _, w := range ws.Wallets {
			var txs wallet.TransactionsPage
			sandboxtest.Get(t, base+wallet.PathWallets+"/"+w.ID+"/transactions", tok, &txs)
			if len(txs.Transactions) > 1 {
				return tok, w, txs.Transactions[0]
			}
		}
	}
	t.Fatal("no wallet with transactions")
	return "", wallet.Wallet{}, wallet.Transaction{}
}

// TestSpec8_PageSizeAboveMaximum checks spec 4.3 rule 3 on every list whose
// maximum the spec gives: each answers 400 in its interface's error model,
// and the maximum itself is accepted.
func TestSpec8_PageSizeAboveMaximum(t *testing.T) {
	e := payStart(t, nil)
	var origID, benID string
	var ids payments.IdentitiesPage
	sandboxtest.Get(t, e.base+payments.PathIdentities+"?limit=100", e.tok, &ids)
	for _, id := range ids.Data {
		switch id.PaymentRole {
		case payments.RoleOriginator:
			origID = id.IdentityID
		case payments.RoleBeneficiary:
			benID = id.IdentityID
		}
	}
	if origID == "" || benID == "" {
		t.Fatal("no originator or beneficiary among the first identities")
	}
	payGets := map[string]string{
		"identities limit":                          payments.PathIdentities + "?limit=",
		"beneficiary instruments limit":             payments.PathIdentities + "/" + benID + payments.SuffixInstruments + "?limit=",
		"originator instruments limit":              payments.PathIdentities + "/" + origID + payments.SuffixInstruments + "?limit=",
		"ledger page-size":                          payments.PathLedger + "?currency=USD" + ledgerWindow + "&page-size=",
		"ledger page-size (max 50, not identities)": payments.PathLedger + "?currency=EUR" + ledgerWindow + "&page-size=",
	}
	for name, path := range payGets {
		over, max := "101", "100"
		if strings.HasPrefix(name, "ledger") {
			over, max = "51", "50"
		}
		st, _, b := sandboxtest.Send(t, http.MethodGet, e.base+path+over, e.tok, nil)
		expectPayments(t, name+" "+over, st, b, 400, "USR_001", typeValidation)
		// An originator holds no instruments: the document's 404 "No
		// identity or financial instruments found", once the limit is valid.
		want := 200
		if strings.HasPrefix(name, "originator") {
			want = 404
		}
		if st, _, b := sandboxtest.Send(t, http.MethodGet, e.base+path+max, e.tok, nil); st != want {
			t.Fatalf("%s %s: HTTP %d %.200s, want %d", name, max, st, b, want)
		}
	}
	for _, v := range []string{"/v3/payments/filter"} {
		st, _, b := sandboxtest.Send(t, http.MethodPost, e.base+v, e.tok, []byte(`{"filter":{},"page":{"size":101}}`))
		expectPayments(t, v+" page.size 101", st, b, 400, "USR_001", typeValidation)
		if st, _, _ := sandboxtest.Send(t, http.MethodPost, e.base+v, e.tok, []byte(`{"filter":{},"page":{"size":100}}`)); st != 200 {
			t.Fatalf("%s page.size 100: HTTP %d", v, st)
		}
	}

	tok, w, tx := walRead(t, e.srv)
	wb := e.srv.Endpoints().Wallet
	walGets := map[string]string{
		"vaults":         wallet.PathVaults + "?" + wallet.QueryPageSize + "=",
		"wallets":        wallet.PathVaults + "/" + w.VaultID + "/wallets?" + wallet.QueryPageSize + "=",
		"transactions":   wallet.PathWallets + "/" + w.ID + "/transactions?" + wallet.QueryPageSize + "=",
		"balances":       wallet.PathWallets + "/" + w.ID + "/balances?" + wallet.QueryPageSize + "=",
		"counterparties": wallet.PathCounterparties + "?" + wallet.QueryPageSize + "=",
		"freeze history": wallet.PathWallets + "/" + w.ID + "/transactions/" + tx.ID + "/freeze-history?" + wallet.QueryTopPageSize + "=",
	}
	for name, path := range walGets {
		over, max := "1001", "1000"
		if name == "freeze history" {
			over, max = "101", "100"
		}
		st, _, b := sandboxtest.Send(t, http.MethodGet, wb+path+over, tok, nil)
		expectWallet(t, name+" "+over, st, b, apierr.GRPCInvalidArgument, "ERR000.020")
		if st, _, b := sandboxtest.Send(t, http.MethodGet, wb+path+max, tok, nil); st != 200 {
			t.Fatalf("wallet %s %s: HTTP %d %.200s", name, max, st, b)
		}
	}
}

// TestSpec4_3_LedgerPageSizeRequired: page-size is required on the ledger.
func TestSpec4_3_LedgerPageSizeRequired(t *testing.T) {
	e := payStart(t, nil)
	for _, q := range []url.Values{{"currency": {"USD"}}, {"currency": {"USD"}, "offset": {"0"}}, {"currency": {"USD"}, "page-size": {""}}} {
		st, _, b := sandboxtest.Send(t, http.MethodGet, e.base+payments.PathLedger+"?"+q.Encode()+ledgerWindow, e.tok, nil)
		pe := expectPayments(t, "ledger "+q.Encode(), st, b, 400, "USR_001", typeValidation)
		if !strings.Contains(pe.Description, "page-size") {
			t.Fatalf("ledger %s: description %q does not name page-size", q.Encode(), pe.Description)
		}
	}
	// The document also requires a dated window: start-dttm and end-dttm.
	for _, missing := range []string{"start-dttm", "end-dttm"} {
		q := url.Values{"currency": {"USD"}, "page-size": {"10"}, "start-dttm": {"2026-01-01T00:00:00Z"}, "end-dttm": {"2027-01-01T00:00:00Z"}}
		q.Del(missing)
		st, _, b := sandboxtest.Send(t, http.MethodGet, e.base+payments.PathLedger+"?"+q.Encode(), e.tok, nil)
		if pe := expectPayments(t, "ledger without "+missing, st, b, 400, "USR_001", typeValidation); !strings.Contains(pe.Description, missing) {
			t.Fatalf("ledger without %s: description %q does not name it", missing, pe.Description)
		}
	}
}
