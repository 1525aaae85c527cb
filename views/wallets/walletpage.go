package wallets

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/money"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// walletState is what a wallet page reads from the interface beyond the
// store: balances, and limits and policies when a CONTROLS credential is
// configured. Each keeps its last good answer, shown stale when a later
// read fails.
type walletState struct {
	id, vault string
	// seq is the transactions snapshot the balances were read at: a newer
	// one reads the balances again (limits and policies are read when the
	// page opens and on r).
	seq     uint64
	started bool
	// The keys of the reads (zero: not asked).
	bal live.Key[[]wallet.Balance]
	lim live.Key[[]wallet.Limit]
	pol live.Key[[]wallet.PolicyRule]
}

// walletPage is a wallet's status, settings, balances, limits and policies
// above its transactions.
func (v *View) walletPage(w wallet.Wallet) *viewkit.TablePage[wallet.Transaction] {
	st := &walletState{id: w.ID, vault: w.VaultID}
	spec := v.txSpec(w.Name, false)
	spec.What = "the transactions of wallet " + w.Name
	spec.Empty = "this wallet has no transactions"
	spec.AboveShare = 0.5
	spec.AboveAlways = true
	spec.Above = func(width, maxH int, _ *wallet.Transaction) string { return v.walletHeader(w.ID, st, width, maxH) }
	spec.Handle = func(msg tea.Msg) (bool, tea.Cmd) { return v.walletHandle(st, msg) }
	return viewkit.NewSharedTable(v.ctx, spec, viewkit.Shared[wallet.Transaction]{
		Source: txRows(v.ctx.Store, "", false),
		Group:  w.ID,
		Check: func(snap live.Snapshot) live.Snapshot {
			// The wallet's part of a partial transactions read failed: its
			// transactions are unknown, not none.
			x, ok := v.vault(w.VaultID)
			if err := coverOf(snap).missing(walletSources(w, x, ok)...); err != nil && snap.Loaded() {
				return failedState(snap, err)
			}
			return snap
		},
	})
}

// walletLoad reads the balances as of after (viewkit.Fetch) and, with
// controls, the limits and policies.
func (v *View) walletLoad(st *walletState, after time.Time, controls bool) tea.Cmd {
	store := v.ctx.Store
	cmds := []tea.Cmd{}
	if v.p.Wallet != nil {
		st.bal = live.Ask(store, v.p.Reads.WalletBalances, walletclient.Ref{VaultID: st.vault, WalletID: st.id})
		cmds = append(cmds, viewkit.Fetch(v.ctx, st.bal, after))
	}
	if v.p.WalletControls != nil && controls {
		st.lim = live.Ask(store, v.p.Reads.WalletLimits, st.id)
		st.pol = live.Ask(store, v.p.Reads.WalletPolicies, struct{}{})
		cmds = append(cmds, viewkit.Fetch(v.ctx, st.lim, after), viewkit.Fetch(v.ctx, st.pol, after))
	}
	return tea.Batch(cmds...)
}

func (v *View) walletHandle(st *walletState, msg tea.Msg) (bool, tea.Cmd) {
	switch msg.(type) {
	case ui.StoreChanged:
		// The balances are read again after each change of the
		// transactions, as of it: every session that saw it shares one
		// read.
		txs := v.ctx.Store.Snapshot(live.Transactions)
		if !st.started || txs.Seq != st.seq {
			first := !st.started
			st.started, st.seq = true, txs.Seq
			after := txs.FetchedAt
			if first {
				after = viewkit.Opening(v.ctx)
			}
			return false, v.walletLoad(st, after, first)
		}
	case ui.Refresh:
		return false, v.walletLoad(st, v.ctx.Store.Now(), true)
	}
	return false, nil
}

// walletHeader draws the wallet above its transactions, at most maxH lines.
func (v *View) walletHeader(id string, st *walletState, width, maxH int) string {
	th := v.ctx.Theme
	w, ok := v.wallet(id)
	if !ok {
		snap := v.ctx.Store.Snapshot(live.Wallets)
		if part, loaded := viewkit.Part(v.ctx, snap, "the wallets", width); !loaded {
			return cutLines(strings.Join(part, "\n"), width)
		}
		return th.Muted.Render("wallet " + sanitize.Line(id) + " is not in the wallet list read " +
			ui.Age(v.ctx.Clock(), snap.FetchedAt) + " ago")
	}
	kind := "HSM"
	if w.QuorumID != "" {
		kind = "MPC quorum " + viewkit.Short(w.QuorumID, 9)
	}
	status := sanitize.Line(w.Status)
	switch w.Status {
	case wallet.WalletProvisioned:
		status = th.OK.Render(status)
	case wallet.WalletProvisioningFailed:
		status = th.Bad.Render(status)
	default:
		status = th.Warn.Render(status)
	}
	lines := []string{
		th.Title.Render(sanitize.Line(w.Name)) + "  " + status + "  " + sanitize.Line(w.Blockchain) + " · " + kind +
			" · vault " + sanitize.Line(v.vaultName(w.VaultID)) + " · created " + viewkit.TimeAs(w.CreatedAt, time.DateOnly),
		th.Muted.Render("address ") + sanitize.Line(w.Address) + th.Muted.Render("  id ") + sanitize.Line(w.ID),
		th.Muted.Render("settings ") + settingsText(w.Settings),
	}
	lines = append(lines, v.balanceLines(st, width)...)
	lines = append(lines, v.controlLines(st, width)...)
	if len(lines) > maxH {
		lines = append(lines[:max(maxH-1, 0)], th.Muted.Render("… (taller window shows more)"))
	}
	return cutLines(strings.Join(lines, "\n"), width)
}

// sectionLines puts what viewkit.Part says of a section's read under its
// title: one line beside it, more below it, indented.
func sectionLines(title string, part []string) []string {
	if len(part) == 1 {
		return []string{title + "  " + part[0]}
	}
	out := []string{title}
	for _, l := range part {
		out = append(out, "  "+l)
	}
	return out
}

func (v *View) balanceLines(st *walletState, width int) []string {
	th := v.ctx.Theme
	title := viewkit.Section(th, "Balances")
	balances := live.Get(v.ctx.Store, st.bal)
	part, ok := viewkit.Part(v.ctx, balances.Snapshot, "the balances", width-2)
	if !ok {
		return sectionLines(title, part)
	}
	bal := balances.Data
	if len(bal) == 0 {
		return sectionLines(title, append(part, th.Muted.Render("none")))
	}
	head := []string{"asset", "balance", "available", "pending", "frozen", "fiat value"}
	rows := make([][]string, len(bal))
	for i, b := range bal {
		sym := b.Asset.Symbol
		rows[i] = []string{sanitize.Line(sym), money.Format(b.Balance, sym), money.Format(b.AvailableBalance, sym),
			money.Format(b.PendingBalance, sym), money.Format(b.FrozenBalance, sym), money.Grouped(b.FiatValue.StringFixed(2))}
	}
	cols := grid(head, rows, width-len("Balances  "), 3, 5, 2)
	out := []string{title + "  " + th.Muted.Render(cols[0])}
	for _, l := range part {
		out = append(out, "          "+l)
	}
	for _, l := range cols[1:] {
		out = append(out, "          "+l)
	}
	return out
}

// grid aligns head and rows in columns (the first left, the others right)
// within width, leaving out the columns named by drop, in that order,
// until it fits. It returns the header line and one line per row.
func grid(head []string, rows [][]string, width int, drop ...int) []string {
	ws := make([]int, len(head))
	for i, h := range head {
		ws[i] = len(h)
		for _, r := range rows {
			ws[i] = max(ws[i], len([]rune(r[i])))
		}
	}
	shown := make([]bool, len(head))
	total := -2
	for i := range head {
		shown[i] = true
		total += ws[i] + 2
	}
	for _, d := range drop {
		if total <= width {
			break
		}
		shown[d] = false
		total -= ws[d] + 2
	}
	line := func(cells []string) string {
		var b strings.Builder
		for i, c := range cells {
			if !shown[i] {
				continue
			}
			if b.Len() > 0 {
				b.WriteString("  ")
			}
			if i == 0 {
				b.WriteString(fmt.Sprintf("%-*s", ws[i], c))
			} else {
				b.WriteString(fmt.Sprintf("%*s", ws[i], c))
			}
		}
		return b.String()
	}
	out := []string{line(head)}
	for _, r := range rows {
		out = append(out, line(r))
	}
	return out
}

func (v *View) controlLines(st *walletState, width int) []string {
	th := v.ctx.Theme
	if v.p.WalletControls == nil {
		return []string{viewkit.Section(th, "Limits and policies") +
			th.Warn.Render("  not shown: they need a wallet CONTROLS credential (wallet.controls in the profile)")}
	}
	var out []string
	lim, pol := live.Get(v.ctx.Store, st.lim), live.Get(v.ctx.Store, st.pol)
	part, ok := viewkit.Part(v.ctx, lim.Snapshot, "the limits", width-2)
	switch {
	case !ok:
		out = append(out, sectionLines(viewkit.Section(th, "Limits"), part)...)
	case len(lim.Data) == 0:
		out = append(out, sectionLines(viewkit.Section(th, "Limits"), append(part, th.Muted.Render("none on this wallet")))...)
	default:
		out = append(out, sectionLines(viewkit.Section(th, fmt.Sprintf("Limits (%d)", len(lim.Data))), part)...)
		for _, l := range lim.Data {
			out = append(out, "  "+limitText(l))
		}
	}
	part, ok = viewkit.Part(v.ctx, pol.Snapshot, "the policies", width-2)
	if !ok && !lim.Loaded() && viewkit.SameFailure(lim.Err, pol.Err) {
		// One credential refused for both: the limits' error says it all.
		part = []string{th.Bad.Render("Could not read the policies: the same failure as the limits, above")}
	}
	if !ok {
		return append(out, sectionLines(viewkit.Section(th, "Policies"), part)...)
	}
	out = append(out, sectionLines(viewkit.Section(th, fmt.Sprintf("Policies (%d, organisation-wide)", len(pol.Data))), part)...)
	for _, p := range pol.Data {
		out = append(out, fmt.Sprintf("  %-36s %-16s %s", sanitize.Line(p.Name), sanitize.Line(p.Action), sanitize.Line(p.Status)))
	}
	return out
}

// limitText is one limit: type, quantity per period, matchers, status.
func limitText(l wallet.Limit) string {
	per := sanitize.Line(l.Duration)
	if d, err := time.ParseDuration(l.Duration); err == nil {
		per = viewkit.Duration(d)
	}
	ms := make([]string, len(l.Matchers))
	for i, m := range l.Matchers {
		ms[i] = sanitize.Line(m.Type)
		if m.Value != "" {
			ms[i] += "=" + sanitize.Line(m.Value)
		}
	}
	return fmt.Sprintf("%-16s %s per %s · %s · %s", sanitize.Line(l.LimitType), viewkit.Amount(l.LimitQty, l.Asset), per,
		strings.Join(ms, ", "), sanitize.Line(l.Status))
}
