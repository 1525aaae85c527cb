// Package wallets is the vaults and wallets view: vaults with their wallet
// counts, a vault's wallets, a wallet's detail (status, settings, balances,
// limits and policies) over its transactions, a transaction's detail with
// its problems, reasons and freeze history; all transactions, sweep
// configurations with the transactions of their last run, and the wallet
// webhooks with their subscriptions. Transactions can be frozen and
// unfrozen, and sweeps triggered, each behind a confirmation and through
// the session's actions.Actor (audited, refused in read-only sessions).
package wallets

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/actions"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
)

// Sections of the view, each a root page.
const (
	secVaults   = "vaults"
	secTxs      = "transactions"
	secSweeps   = "sweeps"
	secWebhooks = "webhooks"
)

// View is the vaults and wallets view.
type View struct {
	viewkit.Stack
	ctx     *ui.Context
	p       *platform.Platform
	act     *actions.Actor
	keys    keys
	section string
	// asking is the read before a dialog, one at a time.
	asking viewkit.Asking
}

type keys struct {
	Vaults, Txs, Sweeps, Webhooks key.Binding
	Freeze, Unfreeze, Trigger     key.Binding
}

func newKeys(ctx *ui.Context) keys {
	b := ctx.Key
	return keys{Vaults: b("vaults"), Txs: b("transactions"), Sweeps: b("sweeps"), Webhooks: b("webhooks"),
		Freeze: b("freeze"), Unfreeze: b("unfreeze"), Trigger: b("trigger")}
}

// New builds the vaults and wallets view. p's Wallet client reads; the
// actor performs freezes, unfreezes and sweep triggers.
func New(ctx *ui.Context, p *platform.Platform, act *actions.Actor) *View {
	v := &View{ctx: ctx, p: p, act: act, keys: newKeys(ctx)}
	v.showSection(secVaults, "")
	return v
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Wallets }

// Title is the tab label.
func (v *View) Title() string { return "Wallets" }

// Init does nothing: the store pushes vaults, wallets and transactions.
func (v *View) Init() tea.Cmd { return nil }

// showSection replaces the pages with a section's root.
func (v *View) showSection(sec, status string) tea.Cmd {
	v.section = sec
	switch sec {
	case secTxs:
		return v.Stack.Reset(v.allTxPage(status))
	case secSweeps:
		return v.Stack.Reset(v.sweepsPage())
	case secWebhooks:
		return v.Stack.Reset(v.webhooksPage())
	}
	return v.Stack.Reset(v.vaultsPage())
}

// Update handles section keys, palette opens and action outcomes, and
// delegates the rest to the page shown.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case viewkit.ReadDone:
		return v.asking.Answer(msg)
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, v.keys.Vaults):
			return v.showSection(secVaults, "")
		case key.Matches(msg, v.keys.Txs):
			return v.showSection(secTxs, "")
		case key.Matches(msg, v.keys.Sweeps):
			return v.showSection(secSweeps, "")
		case key.Matches(msg, v.keys.Webhooks):
			return v.showSection(secWebhooks, "")
		}
	case ui.Open:
		return v.open(msg.Args)
	case actionDone:
		return v.done(msg)
	case viewkit.BatchDone[wallet.Transaction]:
		return v.batchDone(msg)
	}
	return v.Stack.Update(msg)
}

// open shows what a palette command asked for: no arguments the vaults;
// "vault <id>", "wallet <id>", "transactions [status]", "transaction <id>",
// "sweeps", "webhooks"; anything else filters the vaults.
func (v *View) open(args []string) tea.Cmd {
	if len(args) == 0 {
		return v.showSection(secVaults, "")
	}
	arg := ""
	if len(args) > 1 {
		arg = args[1]
	}
	switch strings.ToLower(args[0]) {
	case "vault":
		return v.openVault(arg)
	case "wallet":
		return v.openWallet(arg)
	case "transactions", "txs":
		return v.showSection(secTxs, strings.ToUpper(arg))
	case "transaction", "tx":
		return v.openTx(arg)
	case "sweeps":
		return v.showSection(secSweeps, "")
	case "webhooks", "subscriptions":
		return v.showSection(secWebhooks, "")
	}
	cmd := v.showSection(secVaults, "")
	return tea.Batch(cmd, ui.SetFilterOf(v.Stack.Top(), strings.Join(args, " ")))
}

func (v *View) openVault(q string) tea.Cmd {
	reset := v.showSection(secVaults, "")
	vt, ok := v.findVault(q)
	if !ok {
		return tea.Batch(reset, v.notFound(live.Vaults, "vault", q))
	}
	return tea.Batch(reset, v.Stack.Push(v.walletsPage(vt)))
}

func (v *View) openWallet(q string) tea.Cmd {
	reset := v.showSection(secVaults, "")
	w, ok := v.findWallet(q)
	if !ok {
		return tea.Batch(reset, v.notFound(live.Wallets, "wallet", q))
	}
	cmds := []tea.Cmd{reset}
	if vt, ok := v.vault(w.VaultID); ok {
		cmds = append(cmds, v.Stack.Push(v.walletsPage(vt)))
	}
	return tea.Batch(append(cmds, v.Stack.Push(v.walletPage(w)))...)
}

func (v *View) openTx(q string) tea.Cmd {
	reset := v.showSection(secTxs, "")
	tx, ok := v.findTx(q)
	if !ok {
		return tea.Batch(reset, v.notFound(live.Transactions, "transaction", q))
	}
	return tea.Batch(reset, v.Stack.Push(v.txPage(tx.ID, nil)))
}

func quote(s string) string { return "\"" + sanitize.Line(s) + "\"" }

// notFound says why q named no record of topic tp: "no … matches" only
// after a read answered (and, after a partial one, among what it read);
// before, that the records are loading or could not be read.
func (v *View) notFound(tp live.Topic, what, q string) tea.Cmd {
	snap := v.ctx.Store.Snapshot(tp)
	switch {
	case !snap.Loaded() && snap.Err != nil:
		return ui.FlashCmd(what + " " + quote(q) + " cannot be looked up: the " + what + "s could not be read (" +
			strings.TrimPrefix(ui.ErrorText(snap.Err), "✖ ") + ")")
	case !snap.Loaded():
		return ui.FlashCmd("the " + what + "s are still loading: " + quote(q) + " cannot be looked up yet")
	case !viewkit.RecordsComplete(snap):
		return ui.FlashCmd("no " + what + " matches " + quote(q) + " among those read (some could not be read)")
	}
	return ui.FlashCmd("no " + what + " matches " + quote(q))
}

// Keys are the page's bindings and the section keys.
func (v *View) Keys() []key.Binding {
	return v.Stack.KeysWith(v.keys.Vaults, v.keys.Txs, v.keys.Sweeps, v.keys.Webhooks)
}
