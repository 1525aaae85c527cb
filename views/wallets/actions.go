package wallets

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/data/actions"
	"treasury/data/live"
	"treasury/data/wallet"
	walletclient "treasury/data/wallet/client"
	"treasury/ui"
	"treasury/views/viewkit"
)

// actionDone is the outcome of a confirmed action.
type actionDone struct {
	action   string
	tx       wallet.Transaction // freeze, unfreeze: the transaction acted on, then as answered
	sweep    wallet.SweepConfig
	instance string
	// key is the key taken when the dialog opened; sent what the action
	// sent (the key decided when its attempt was written, and whether it
	// retried another's); again is the key that retries.
	key   string
	sent  actions.Sent
	again string
	err   error
}

// usedKey is the key the action went out under, else the one taken.
func (d actionDone) usedKey() string {
	if d.sent.Key != "" {
		return d.sent.Key
	}
	return d.key
}

// txActions are freeze and unfreeze, write actions; each is offered only
// when the transaction's state allows it (freeze a transaction not
// frozen, unfreeze a frozen one).
func (v *View) txActions() []viewkit.Action[wallet.Transaction] {
	return []viewkit.Action[wallet.Transaction]{
		{Key: v.keys.Freeze, Write: true, Run: func(t wallet.Transaction) tea.Cmd { return v.confirmFreeze(t, true) },
			Refuse: func(t wallet.Transaction, err error) tea.Cmd {
				return viewkit.Refuse(v.act, actions.TxAttempt(t, true, "", ""), err)
			},
			Unavailable: func(t wallet.Transaction) string {
				if t.FreezeInfo.IsFrozen {
					return "transaction " + t.ID + " is frozen already: no freeze to confirm (" + v.keys.Unfreeze.Help().Key + " unfreezes it)"
				}
				return ""
			},
			BatchHelp: "freeze",
			Batch: func(txs []wallet.Transaction, gone []string) tea.Cmd {
				return v.txBatch(true).Ask(v.ctx, txs, gone)
			}},
		{Key: v.keys.Unfreeze, Write: true, Run: func(t wallet.Transaction) tea.Cmd { return v.confirmFreeze(t, false) },
			Refuse: func(t wallet.Transaction, err error) tea.Cmd {
				return viewkit.Refuse(v.act, actions.TxAttempt(t, false, "", ""), err)
			},
			Unavailable: func(t wallet.Transaction) string {
				if !t.FreezeInfo.IsFrozen {
					return "transaction " + t.ID + " is not frozen: no unfreeze to confirm (" + v.keys.Freeze.Help().Key + " freezes it)"
				}
				return ""
			},
			BatchHelp: "unfreeze",
			Batch: func(txs []wallet.Transaction, gone []string) tea.Cmd {
				return v.txBatch(false).Ask(v.ctx, txs, gone)
			}},
	}
}

// sweepActions trigger a sweep run, a write action offered while the sweep
// is not running (the interface refuses a second run: ERR017.006).
func (v *View) sweepActions() []viewkit.Action[wallet.SweepConfig] {
	return []viewkit.Action[wallet.SweepConfig]{{Key: v.keys.Trigger, Write: true, Run: v.confirmTrigger,
		Refuse: func(s wallet.SweepConfig, err error) tea.Cmd {
			return viewkit.Refuse(v.act, actions.SweepAttempt(s, ""), err)
		},
		Unavailable: func(s wallet.SweepConfig) string {
			if s.SweepRunning {
				return "sweep " + s.Name + " is running: a run cannot be triggered until it ends"
			}
			return ""
		}}}
}

// can says whether this session may run action, and why not.
func (v *View) can(action string) error {
	if v.act == nil {
		return errors.New("actions are not available in this session")
	}
	return v.act.Can(action)
}

// typeToConfirm is the last four characters of id in a prod session.
func (v *View) typeToConfirm(id string) string {
	if !v.ctx.Prod() {
		return ""
	}
	return id[max(len(id)-4, 0):]
}

// confirmFreeze asks the operator to confirm a freeze or unfreeze of t,
// with a reason. The mutationId is taken now (a new one, or the one of an
// attempt not settled, which this one retries), and the transaction is
// read again to resolve the request's path: the dialog opens with the
// request line that will be recorded and sent.
func (v *View) confirmFreeze(t wallet.Transaction, freeze bool) tea.Cmd {
	action := actions.Unfreeze
	if freeze {
		action = actions.Freeze
	}
	key := v.act.Key(action, t.ID)
	if err := v.can(action); err != nil {
		return viewkit.Refuse(v.act, actions.TxAttempt(t, freeze, "", key.ID), err)
	}
	if cmd := viewkit.InFlight(v.act, actions.TxAttempt(t, freeze, "", key.ID), key); cmd != nil {
		return cmd
	}
	read := func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), viewkit.CallTimeout)
		defer cancel()
		rt, now, err := v.act.FreezeRoute(ctx, t, freeze)
		if err != nil {
			return ui.Flash{Err: fmt.Errorf("%s of transaction %s: reading it before asking: %w", action, t.ID, err)}
		}
		if now.ID == "" {
			now = t
		}
		if now.FreezeInfo.IsFrozen == freeze {
			state := "is not frozen"
			if freeze {
				state = "is frozen already"
			}
			return ui.Flash{Text: "transaction " + t.ID + " " + state + " (read just now): nothing to confirm", Warn: true}
		}
		return v.freezeDialog(now, freeze, key, rt)
	}
	return tea.Sequence(ui.FlashCmd("reading transaction "+t.ID+" before the "+action+"…"), read)
}

// freezeDialog is the confirmation of a freeze or unfreeze of t, as read
// just now, to rt under key.
func (v *View) freezeDialog(t wallet.Transaction, freeze bool, key actions.Key, rt walletclient.Route) ui.Confirm {
	verb, action, again := "Unfreeze", actions.Unfreeze, v.keys.Unfreeze.Help().Key
	what := "The transaction will be unfrozen: it resumes where it was paused."
	if freeze {
		verb, action, again = "Freeze", actions.Freeze, v.keys.Freeze.Help().Key
		what = "The transaction will be frozen: it stops progressing until it is unfrozen."
	}
	mid := key.ID
	state := "not frozen"
	if t.FreezeInfo.IsFrozen {
		state = "frozen"
	}
	return ui.Confirm{
		Title: verb + " wallet transaction",
		Intro: []string{what},
		Lines: []string{
			"Transaction  " + t.ID,
			"Wallet       " + v.walletName(t.WalletID) + "  " + t.WalletID,
			"Vault        " + v.vaultName(t.VaultID) + "  " + t.VaultID,
			"Amount       " + viewkit.Amount(t.Qty, t.Asset) + "  (" + t.Action + ")",
			"Request      " + viewkit.RequestLine(rt.Line(), t.ID, t.WalletID, t.VaultID),
			"mutationId   " + mid,
		},
		// The state the freeze changes: the result labels it as before.
		Before:        []string{"Status       " + t.Status + ", " + state},
		TypeToConfirm: v.typeToConfirm(t.ID),
		Action:        verb,
		OnCancel:      viewkit.OnCancel(v.act, actions.TxAttempt(t, freeze, "", mid), action+" of transaction "+t.ID),
		Reason:        "Reason",
		Retry:         viewkit.RetryNote(v.ctx, key, "mutationId"),
		Waiting:       "the wallet interface: " + viewkit.RequestLine(rt.Line(), t.ID, t.WalletID, t.VaultID),
		RunReason: func(reason string) tea.Cmd {
			return func() tea.Msg {
				ctx, cancel := context.WithTimeout(context.Background(), viewkit.CallTimeout)
				defer cancel()
				got, sent, err := v.act.FreezeTx(ctx, rt, t, freeze, reason, key)
				d := actionDone{action: action, tx: t, key: mid, sent: sent, again: again, err: err}
				if actions.Applied(err) && got.ID != "" {
					d.tx = got
				}
				return d
			}
		},
	}
}

// confirmTrigger asks the operator to confirm a sweep run, under a new
// mutationId or the one of a trigger whose outcome is unknown. The
// dialog opens once the source wallets' balances are read (sweepSources):
// it lists what the run would move as read then.
func (v *View) confirmTrigger(s wallet.SweepConfig) tea.Cmd {
	key := v.act.Key(actions.Sweep, s.ID)
	mid := key.ID
	if err := v.can(actions.Sweep); err != nil {
		return viewkit.Refuse(v.act, actions.SweepAttempt(s, mid), err)
	}
	if cmd := viewkit.InFlight(v.act, actions.SweepAttempt(s, mid), key); cmd != nil {
		return cmd
	}
	ws, _ := v.wallets()
	read := func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), viewkit.CallTimeout)
		defer cancel()
		return v.triggerDialog(s, key, sweepSources(ctx, v.p.Wallet, s, ws, v.ctx.Clock()))
	}
	return tea.Sequence(ui.FlashCmd("reading the balances of the wallets sweep "+s.Name+" draws from…"), read)
}

// triggerDialog is the confirmation of a run of s under key, with what
// its sources held.
func (v *View) triggerDialog(s wallet.SweepConfig, key actions.Key, src sources) ui.Confirm {
	mid := key.ID
	rt, _ := walletclient.SweepRoute(s.ID)
	return ui.Confirm{
		Title: "Trigger sweep",
		Intro: []string{"A sweep run will start: the assets below move from the source wallets", "into the destination wallet."},
		Lines: []string{
			"Sweep        " + s.Name + "  " + s.ID,
			"Destination  " + v.walletName(s.DestinationWallet) + "  " + s.DestinationWallet,
			"Assets       " + strings.Join(s.Assets, ", ") + " on " + s.Blockchain,
			"Request      " + viewkit.RequestLine(rt.Line(), s.ID),
			"mutationId   " + mid,
		},
		// The state a trigger changes, and the balances it moves: the
		// result labels them as before.
		Before:        append([]string{"State        " + s.Status + ", idle"}, src.lines()...),
		TypeToConfirm: v.typeToConfirm(s.ID),
		Action:        "Trigger",
		OnCancel:      viewkit.OnCancel(v.act, actions.SweepAttempt(s, mid), "trigger of sweep "+s.Name),
		Retry:         viewkit.RetryNote(v.ctx, key, "mutationId"),
		Waiting:       "the wallet interface: " + viewkit.RequestLine(rt.Line(), s.ID),
		Run: func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), viewkit.CallTimeout)
			defer cancel()
			got, sent, err := v.act.TriggerSweep(ctx, s, key)
			return actionDone{action: actions.Sweep, sweep: s, instance: got.InstanceID, key: mid, sent: sent,
				again: v.keys.Trigger.Help().Key, err: err}
		},
	}
}

// done reports an action's outcome, the server's answer, and refreshes
// what it changed.
func (v *View) done(d actionDone) tea.Cmd {
	sent := viewkit.SentNote("mutationId", d.sent)
	if d.action == actions.Sweep {
		if !actions.Applied(d.err) {
			return ui.ResultCmd(viewkit.Failure("trigger of sweep "+d.sweep.Name, d.again, "mutationId", d.usedKey(), d.err), d.err)
		}
		v.ctx.Store.Refresh(live.Sweeps)
		v.ctx.Store.Refresh(live.Transactions)
		return tea.Sequence(viewkit.Done("✔ sweep "+d.sweep.Name+" started: instance "+d.instance+sent, d.err),
			v.Stack.Update(sweepActed{d.sweep.ID}))
	}
	if !actions.Applied(d.err) {
		return ui.ResultCmd(viewkit.Failure(d.action+" of transaction "+d.tx.ID, d.again, "mutationId", d.usedKey(), d.err), d.err)
	}
	v.ctx.Store.Refresh(live.Transactions)
	verb, now := "unfroze", "not frozen"
	if d.action == actions.Freeze {
		verb = "froze"
	}
	if d.tx.FreezeInfo.IsFrozen {
		now = "frozen"
	}
	return tea.Sequence(viewkit.Done("✔ "+verb+" transaction "+d.tx.ID+" ("+v.walletName(d.tx.WalletID)+", "+viewkit.Amount(d.tx.Qty, d.tx.Asset)+
		"): now "+now+", status "+d.tx.Status+sent, d.err),
		v.Stack.Update(txActed{d.tx}))
}
