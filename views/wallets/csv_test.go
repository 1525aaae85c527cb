package wallets_test

import (
	"testing"

	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/views/wallets"
)

// TestWalletsCSVsAreData: the vaults', a vault's wallets' and the
// transactions' CSVs (all of them, and one wallet's) hold the records'
// fields: quantities exact apart from their asset, ISO 8601 UTC times,
// a setting or a freeze as true or false, counts as numbers, no glyphs.
func TestWalletsCSVsAreData(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	v := wallets.New(e.Ctx, e.P, e.Actor)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))

	vaults := viewtest.ReadCSV(t, ui.CSVOf(v))
	vaults.HasHeader(t, "vault_id", "name", "description", "created_at", "wallets", "provisioned_wallets",
		"transactions", "frozen_transactions")
	if len(vaults.Rows) == 0 {
		t.Fatal("no vaults")
	}
	r := vaults.Rows[0]
	viewtest.Time(t, "vault created_at", r["created_at"], false)
	if r["wallets"] == "" || r["wallets"] == "0" || r["name"] == "" {
		t.Errorf("first vault %v: want its name and its wallets counted", r)
	}
	vaults.Plain(t)

	viewtest.Drive(v, v.Update(viewtest.Key("enter")))
	ws := viewtest.ReadCSV(t, ui.CSVOf(v))
	ws.HasHeader(t, "wallet_id", "name", "vault_id", "blockchain", "status", "enabled", "raw_signing_enabled",
		"sweeping_enabled", "default_freeze_enabled", "transactions", "frozen_transactions", "address", "quorum_id", "created_at")
	if len(ws.Rows) == 0 {
		t.Fatal("no wallets")
	}
	for _, w := range ws.Rows {
		if w["enabled"] != "true" && w["enabled"] != "false" {
			t.Errorf("enabled = %q", w["enabled"])
		}
		viewtest.Time(t, "wallet created_at", w["created_at"], false)
		if w["vault_id"] != r["vault_id"] {
			t.Errorf("wallet of vault %q in the CSV of %q", w["vault_id"], r["vault_id"])
		}
	}
	ws.Plain(t)

	viewtest.Drive(v, v.Update(viewtest.Key("enter"))) // the first wallet's transactions
	checkTxs(t, viewtest.ReadCSV(t, ui.CSVOf(v)), ws.Rows[0]["wallet_id"])

	viewtest.Drive(v, v.Update(ui.Open{View: "wallets", Args: []string{"transactions"}}))
	e.P.Store.Sync()
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	checkTxs(t, viewtest.ReadCSV(t, ui.CSVOf(v)), "")
}

// checkTxs checks a transactions CSV: of one wallet when wallet is set.
func checkTxs(t *testing.T, c viewtest.CSV, wallet string) {
	t.Helper()
	c.HasHeader(t, "created_at", "transaction_id", "status", "action", "asset", "qty", "frozen", "wallet_id", "wallet_name",
		"vault_id", "origin_address", "destination_address", "hash", "external_id", "problems", "reasons")
	if len(c.Rows) == 0 {
		t.Fatalf("no transactions (wallet %q)", wallet)
	}
	for _, r := range c.Rows {
		viewtest.Time(t, "created_at", r["created_at"], false)
		viewtest.Amount(t, "qty", r["qty"], r["asset"])
		if r["frozen"] != "true" && r["frozen"] != "false" {
			t.Errorf("frozen = %q", r["frozen"])
		}
		if wallet != "" && r["wallet_id"] != wallet {
			t.Errorf("a transaction of wallet %q in the CSV of %q", r["wallet_id"], wallet)
		}
		if r["wallet_name"] == "" {
			t.Errorf("transaction %s: no wallet name", r["transaction_id"])
		}
	}
	c.Plain(t)
}

// TestWalletSectionsCSVsAreData: the sweeps', webhooks' and a webhook's
// subscriptions' CSVs: running true or false, times in ISO 8601 UTC,
// lists "; " between two, counts as numbers, no glyphs ("never", "—").
func TestWalletSectionsCSVsAreData(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	v := wallets.New(e.Ctx, e.P, e.Actor)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	viewtest.Drive(v, v.Update(viewtest.Key("E")))
	s := viewtest.ReadCSV(t, ui.CSVOf(v))
	s.HasHeader(t, "sweep_id", "name", "status", "sweep_running", "last_swept_at", "last_instance_id",
		"destination_wallet_id", "destination_wallet_name", "assets", "blockchain")
	if len(s.Rows) == 0 {
		t.Fatal("no sweeps")
	}
	for _, r := range s.Rows {
		if r["sweep_running"] != "true" && r["sweep_running"] != "false" {
			t.Errorf("sweep_running = %q", r["sweep_running"])
		}
		viewtest.Time(t, "last_swept_at", r["last_swept_at"], true)
		if r["destination_wallet_id"] == "" || r["assets"] == "" {
			t.Errorf("sweep %v: no destination or assets", r)
		}
	}
	s.Plain(t)

	viewtest.Drive(v, v.Update(viewtest.Key("W")))
	w := viewtest.ReadCSV(t, ui.CSVOf(v))
	w.HasHeader(t, "webhook_id", "name", "endpoint", "subscriptions", "domains", "created_at")
	if len(w.Rows) == 0 {
		t.Fatal("no webhooks")
	}
	if r := w.Rows[0]; r["subscriptions"] == "" || r["subscriptions"] == "0" || r["domains"] == "" {
		t.Errorf("first webhook %v: want its subscriptions counted and named", r)
	}
	w.Plain(t)
	viewtest.Drive(v, v.Update(viewtest.Key("enter")))
	sub := viewtest.ReadCSV(t, ui.CSVOf(v))
	sub.HasHeader(t, "subscription_id", "domain", "webhook_id", "webhook_name", "created_at")
	if len(sub.Rows) == 0 {
		t.Fatal("no subscriptions")
	}
	for _, r := range sub.Rows {
		viewtest.Time(t, "created_at", r["created_at"], false)
		if r["webhook_id"] != w.Rows[0]["webhook_id"] {
			t.Errorf("subscription %v of another webhook", r)
		}
	}
	sub.Plain(t)
}
