package sandbox_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"treasury/sandbox/contract"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/custody"
	"treasury/wire/payments"
	"treasury/wire/wallet"
)

// sendCT sends body with Content-Type ct (no header when ct is "-") and a
// bearer token (none when empty).
func sendCT(t *testing.T, method, url, tok, ct string, body []byte) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ct != "-" {
		req.Header.Set("Content-Type", ct)
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	req.Header.Set(contract.ProbeHeader, "test") // refused on purpose
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}

// TestSpec7_UnsupportedMediaType checks that a JSON body endpoint refuses a
// body of another type with 415 in its interface's model, and accepts
// application/json with a charset, and a body without Content-Type.
func TestSpec7_UnsupportedMediaType(t *testing.T) {
	e := payStart(t, nil)
	ep := e.srv.Endpoints()
	c := e.srv.Credentials()
	tokenBody, _ := json.Marshal(payments.TokenRequest{GrantType: payments.GrantClientCredential, ClientID: c.PaymentsClientID,
		ClientSecret: c.PaymentsClientSecret, Audience: c.PaymentsAudience})
	type target struct {
		name, method, url, tok string
		body                   []byte
		iface                  apierr.Interface
	}
	_, w, tx := walRead(t, e.srv)
	txTok := sandboxtest.WalletToken(t, e.srv, "transactions")
	var sweeps wallet.SweepsPage
	sandboxtest.Get(t, ep.Wallet+wallet.PathSweeps, txTok, &sweeps)
	if len(sweeps.SweepConfigurations) == 0 {
		t.Fatal("no sweep configuration")
	}
	walletTx := ep.Wallet + wallet.PathWallets + "/" + w.ID + "/transactions"
	targets := []target{
		{"auth token", http.MethodPost, ep.Auth + payments.PathToken, "", tokenBody, apierr.Auth},
		{"filter v3", http.MethodPost, e.base + payments.PathFilterV3, e.tok, []byte(`{"filter":{}}`), apierr.Payments},
		{"create payment", http.MethodPost, e.base + payments.PathPayments, e.tok, []byte(`{}`), apierr.Payments},
		{"wallet token", http.MethodPost, ep.Wallet + wallet.PathToken, "", []byte(`{"clientId":"monitoring","clientSecret":"monitoring-secret"}`), apierr.Wallet},
		{"freeze", http.MethodPut, walletTx + "/" + tx.ID + "/freeze", txTok, []byte(`{"reason":"x","mutationId":"00000000-0000-4000-8000-000000000001"}`), apierr.Wallet},
		{"sweep trigger", http.MethodPost, ep.Wallet + wallet.PathSweeps + "/" + sweeps.SweepConfigurations[0].ID + "/trigger", txTok, []byte(`{}`), apierr.Wallet},
		{"custody intent", http.MethodPost, ep.Custody + custody.PathIntents, c.CustodyToken, []byte(`{}`), apierr.Custody},
	}
	for _, tg := range targets {
		for _, ct := range []string{"text/plain", "application/xml", "application/json; charset=latin1"} {
			st, _, b := sendCT(t, tg.method, tg.url, tg.tok, ct, tg.body)
			switch tg.iface {
			case apierr.Auth:
				var oe sandboxtest.PayErr
				if json.Unmarshal(b, &oe); st != 415 || oe.OAuth != "invalid_request" || !strings.Contains(oe.OAuthDescription, "Content-Type") {
					t.Fatalf("%s as %s: HTTP %d %s, want 415 invalid_request naming the Content-Type", tg.name, ct, st, b)
				}
			case apierr.Payments:
				expectPayments(t, tg.name+" as "+ct, st, b, 415, "USR_010", apierr.TypeUser)
			case apierr.Wallet:
				var wb apierr.WalletBody
				if json.Unmarshal(b, &wb); st != 415 || wb.Code != apierr.GRPCInvalidArgument || wb.Message == "" || len(wb.Details) != 1 || wb.Details[0].RequestID == "" {
					t.Fatalf("%s as %s: HTTP %d %s, want a wallet 415", tg.name, ct, st, b)
				}
			default:
				sandboxtest.ExpectPlain(t, tg.name+" as "+ct, st, b, 415)
			}
		}
		for _, ct := range []string{"application/json; charset=utf-8", "Application/JSON", "-"} {
			st, _, b := sendCT(t, tg.method, tg.url, tg.tok, ct, tg.body)
			// The payments document takes only a typed JSON body; the spec's
			// other interfaces read an untyped body as JSON (and so does the
			// variant face of payments).
			documented := tg.iface == apierr.Payments || tg.iface == apierr.Auth
			if st == 415 && (ct != "-" || !documented) || ct == "-" && documented && st != 415 {
				t.Fatalf("%s as %s: HTTP %d %s", tg.name, ct, st, b)
			}
		}
	}
	// The token endpoint also takes a form body (api-choices).
	form := []byte("grant_type=client_credentials&client_id=" + c.PaymentsClientID + "&client_secret=" + c.PaymentsClientSecret + "&audience=" + c.PaymentsAudience)
	if st, _, b := sendCT(t, http.MethodPost, ep.Auth+payments.PathToken, "", "application/x-www-form-urlencoded", form); st != 200 {
		t.Fatalf("form token: HTTP %d %s", st, b)
	}
}
