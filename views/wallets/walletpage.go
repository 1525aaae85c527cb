package wallets

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"treasury/data/live"
	"treasury/data/wallet"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
)

// walletState is what a wallet page reads from the interface beyond the
// store: balances, and limits and policies when a CONTROLS credential is
// configured.
type walletState struct {
	id, vault string
	// seq is the transactions snapshot the balances were read at: a newer
	// one reads the balances again (limits and policies are read when the
	// page opens and on r).
	seq                     uint64
	started                 bool
	bal                     []wallet.Balance
	lim                     []wallet.Limit
	pol                     []wallet.PolicyRule
	balErr, limErr, polErr  error
	balRead, limRead, polRd bool
}

// walletPage is a wallet's status, settings, balances, limits and policies
// above its transactions.
func (v *View) walletPage(w wallet.Wallet) *viewkit.TablePage[wallet.Transaction] {
	st := &walletState{id: w.ID, vault: w.VaultID}
	spec := v.txSpec(w.Name, false, func(t wallet.Transaction) bool { return t.WalletID == w.ID })
	spec.Empty = "this wallet has no transactions"
	spec.AboveShare = 0.5
	spec.Above = func(width, maxH int, _ *wallet.Transaction) string { return v.walletHeader(w.ID, st, width, maxH) }
	spec.Handle = func(msg tea.Msg) (bool, tea.Cmd) { return v.walletHandle(st, msg) }
	return viewkit.NewTablePage(v.ctx, spec)
}

// walletLoad reads the balances and, with controls, the limits and
// policies.
func (v *View) walletLoad(st *walletState, controls bool) tea.Cmd {
	id, vault := st.id, st.vault
	cmds := []tea.Cmd{}
	if v.p.Wallet != nil {
		cmds = append(cmds, viewkit.Call("bal:"+id, func(ctx context.Context) (any, error) { return v.p.Wallet.Balances(ctx, vault, id) }))
	}
	if c := v.p.WalletControls; c != nil && controls {
		cmds = append(cmds,
			viewkit.Call("lim:"+id, func(ctx context.Context) (any, error) { return c.Limits(ctx, id) }),
			viewkit.Call("pol:"+id, func(ctx context.Context) (any, error) { return c.Policies(ctx) }))
	}
	return tea.Batch(cmds...)
}

func (v *View) walletHandle(st *walletState, msg tea.Msg) (bool, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.StoreChanged:
		if seq := v.ctx.Store.Snapshot(live.Transactions).Seq; !st.started || seq != st.seq {
			first := !st.started
			st.started, st.seq = true, seq
			return false, v.walletLoad(st, first)
		}
	case tea.KeyMsg:
		if msg.String() == "r" {
			return false, v.walletLoad(st, true)
		}
	case viewkit.Loaded:
		switch msg.Key {
		case "bal:" + st.id:
			st.balRead, st.balErr = true, msg.Err
			st.bal, _ = msg.Value.([]wallet.Balance)
		case "lim:" + st.id:
			st.limRead, st.limErr = true, msg.Err
			st.lim, _ = msg.Value.([]wallet.Limit)
		case "pol:" + st.id:
			st.polRd, st.polErr = true, msg.Err
			st.pol, _ = msg.Value.([]wallet.PolicyRule)
		}
	}
	return false, nil
}

// walletHeader draws the wallet above its transactions, at most maxH lines.
func (v *View) walletHeader(id string, st *walletState, width, maxH int) string {
	th := v.ctx.Theme
	w, ok := v.wallet(id)
	if !ok {
		return th.Muted.Render("wallet " + sanitize.Line(id) + " is not in the last wallet list")
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
	lines = append(lines, v.controlLines(st)...)
	if len(lines) > maxH {
		lines = append(lines[:max(maxH-1, 0)], th.Muted.Render("… (taller window shows more)"))
	}
	return cutLines(strings.Join(lines, "\n"), width)
}

func (v *View) balanceLines(st *walletState, width int) []string {
	th := v.ctx.Theme
	title := viewkit.Section(th, "Balances")
	switch {
	case !st.balRead:
		return []string{title + th.Muted.Render("  loading…")}
	case st.balErr != nil:
		return []string{title + "  " + th.Bad.Render(ui.ErrorText(st.balErr))}
	case len(st.bal) == 0:
		return []string{title + th.Muted.Render("  none")}
	}
	head := []string{"asset", "balance", "available", "pending", "frozen", "fiat value"}
	rows := make([][]string, len(st.bal))
	for i, b := range st.bal {
		rows[i] = []string{sanitize.Line(b.Asset.Symbol), b.Balance.String(), b.AvailableBalance.String(),
			b.PendingBalance.String(), b.FrozenBalance.String(), b.FiatValue.String()}
	}
	cols := grid(head, rows, width-len("Balances  "), 3, 5, 2)
	out := []string{title + "  " + th.Muted.Render(cols[0])}
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

func (v *View) controlLines(st *walletState) []string {
	th := v.ctx.Theme
	if v.p.WalletControls == nil {
		return []string{viewkit.Section(th, "Limits and policies") +
			th.Warn.Render("  not shown: they need a wallet CONTROLS credential (wallet.controls in the profile)")}
	}
	var out []string
	switch {
	case !st.limRead:
		out = append(out, viewkit.Section(th, "Limits")+th.Muted.Render("  loading…"))
	case st.limErr != nil:
		out = append(out, viewkit.Section(th, "Limits")+"  "+th.Bad.Render(ui.ErrorText(st.limErr)))
	case len(st.lim) == 0:
		out = append(out, viewkit.Section(th, "Limits")+th.Muted.Render("  none on this wallet"))
	default:
		out = append(out, viewkit.Section(th, fmt.Sprintf("Limits (%d)", len(st.lim))))
		for _, l := range st.lim {
			out = append(out, "  "+limitText(l))
		}
	}
	switch {
	case !st.polRd:
		out = append(out, viewkit.Section(th, "Policies")+th.Muted.Render("  loading…"))
	case st.polErr != nil:
		out = append(out, viewkit.Section(th, "Policies")+"  "+th.Bad.Render(ui.ErrorText(st.polErr)))
	default:
		out = append(out, viewkit.Section(th, fmt.Sprintf("Policies (%d, organisation-wide)", len(st.pol))))
		for _, p := range st.pol {
			out = append(out, fmt.Sprintf("  %-36s %-16s %s", sanitize.Line(p.Name), sanitize.Line(p.Action), sanitize.Line(p.Status)))
		}
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
