package wallets

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
)

// Store readers: the records of a topic and its snapshot.

func (v *View) vaults() ([]wallet.Vault, live.Snapshot) {
	s := live.Get(v.ctx.Store, live.VaultsKey)
	return s.Data, s.Snapshot
}

func (v *View) wallets() ([]wallet.Wallet, live.Snapshot) {
	s := live.Get(v.ctx.Store, live.WalletsKey)
	return s.Data, s.Snapshot
}

func (v *View) txs() ([]wallet.Transaction, live.Snapshot) {
	s := live.Get(v.ctx.Store, live.TransactionsKey)
	return s.Data, s.Snapshot
}

func (v *View) vault(id string) (wallet.Vault, bool) {
	vs, _ := v.vaults()
	for _, x := range vs {
		if x.ID == id {
			return x, true
		}
	}
	return wallet.Vault{}, false
}

func (v *View) wallet(id string) (wallet.Wallet, bool) {
	ws, _ := v.wallets()
	for _, x := range ws {
		if x.ID == id {
			return x, true
		}
	}
	return wallet.Wallet{}, false
}

// walletNames are the names of the wallets held, by id.
func (v *View) walletNames() map[string]string {
	ws, _ := v.wallets()
	out := make(map[string]string, len(ws))
	for _, w := range ws {
		out[w.ID] = w.Name
	}
	return out
}

// walletName is a wallet's name, or its short id when unknown.
func (v *View) walletName(id string) string {
	if w, ok := v.wallet(id); ok && w.Name != "" {
		return w.Name
	}
	return viewkit.Short(id, 9)
}

func (v *View) vaultName(id string) string {
	if x, ok := v.vault(id); ok && x.Name != "" {
		return x.Name
	}
	return viewkit.Short(id, 9)
}

// named says whether a record with id and name is the one q names: the
// whole id, a unique-enough start or end of it (as copied or shown
// shortened with "…"), or the name, ignoring case.
func named(id, name, q string) bool {
	q = strings.TrimPrefix(strings.TrimSpace(q), "…")
	if q == "" {
		return false
	}
	lq := strings.ToLower(q)
	lid := strings.ToLower(id)
	return lid == lq || strings.EqualFold(name, q) ||
		(len(lq) >= 4 && (strings.HasPrefix(lid, lq) || strings.HasSuffix(lid, lq)))
}

// find returns the one record q names: an exact id first, else a single match.
func find[T any](recs []T, id, name func(T) string, q string) (T, bool) {
	var hit []T
	for _, r := range recs {
		if strings.EqualFold(id(r), strings.TrimSpace(q)) {
			return r, true
		}
		if named(id(r), name(r), q) {
			hit = append(hit, r)
		}
	}
	if len(hit) == 1 {
		return hit[0], true
	}
	var zero T
	return zero, false
}

func (v *View) findVault(q string) (wallet.Vault, bool) {
	vs, _ := v.vaults()
	return find(vs, func(x wallet.Vault) string { return x.ID }, func(x wallet.Vault) string { return x.Name }, q)
}

func (v *View) findWallet(q string) (wallet.Wallet, bool) {
	ws, _ := v.wallets()
	return find(ws, func(x wallet.Wallet) string { return x.ID }, func(x wallet.Wallet) string { return x.Name }, q)
}

func (v *View) findTx(q string) (wallet.Transaction, bool) {
	ts, _ := v.txs()
	return find(ts, func(x wallet.Transaction) string { return x.ID }, func(x wallet.Transaction) string { return x.ExternalID }, q)
}

// complete proposes the ids whose id or name starts with prefix.
func complete[T any](recs []T, id, name func(T) string, prefix string) []string {
	lp := strings.ToLower(prefix)
	var out []string
	for _, r := range recs {
		if strings.HasPrefix(strings.ToLower(id(r)), lp) || strings.HasPrefix(strings.ToLower(name(r)), lp) {
			out = append(out, id(r))
		}
	}
	return out
}

var txStatuses = []string{wallet.TxRequested, wallet.TxPolicyCheckPending, wallet.TxPendingApproval,
	wallet.TxSigning, wallet.TxBroadcasted, wallet.TxConfirmed, wallet.TxRejected, wallet.TxFailed, "FROZEN"}

// Commands are the view's palette commands.
func (v *View) Commands() []ui.Command {
	open := func(args ...string) func([]string) tea.Cmd {
		return func(a []string) tea.Cmd { return ui.OpenCmd(v.Name(), append(args, a...)...) }
	}
	return []ui.Command{
		{Name: string(v.Name()), Args: "[filter]", Help: "vaults and their wallets", View: v.Name(), Run: open()},
		{Name: "vault", Args: "<id or name>", Help: "a vault's wallets", View: v.Name(), Run: open("vault"),
			Complete: func(p string) []string {
				vs, _ := v.vaults()
				return complete(vs, func(x wallet.Vault) string { return x.ID }, func(x wallet.Vault) string { return x.Name }, p)
			}},
		{Name: "wallet", Args: "<id or name>", Help: "a wallet: balances, limits, transactions", View: v.Name(), Run: open("wallet"),
			Complete: func(p string) []string {
				ws, _ := v.wallets()
				return complete(ws, func(x wallet.Wallet) string { return x.ID }, func(x wallet.Wallet) string { return x.Name }, p)
			}},
		{Name: "transactions", Args: "[status]", Help: "wallet transactions of every wallet, by status", View: v.Name(), Run: open("transactions"),
			Complete: func(p string) []string {
				var out []string
				for _, s := range txStatuses {
					if strings.HasPrefix(s, strings.ToUpper(p)) {
						out = append(out, s)
					}
				}
				return out
			}},
		{Name: "transaction", Args: "<id>", Help: "a wallet transaction: status, problems, freeze history", View: v.Name(), Run: open("transaction"),
			Complete: func(p string) []string {
				ts, _ := v.txs()
				out := complete(ts, func(x wallet.Transaction) string { return x.ID }, func(x wallet.Transaction) string { return x.ExternalID }, p)
				return out[:min(len(out), 50)]
			}},
		{Name: "sweeps", Help: "sweep configurations and their runs", View: v.Name(), Run: open("sweeps")},
		{Name: "webhooks", Help: "wallet webhooks and subscriptions", View: v.Name(), Run: open("webhooks")},
	}
}
