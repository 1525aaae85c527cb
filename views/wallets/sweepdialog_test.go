package wallets_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"treasury/desk/live"
	"treasury/views/viewkit"
	"treasury/views/viewtest"
	"treasury/views/wallets"
	"treasury/wire/wallet"
)

var mutationLine = regexp.MustCompile(`mutationId   [0-9a-f-]{36}`)

// The trigger dialog lists the wallets the sweep draws from, with what
// each holds of its assets as read when it opened (under the "before"
// heading once it has run): every wallet on the sweep's chain but its
// destination that holds one of them, with the amounts the wallet
// interface answers now.
func TestTriggerDialogListsTheSources(t *testing.T) {
	t.Parallel()
	e := shared.Env(t)
	sws := live.Get(e.P.Store, live.SweepsKey).Data
	if len(sws) == 0 || sws[0].SweepRunning {
		t.Fatalf("want an idle first sweep, have %+v", sws)
	}
	sw := sws[0]
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Fees and Sweeps")
	viewtest.Keys(tm, "E")
	viewtest.WaitFor(t, tm, "Last swept")
	viewtest.Keys(tm, "t")
	viewtest.WaitFor(t, tm, "Sources")
	frame := mutationLine.ReplaceAllString(viewtest.Frame(t, tm), "mutationId   xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")
	golden.RequireEqual(t, []byte(frame))

	held := 0
	for _, w := range live.Get(e.P.Store, live.WalletsKey).Data {
		if w.Blockchain != sw.Blockchain || w.ID == sw.DestinationWallet || w.Status != wallet.WalletProvisioned {
			continue
		}
		bals, err := e.P.Wallet.Balances(context.Background(), w.VaultID, w.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bals {
			if slices.Contains(sw.Assets, b.Asset.Symbol) && b.AvailableBalance.IsPositive() {
				held++
				if want := viewkit.Amount(b.AvailableBalance, b.Asset.Symbol); !strings.Contains(frame, want) || !strings.Contains(frame, w.Name) {
					t.Errorf("the dialog does not list %s of %s:\n%s", want, w.Name, frame)
				}
			}
		}
	}
	if held == 0 {
		t.Fatal("no source holds the sweep's assets: the test proves nothing")
	}
}
