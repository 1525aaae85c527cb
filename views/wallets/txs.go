package wallets

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/figures/columns"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
)

// txColumns are the columns of a transactions table (package columns,
// as `treasury get transactions` prints them): the wallet's name in a
// table of many wallets, else the destination address.
func txColumns(manyWallets bool) []table.Column {
	return viewkit.Columns(columns.Transactions(manyWallets))
}

// txRower builds a transaction's row; names, in a table of many wallets,
// are the wallets' names by id. Its group is its wallet (SetGroup).
func txRower(manyWallets bool) func(t wallet.Transaction, names map[string]string) table.Row {
	set := columns.Transactions(manyWallets)
	return func(t wallet.Transaction, names map[string]string) table.Row {
		row := viewkit.RowOf(set, t.ID, t, columns.At{WalletNames: names})
		row.Group = t.WalletID
		return row
	}
}

// walletNames are the names of the wallets the store holds, by id.
func walletNames(st *live.Store) map[string]string {
	ws := live.Get(st, live.WalletsKey).Data
	out := make(map[string]string, len(ws))
	for _, w := range ws {
		out[w.ID] = w.Name
	}
	return out
}

// txRowsName names the rows of the transactions of a status, named by
// wallet or by destination.
type txRowsName struct {
	status   string
	byWallet bool
}

// txRows is the rows of the store's transactions that have status ("" for
// all, "FROZEN" for the frozen ones), newest first: a projection shared by
// every session. manyWallets names each row's wallet, else its
// destination. Each row's group is its wallet.
func txRows(st *live.Store, status string, manyWallets bool) live.Key[viewkit.Projected[wallet.Transaction]] {
	name := txRowsName{status: status, byWallet: !manyWallets}
	var also []live.Topic // the wallets whose names the rows show
	if manyWallets {
		also = []live.Topic{live.Wallets}
	}
	row := txRower(manyWallets)
	return viewkit.Project(st, viewkit.Projection[[]wallet.Transaction, wallet.Transaction]{
		Name: name, From: live.TransactionsKey,
		All: func(l []wallet.Transaction) []wallet.Transaction { return l },
		Keep: func(t wallet.Transaction) bool {
			switch status {
			case "":
				return true
			case "FROZEN":
				return t.FreezeInfo.IsFrozen
			}
			return t.Status == status
		},
		ID: func(t wallet.Transaction) string { return t.ID },
		Row: func(t wallet.Transaction) table.Row {
			var names map[string]string
			if manyWallets {
				names = walletNames(st) // read when a row is built, not per session
			}
			return row(t, names)
		},
		Given: viewkit.NewestFirst,
		Also:  also,
	})
}

// txSpec is a transactions table, newest first, with drill-down and the
// freeze actions; manyWallets says whether they may come from more than
// one wallet. Its caller gives it its rows: a shared projection
// (txRows), or its own read (pushSweepTxs, with txOwnRow).
func (v *View) txSpec(crumb string, manyWallets bool) viewkit.TableSpec[wallet.Transaction] {
	return viewkit.TableSpec[wallet.Transaction]{
		Crumb:   crumb,
		Columns: txColumns(manyWallets),
		Topics:  []live.Topic{live.Transactions, live.Wallets},
		Live:    true,
		Enter:   func(t wallet.Transaction) tea.Cmd { return v.Stack.Push(v.txPage(t.ID, &t)) },
		Actions: v.txActions(),
		Empty:   "no transactions",
		What:    "transactions",
		Export:  v.txExport(),
	}
}

// txOwnRow is a transaction's row in a table of the page's own read: the
// wallets' names, when manyWallets, as the session holds them now.
func (v *View) txOwnRow(manyWallets bool) func(t wallet.Transaction) table.Row {
	row := txRower(manyWallets)
	return func(t wallet.Transaction) table.Row { return row(t, walletNames(v.ctx.Store)) }
}

// txExport is the transactions' CSV: a transaction's fields, its asset
// apart from its quantity (exact), the wallet by id and by name, its
// freeze a true or false, the policy problems and chain reasons as
// received ("; " between two).
func (v *View) txExport() *viewkit.Export[wallet.Transaction] {
	return &viewkit.Export[wallet.Transaction]{
		Header: []string{"created_at", "transaction_id", "status", "action", "asset", "qty", "frozen", "wallet_id", "wallet_name",
			"vault_id", "origin_address", "destination_address", "hash", "external_id", "problems", "reasons"},
		Begin: func() func(t wallet.Transaction) []string {
			names := walletNames(v.ctx.Store) // once per export
			return func(t wallet.Transaction) []string {
				var problems []string
				for _, p := range t.Problems {
					problems = append(problems, strings.TrimSuffix(p.Reason+": "+p.Message, ": "))
				}
				return []string{viewkit.ISO(t.CreatedAt), t.ID, t.Status, t.Action, t.Asset, viewkit.Money(t.Qty, t.Asset),
					viewkit.Bool(t.FreezeInfo.IsFrozen), t.WalletID, names[t.WalletID], t.VaultID, t.OriginAddress,
					t.DestinationAddress, t.Hash, t.ExternalID, strings.Join(problems, "; "), strings.Join(t.Reasons, "; ")}
			}
		},
	}
}

// allTxPage is every wallet's transactions, of one status when status is
// set ("FROZEN" selects the frozen ones).
func (v *View) allTxPage(status string) *viewkit.TablePage[wallet.Transaction] {
	crumb := secTxs
	if status != "" {
		crumb += " " + status
	}
	return viewkit.NewSharedTable(v.ctx, v.txSpec(crumb, true), viewkit.Shared[wallet.Transaction]{
		Source: txRows(v.ctx.Store, status, true),
	})
}
