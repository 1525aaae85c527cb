package wallets_test

import (
	"strings"
	"testing"

	"treasury/sandbox/sandboxtest"
	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/views/wallets"
	"treasury/wire/wallet"
)

// Names, descriptions, problems, reasons and freeze reasons carrying escape
// sequences, control and bidi characters reach the output only as visible,
// harmless text (the session renders without colour: any escape would be
// the data's).
func TestHostileTextIsHarmless(t *testing.T) {
	t.Parallel()
	so := sandboxtest.Options()
	so.Faults.Hostile = true
	e := viewtest.New(t, viewtest.Options{Sandbox: &so, Skip: viewtest.NoLiquidityHistory()})
	rej := pickTx(t, e, "rejected", func(t wallet.Transaction) bool { return t.Status == wallet.TxRejected })
	v := wallets.New(e.Ctx, e.P, e.Actor)
	for _, args := range [][]string{nil, {"vault", "68de198d-859e-409c-9c45-39b44ff107e9"}, {"wallet", "dabec672-d7b3-4b5d-b184-f4c02f3cf7d3"},
		{"transactions"}, {"transaction", rej.ID}, {"webhooks"}} {
		viewtest.Drive(v, v.Update(ui.Open{View: "wallets", Args: args}))
		out := v.Render(160, 60)
		if r, bad := viewtest.Harmful(out); bad {
			t.Fatalf("%v: character %U in the output:\n%s", args, r, out)
		}
		if len(args) == 2 && args[0] == "transaction" && !strings.Contains(out, `\x1b`) {
			t.Fatalf("the hostile fragments are not shown as visible text:\n%s", out)
		}
		if len(args) == 0 && !strings.Contains(out, "Treasury Operations") {
			t.Fatalf("vaults:\n%s", out)
		}
	}
}
