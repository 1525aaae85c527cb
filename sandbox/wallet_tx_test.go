package sandbox_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/wallet"
)

// walTokens are tokens of the sandbox's TRANSACTIONS and MONITORING
// credentials.
func walTokens(t *testing.T, srv *sandbox.Server) (tx, read string) {
	t.Helper()
	var txClient, readClient string
	for _, c := range srv.Credentials().Wallet {
		switch strings.ToUpper(c.Type) {
		case wallet.CredTransactions:
			txClient = c.ClientID
		case wallet.CredMonitoring:
			readClient = c.ClientID
		}
	}
	return sandboxtest.WalletToken(t, srv, txClient), sandboxtest.WalletToken(t, srv, readClient)
}

// walTxEnv finds a provisioned wallet on chain and a transactions token.
func walTxEnv(t *testing.T, srv *sandbox.Server, chain string) (base, tok string, w wallet.Wallet) {
	t.Helper()
	tok, read := walTokens(t, srv)
	var vaults wallet.VaultsPage
	if st := sandboxtest.Get(t, srv.Endpoints().Wallet+wallet.PathVaults, read, &vaults); st != http.StatusOK {
		t.Fatalf("vaults: HTTP %d", st)
	}
	for _, v := range vaults.Vaults {
		var ws wallet.WalletsPage
		if st := sandboxtest.Get(t, srv.Endpoints().Wallet+wallet.PathVaults+"/"+v.ID+"/wallets", read, &ws); st != http.StatusOK {
			t.Fatalf("wallets of %s: HTTP %d", v.ID, st)
		}
		for _, w := range ws.Wallets {
			if w.Blockchain == chain && w.Status == wallet.WalletProvisioned {
				return srv.Endpoints().Wallet + wallet.PathWallets + "/" + w.ID, tok, w
			}
		}
	}
	t.Fatalf("no provisioned %s wallet", chain)
	return "", "", wallet.Wallet{}
}

// walPost posts body to url and returns the status and the wallet error's
// reason; a 200 answer is decoded into out (when not nil).
func walPost(t *testing.T, url, tok string, body, out any) (int, string) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	st, _, answer := sandboxtest.Send(t, http.MethodPost, url, tok, b)
	if st != http.StatusOK {
		return st, apierr.Parse(apierr.Wallet, http.MethodPost, "", st, answer).Code
	}
	if out != nil {
		if err := json.Unmarshal(answer, out); err != nil {
			t.Fatalf("POST %s: %v", url, err)
		}
	}
	return st, ""
}

func TestWalletTransactionsCreate(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	base, tok, w := walTxEnv(t, srv, "ETHEREUM")
	evmAddr := "0x" + strings.Repeat("ab", 20)
	for _, c := range []struct {
		name, path string
		body       any
		status     int
		reason     string
	}{
		{"transfer without qty", "/transactions", wallet.TransferRequest{Asset: "ETH", DestinationAddress: evmAddr}, 400, "ERR000.020"},
		{"transfer of a negative qty", "/transactions", wallet.TransferRequest{Asset: "ETH", DestinationAddress: evmAddr, Qty: "-1"}, 400, "ERR000.020"},
		{"transfer to a bad address", "/transactions", wallet.TransferRequest{Asset: "ETH", DestinationAddress: "nope", Qty: "1"}, 400, "ERR000.012"},
		{"empty raw", "/transactions/raw", wallet.RawTransactionRequest{RawTransaction: "  "}, 400, "ERR000.020"},
		{"raw not RLP", "/transactions/raw", wallet.RawTransactionRequest{RawTransaction: "0x" + strings.Repeat("50", 12)}, 400, "ERR010.011"},
	} {
		if st, reason := walPost(t, base+c.path, tok, c.body, nil); st != c.status || reason != c.reason {
			t.Errorf("%s: HTTP %d %s, want %d %s", c.name, st, reason, c.status, c.reason)
		}
	}

	// An unknown destination is accepted as REQUESTED; the same external id
	// again answers the same transaction.
	req := wallet.TransferRequest{Asset: "ETH", DestinationAddress: evmAddr, Qty: "0.5", ExternalID: "ext-1"}
	var first, again wallet.Transaction
	if st, reason := walPost(t, base+"/transactions", tok, req, &first); st != 200 {
		t.Fatalf("transfer: HTTP %d %s", st, reason)
	}
	walPost(t, base+"/transactions", tok, req, &again)
	if first.ID == "" || first.Status != wallet.TxRequested || first.ExternalID != "ext-1" || again.ID != first.ID || first.WalletID != w.ID {
		t.Fatalf("transfer %+v, again %+v", first, again)
	}
	var raw wallet.Transaction
	rreq := wallet.RawTransactionRequest{RawTransaction: "0x02" + strings.Repeat("ab", 12), ExternalID: "ext-raw"}
	if st, reason := walPost(t, base+"/transactions/raw", tok, rreq, &raw); st != 200 || raw.Action != wallet.TxActionRaw || raw.ID == first.ID {
		t.Fatalf("raw: HTTP %d %s %+v", st, reason, raw)
	}
	var fee wallet.FeeEstimate
	if st, reason := walPost(t, base+"/transactions/estimate-fee", tok, wallet.TransferRequest{Asset: "ETH"}, &fee); st != 200 || fee.Asset != "ETH" || fee.Fee.String() != "0.00042" {
		t.Fatalf("fee: HTTP %d %s %+v", st, reason, fee)
	}
}
