package wallets

import (
	"context"

	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"treasury/desk/actions"
	"treasury/desk/live"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
)

// txBatch is the freeze (freeze true) or unfreeze of the marked
// transactions: one dialog, one reason, each transaction its own attempt
// under its own mutationId. Each is read again before the dialog opens:
// the state that rules one out is the platform's now.
func (v *View) txBatch(freeze bool) viewkit.Batch[wallet.Transaction] {
	action, verb, did, again := actions.Unfreeze, "Unfreeze", "unfroze", v.keys.Unfreeze.Help().Key
	what := "Each transaction below will be unfrozen: it resumes where it was paused."
	if freeze {
		action, verb, did, again = actions.Freeze, "Freeze", "froze", v.keys.Freeze.Help().Key
		what = "Each transaction below will be frozen: it stops progressing until it is unfrozen."
	}
	return viewkit.Batch[wallet.Transaction]{
		Act: v.act, Action: action, Verb: verb, Did: did, Again: again,
		Noun: "transaction", Nouns: "transactions", KeyName: "mutationId",
		Intro:   []string{what},
		Request: "PUT …/transactions/<id>/" + action,
		Waiting: "the wallet interface",
		ID:      func(t wallet.Transaction) string { return t.ID },
		Cells: func(t wallet.Transaction) []string {
			return []string{viewkit.Head(t.ID, viewkit.IDWidth), v.walletName(t.WalletID), viewkit.Amount(t.Qty, t.Asset), t.Status}
		},
		Amount: func(t wallet.Transaction) (string, decimal.Decimal) { return t.Asset, t.Qty },
		Ruled: func(t wallet.Transaction) string {
			if why := wallet.FreezeRuledOut(t, freeze); why != "" {
				return why + " (read just now)"
			}
			return ""
		},
		Key: func(ctx context.Context, t wallet.Transaction) (actions.Key, error) {
			return v.act.TxKey(ctx, t, freeze)
		},
		Read: func(ctx context.Context, t wallet.Transaction) (wallet.Transaction, error) {
			_, now, err := v.act.FreezeRoute(ctx, t, freeze)
			if now.ID == "" {
				now = t
			}
			return now, err
		},
		Asking: &v.asking,
		Attempt: func(t wallet.Transaction, reason, key string) actions.Attempt {
			return actions.TxAttempt(t, freeze, reason, key)
		},
		Send: func(ctx context.Context, txs []wallet.Transaction, keys []actions.Key, reason string) []actions.Result {
			items := make([]actions.TxItem, len(txs))
			for i, t := range txs {
				items[i] = actions.TxItem{Tx: t, Key: keys[i]}
			}
			return actions.Results(v.act.FreezeTxs(ctx, items, freeze, reason))
		},
	}
}

// batchDone reports a batch's result and reads the transactions again:
// each one's new state is the platform's.
func (v *View) batchDone(d viewkit.BatchDone[wallet.Transaction]) tea.Cmd {
	v.ctx.Store.Refresh(live.Transactions)
	return tea.Sequence(d.Show(), v.Stack.Update(d))
}
