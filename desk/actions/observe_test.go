package actions_test

import (
	"context"
	"slices"
	"testing"

	"treasury/desk/actions"
	"treasury/desk/audit"
	walletclient "treasury/wire/wallet/client"
)

// OnOutcome (the metrics' actions by kind and outcome) hears each
// attempt's end as its line says it: done, refused, cancelled.
func TestOnOutcomeHearsEachEnd(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	tx := e.freezable(t)
	var heard []string
	act := actions.New(actions.Clients{Transactions: e.p.WalletTransactions,
		OnOutcome: func(action, outcome string) { heard = append(heard, action+" "+outcome) }},
		actions.Identity{Profile: "sandbox", Environment: "sandbox", Who: tester}, e.log)
	if _, _, err := act.FreezeTx(ctx, walletclient.Route{}, tx, true, "hold", act.Key(actions.Freeze, tx.ID)); err != nil {
		t.Fatal(err)
	}
	if err := act.Cancelled(actions.TxAttempt(tx, false, "", "k1"), false); err != nil {
		t.Fatal(err)
	}
	_ = act.Refused(actions.TxAttempt(tx, false, "", "k2"), actions.ErrReadOnly)
	want := []string{"freeze " + audit.OutcomeDone, "unfreeze " + audit.OutcomeCancelled, "unfreeze " + audit.OutcomeRefused}
	if !slices.Equal(heard, want) {
		t.Errorf("heard %q, want %q", heard, want)
	}
}
