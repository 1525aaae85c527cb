package wallets_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/config"
	"treasury/sandbox"
	"treasury/views/viewtest"
	"treasury/views/wallets"
)

// TestWrongSecretShowsTheFailure: with a wrong wallet secret the vaults
// page names the refusal, the guidance and the profile key where the vaults
// would be, and never says there are no vaults.
func TestWrongSecretShowsTheFailure(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) {
		c.Wallet.ClientSecret = config.NewSecret("not-the-secret")
	}})
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Could not read")
	frame := viewtest.Frame(t, tm) // the request id differs from run to run
	for _, want := range []string{"Could not read vaults", "ERR000.020", "client id or secret", "profiles.sandbox.wallet.client_id"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q", want)
		}
	}
	if strings.Contains(frame, "no vaults") || strings.Contains(frame, "not-the-secret") {
		t.Error("the frame shows an empty-state sentence or the secret")
	}
}

// openWallet runs the view and opens the first wallet of the first vault.
func openWallet(t *testing.T, e *viewtest.Env) *teatest.TestModel {
	t.Helper()
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Fees and Sweeps")
	viewtest.Keys(tm, "enter") // Treasury Operations
	viewtest.WaitFor(t, tm, "Treasury ETH hot")
	viewtest.Keys(tm, "enter") // its first wallet
	return tm
}

// TestWrongControlsSecret: with a wrong CONTROLS secret the wallet page
// shows its balances and names the limits' and policies' failure where
// they would be; never "none on this wallet" nor a count of policies.
func TestWrongControlsSecret(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) {
		c.Wallet.Controls.ClientSecret = config.NewSecret("not-the-secret")
	}})
	tm := openWallet(t, e)
	// The balances' header, not an asset's name, which the wallet's
	// transactions below show before the balances are read.
	viewtest.WaitAll(t, tm, "Could not read the limits", "Could not read the policies", "Balances  asset")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"Could not read the limits:", "ERR000.020", "profiles.sandbox.wallet.controls", "Balances  asset"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q:\n%s", want, frame)
		}
	}
	for _, bad := range []string{"none on this wallet", "Policies (", "Limits (", "not-the-secret"} {
		if strings.Contains(frame, bad) {
			t.Errorf("the frame shows %q:\n%s", bad, frame)
		}
	}
}

// TestWalletPageStale: balances, limits and policies read once and
// failing on r stay shown, each marked stale with its age and the error.
func TestWalletPageStale(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tm := openWallet(t, e)
	viewtest.WaitAll(t, tm, "Policies (4", "Limits (1", "Balances  asset") // every read answered before the faults
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{UnavailableRate: 1}); err != nil {
		t.Fatal(err)
	}
	viewtest.Keys(tm, "r")
	viewtest.WaitAll(t, tm, "STALE (the balances read", "STALE (the limits read", "STALE (the policies read")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"USDC", "TRANSFER_VOLUME", "Whitelisted destinations only", "STALE (the balances read <10s ago, r: try again) ✖ ERR000.021"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q:\n%s", want, frame)
		}
	}
}

// TestTransactionsUnreachable: the transactions section, a tx looked up
// from the palette and the sweeps name the failure; no empty sentence.
func TestTransactionsUnreachable(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) { c.Wallet.BaseURL = "http://127.0.0.1:1" }})
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Could not read vaults")
	viewtest.Keys(tm, ":", "transaction 1234abcd", "enter")
	viewtest.WaitFor(t, tm, "cannot be looked up")
	viewtest.Keys(tm, "E")
	viewtest.WaitFor(t, tm, "Could not read sweeps")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"Could not read sweeps", "connection refused", "profiles.sandbox.wallet.base_url"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q:\n%s", want, frame)
		}
	}
	for _, bad := range []string{"no sweep configurations", "no transaction matches"} {
		if strings.Contains(frame, bad) {
			t.Errorf("the frame shows %q:\n%s", bad, frame)
		}
	}
}
