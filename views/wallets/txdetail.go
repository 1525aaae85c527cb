package wallets

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// txState is what a transaction page holds beyond the store's topics: the
// record as last read after an action (fresher than the store until the
// store's next change), and the keys of its reads: the freeze history,
// and the record read again after an action.
type txState struct {
	id       string
	fresh    *wallet.Transaction
	freshSeq uint64
	hist     live.Key[[]wallet.FreezeEvent]
	tx       live.Key[wallet.Transaction]
	txSeen   uint64 // the version of tx taken as fresh
	started  bool
}

// txActed tells the pages that an action changed a transaction.
type txActed struct{ tx wallet.Transaction }

// txPage is the detail of transaction id; seen, when set, is the record as
// listed, shown until the store or the interface has it.
func (v *View) txPage(id string, seen *wallet.Transaction) *viewkit.DetailPage[wallet.Transaction] {
	st := &txState{id: id, fresh: seen}
	return viewkit.NewDetailPage(v.ctx, viewkit.DetailSpec[wallet.Transaction]{
		Crumb:  "tx " + viewkit.Short(id, 9),
		Topics: []live.Topic{live.Transactions, live.Wallets, live.Vaults},
		Get: func() (wallet.Transaction, bool, live.Snapshot) {
			all, snap := v.txs()
			if st.fresh != nil && snap.Seq <= st.freshSeq {
				return *st.fresh, true, snap
			}
			for _, t := range all {
				if t.ID == id {
					return t, true, snap
				}
			}
			if st.fresh != nil {
				return *st.fresh, true, snap
			}
			return wallet.Transaction{}, false, snap
		},
		ID:      func(t wallet.Transaction) string { return t.ID },
		Body:    func(t wallet.Transaction, w int) string { return v.txBody(t, st, w) },
		Actions: v.txActions(),
		Handle:  func(msg tea.Msg) (bool, tea.Cmd) { return v.txHandle(st, msg) },
		Fields:  func(t wallet.Transaction) [][2]string { return v.txFields(t) },
	})
}

// ref names the transaction and, once its record is known, its wallet, so
// that reads of it go to its wallet directly.
func (st *txState) ref() walletclient.Ref {
	if st.fresh != nil {
		return walletclient.RefOf(*st.fresh)
	}
	return walletclient.Ref{TxID: st.id}
}

// txHistory reads a transaction's freeze history from the interface, as
// of after (viewkit.Fetch).
func (v *View) txHistory(st *txState, after time.Time) tea.Cmd {
	st.hist = live.Ask(v.ctx.Store, v.p.Reads.FreezeHistory, st.ref())
	return viewkit.Fetch(v.ctx, st.hist, after)
}

// txReread reads the transaction and its freeze history from the
// interface again (after an action).
func (v *View) txReread(st *txState) tea.Cmd {
	now := v.ctx.Store.Now()
	st.tx = live.Ask(v.ctx.Store, v.p.Reads.Transaction, st.ref())
	return tea.Batch(v.txHistory(st, now), viewkit.Fetch(v.ctx, st.tx, now))
}

func (v *View) txHandle(st *txState, msg tea.Msg) (bool, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.StoreChanged:
		if !st.started {
			st.started = true
			if v.p.Wallet != nil {
				return false, v.txHistory(st, viewkit.Opening(v.ctx))
			}
		}
	case txActed:
		if msg.tx.ID == st.id {
			t := msg.tx
			st.fresh, st.freshSeq = &t, v.ctx.Store.Snapshot(live.Transactions).Seq
			if v.p.Wallet != nil {
				return true, v.txReread(st)
			}
			return true, nil
		}
	case viewkit.Fetched:
		if got := live.Get(v.ctx.Store, st.tx); got.Loaded() && got.Err == nil && got.Version != st.txSeen {
			t := got.Data
			st.fresh, st.freshSeq, st.txSeen = &t, v.ctx.Store.Snapshot(live.Transactions).Seq, got.Version
		}
		return true, nil
	}
	return false, nil
}

// statusNote explains a transaction status.
func statusNote(t wallet.Transaction) string {
	switch t.Status {
	case wallet.TxRejected:
		return "a policy rejected it: see problems"
	case wallet.TxFailed:
		return "the blockchain rejected it: see reasons"
	case wallet.TxConfirmed:
		return "confirmed on chain"
	case wallet.TxPendingApproval:
		return "waiting for approvers"
	}
	return "in progress"
}

// freezeNote says whether the transaction can be frozen or unfrozen, as
// the actions rule it (wallet.FreezeRuledOut), with the key that does it.
func (v *View) freezeNote(t wallet.Transaction) string {
	state := "not frozen"
	if t.FreezeInfo.IsFrozen {
		state = "FROZEN"
	}
	switch {
	case wallet.FreezeRuledOut(t, !t.FreezeInfo.IsFrozen) != "":
		return state + " · a " + t.Status + " transaction cannot be frozen or unfrozen"
	case t.FreezeInfo.IsFrozen:
		return state + " · progress is paused until it is unfrozen (" + v.keys.Unfreeze.Help().Key + ")"
	}
	return state + " (" + v.keys.Freeze.Help().Key + " freezes)"
}

func (v *View) txFields(t wallet.Transaction) [][2]string {
	qty := viewkit.Amount(t.Qty, t.Asset)
	return [][2]string{
		{"transaction", t.ID}, {"external id", viewkit.Dash(t.ExternalID)},
		{"status", t.Status + " — " + statusNote(t)}, {"action", t.Action}, {"amount", qty},
		{"wallet", v.walletName(t.WalletID) + "  " + t.WalletID}, {"vault", v.vaultName(t.VaultID) + "  " + t.VaultID},
		{"origin", viewkit.Dash(t.OriginAddress)}, {"destination", viewkit.Dash(t.DestinationAddress)}, {"hash", viewkit.Dash(t.Hash)},
		{"created", viewkit.Time(t.CreatedAt) + " UTC"}, {"freeze", v.freezeNote(t)},
	}
}

func (v *View) txBody(t wallet.Transaction, st *txState, w int) string {
	th := v.ctx.Theme
	var b strings.Builder
	b.WriteString(viewkit.KV(th, w, v.txFields(t)...))
	b.WriteString("\n" + viewkit.Section(th, fmt.Sprintf("Problems (%d)", len(t.Problems))) + "\n")
	if len(t.Problems) == 0 {
		b.WriteString(th.Muted.Render("  none") + "\n")
	}
	for _, p := range t.Problems {
		retry := "not retryable"
		if p.Retryable {
			retry = "retryable"
		}
		b.WriteString("  " + sanitize.Line(p.Reason) + " — " + sanitize.Line(p.Message) + " (" + retry + ")\n")
	}
	b.WriteString("\n" + viewkit.Section(th, fmt.Sprintf("Reasons (%d)", len(t.Reasons))) + "\n")
	if len(t.Reasons) == 0 {
		b.WriteString(th.Muted.Render("  none") + "\n")
	}
	for _, r := range t.Reasons {
		b.WriteString("  " + sanitize.Line(r) + "\n")
	}
	b.WriteString("\n" + v.freezeLines(t, st, w))
	return cutLines(b.String(), w)
}

// freezeLines are the transaction's freezes: from the freeze history once
// read (stale, with its age and error, after a later failure); until then
// the history's loading or error, and the freezes the record itself lists,
// if any. "Never frozen" only when the history read answered with none.
func (v *View) freezeLines(t wallet.Transaction, st *txState, w int) string {
	th := v.ctx.Theme
	var b strings.Builder
	got := live.Get(v.ctx.Store, st.hist)
	part, ok := viewkit.Part(v.ctx, got.Snapshot, "the freeze history", w-2)
	if v.p.Wallet == nil {
		part, ok = []string{th.Muted.Render("the freeze history cannot be read: the profile has no wallet interface")}, false
	}
	hist, src := got.Data, "freeze history"
	if !ok {
		hist, src = t.FreezeInfo.History, "listed by the record"
	}
	b.WriteString(viewkit.Section(th, fmt.Sprintf("Freezes (%d)", len(hist))) + th.Muted.Render("  "+src) + "\n")
	for _, l := range part {
		b.WriteString("  " + l + "\n")
	}
	if len(hist) == 0 && ok {
		b.WriteString(th.Muted.Render("  never frozen") + "\n")
	}
	for _, e := range hist {
		b.WriteString(fmt.Sprintf("  %s  %-8s  by %s  %q  mutation %s\n", viewkit.Time(e.PerformedAt), sanitize.Line(e.Action),
			sanitize.Line(e.PerformedBy), sanitize.Line(e.Reason), sanitize.Line(e.MutationID)))
	}
	return b.String()
}

// cutLines cuts every line to w cells, with an ellipsis.
func cutLines(s string, w int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return strings.Join(lines, "\n")
}
