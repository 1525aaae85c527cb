package wallets

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/actions"
	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
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
				switch why := wallet.FreezeRuledOut(t, true); {
				case why == "":
					return ""
				case t.FreezeInfo.IsFrozen:
					return "transaction " + t.ID + " is frozen already: no freeze to confirm (" + v.keys.Unfreeze.Help().Key + " unfreezes it)"
				default:
					return "transaction " + t.ID + " is " + why + ": no freeze to confirm"
				}
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
				switch why := wallet.FreezeRuledOut(t, false); {
				case why == "":
					return ""
				case !t.FreezeInfo.IsFrozen:
					return "transaction " + t.ID + " is not frozen: no unfreeze to confirm (" + v.keys.Freeze.Help().Key + " freezes it)"
				default:
					return "transaction " + t.ID + " is " + why + ": no unfreeze to confirm"
				}
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
// with a reason. Nothing of it runs in Update: in a command, the session's
// right to act is checked (the audit log writable), the transaction is
// read again (the request's path, and its state now), and its key taken
// from the record of every process, each key left open on it reconciled
// with the platform first (actions.Actor.TxKey): the dialog opens with
// the request line that will be recorded and sent, and says what
// reconciling found. While the log is busy (another process's append),
// the session stays responsive and the footer says so.
func (v *View) confirmFreeze(t wallet.Transaction, freeze bool) tea.Cmd {
	action := actions.Unfreeze
	if freeze {
		action = actions.Freeze
	}
	if v.act == nil {
		return ui.ErrorCmd(errors.New("actions are not available in this session"))
	}
	read := func() tea.Msg {
		if err := v.can(action); err != nil {
			return viewkit.Refusal(v.act, actions.TxAttempt(t, freeze, "", ""), actions.Key{}, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), viewkit.CallTimeout)
		defer cancel()
		rt, now, err := v.act.FreezeRoute(ctx, t, freeze)
		if err != nil {
			return ui.Flash{Err: fmt.Errorf("%s of transaction %s: reading it before asking: %w", action, t.ID, err)}
		}
		if now.ID == "" {
			now = t
		}
		key, err := v.act.TxKey(ctx, now, freeze)
		var inFlight actions.ErrInFlight
		switch {
		case errors.As(err, &inFlight):
			return viewkit.Refusal(v.act, actions.TxAttempt(now, freeze, "", viewkit.SameIntent(inFlight, action)), key, err)
		case err != nil:
			// Could not be reconciled: nothing was sent, and the log says so.
			return viewkit.Refusal(v.act, actions.TxAttempt(now, freeze, "", ""), key,
				fmt.Errorf("%s of %s: %w", action, viewkit.Short(t.ID, 9), err))
		}
		if len(key.Settled) > 0 {
			// What reconciling wrote may have moved the record: read it
			// as it stands now.
			if r2, again, err := v.act.FreezeRoute(ctx, now, freeze); err == nil && again.ID != "" {
				rt, now = r2, again
			}
		}
		if why := wallet.FreezeRuledOut(now, freeze); why != "" {
			return ui.Flash{Text: "transaction " + t.ID + " is " + why + " (read just now): nothing to confirm", Warn: true,
				Detail: viewkit.Reconciled(key)}
		}
		return v.freezeDialog(now, freeze, key, rt)
	}
	return v.asking.Ask(action+" of transaction "+viewkit.Short(t.ID, 9), read)
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
		Intro: append([]string{what}, viewkit.Reconciled(key)...),
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
// mutationId or the one of a trigger left open that reconciling found
// started no run (actions.Actor.SweepKey). In a command: the session's
// right to act, the key, then the source wallets' balances (sweepSources):
// the dialog lists what the run would move as read then.
func (v *View) confirmTrigger(s wallet.SweepConfig) tea.Cmd {
	if v.act == nil {
		return ui.ErrorCmd(errors.New("actions are not available in this session"))
	}
	ws, _ := v.wallets()
	read := func() tea.Msg {
		if err := v.can(actions.Sweep); err != nil {
			return viewkit.Refusal(v.act, actions.SweepAttempt(s, ""), actions.Key{}, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), viewkit.CallTimeout)
		defer cancel()
		key, err := v.act.SweepKey(ctx, s)
		var inFlight actions.ErrInFlight
		switch {
		case errors.As(err, &inFlight):
			return viewkit.Refusal(v.act, actions.SweepAttempt(s, inFlight.Attempt.ID), key, err)
		case err != nil:
			return viewkit.Refusal(v.act, actions.SweepAttempt(s, ""), key, fmt.Errorf("trigger of sweep %s: %w", s.Name, err))
		}
		return v.triggerDialog(s, key, sweepSources(ctx, v.p.Wallet, s, ws, v.ctx.Clock()))
	}
	return v.asking.Ask("trigger of sweep "+s.Name+" and its sources' balances", read)
}

// triggerDialog is the confirmation of a run of s under key, with what
// its sources held.
func (v *View) triggerDialog(s wallet.SweepConfig, key actions.Key, src sources) ui.Confirm {
	mid := key.ID
	rt, _ := walletclient.SweepRoute(s.ID)
	return ui.Confirm{
		Title: "Trigger sweep",
		Intro: append([]string{"A sweep run will start: the assets below move from the source wallets", "into the destination wallet."},
			viewkit.Reconciled(key)...),
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
		return tea.Sequence(viewkit.Done("✔ sweep "+d.sweep.Name+" started: instance "+d.instance+", "+d.sent.Holds+viewkit.Confirmed(d.sent)+sent, d.err),
			v.Stack.Update(sweepActed{d.sweep.ID}))
	}
	if !actions.Applied(d.err) {
		return ui.ResultCmd(viewkit.Failure(d.action+" of transaction "+d.tx.ID, d.again, "mutationId", d.usedKey(), d.err), d.err)
	}
	v.ctx.Store.Refresh(live.Transactions)
	verb := "unfroze"
	if d.action == actions.Freeze {
		verb = "froze"
	}
	// "now frozen" is what the answer tied to this request, or the read
	// after it, holds (actions.Sent.Holds), never assumed.
	return tea.Sequence(viewkit.Done("✔ "+verb+" transaction "+d.tx.ID+" ("+v.walletName(d.tx.WalletID)+", "+viewkit.Amount(d.tx.Qty, d.tx.Asset)+
		"): now "+d.sent.Holds+", status "+d.tx.Status+viewkit.Confirmed(d.sent)+sent, d.err),
		v.Stack.Update(txActed{d.tx}))
}
