package wallets

import (
	tea "charm.land/bubbletea/v2"

	"treasury/data/live"
	"treasury/data/wallet"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// txColumns are the columns of a transactions table: the wallet's name
// in a table of many wallets, else the destination address.
func txColumns(manyWallets bool) []table.Column {
	who := "Destination"
	if manyWallets {
		who = "Wallet"
	}
	return []table.Column{
		{Title: "Created UTC", Width: 14}, {Title: "Status", Width: 9, Flex: 1}, {Title: "Action", Width: 8},
		{Title: "Asset", Width: 5}, {Title: "Qty", Width: 12, Align: table.Right}, {Title: "Frozen", Width: 6},
		{Title: who, Width: 9, Flex: 2}, {Title: "Tx id", Width: 9, Flex: 1},
	}
}

// frozenText is a transaction's freeze state for a cell.
func frozenText(t wallet.Transaction) string {
	if t.FreezeInfo.IsFrozen {
		return "FROZEN"
	}
	return "—"
}

// txRow is a transaction's row; names, set in a table of many wallets, are
// the wallets' names by id. Its group is its wallet (SetGroup).
func txRow(t wallet.Transaction, names map[string]string) table.Row {
	who := t.DestinationAddress
	if names != nil {
		if who = names[t.WalletID]; who == "" {
			who = viewkit.Short(t.WalletID, 9)
		}
	}
	return table.Row{ID: t.ID, Group: t.WalletID, Cells: []string{viewkit.TimeAs(t.CreatedAt, "01-02 15:04:05"), sanitize.Line(t.Status), sanitize.Line(t.Action),
		sanitize.Line(t.Asset), viewkit.Amount(t.Qty, ""), frozenText(t), sanitize.Line(viewkit.Dash(who)), sanitize.Line(t.ID)},
		Keys: []table.Key{table.Time(t.CreatedAt), {}, {}, {}, table.Decimal(t.Qty)}}
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

// txRows is the rows of the store's transactions that have status ("" for
// all, "FROZEN" for the frozen ones), newest first: a projection shared by
// every session. manyWallets names each row's wallet, else its
// destination. Each row's group is its wallet.
func txRows(st *live.Store, status string, manyWallets bool) live.Key[viewkit.Projected[wallet.Transaction]] {
	name := "rows:" + status
	var also []live.Topic // the wallets whose names the rows show
	if manyWallets {
		also = []live.Topic{live.Wallets}
	} else {
		name += ":by-wallet"
	}
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
			return txRow(t, names)
		},
		Given: viewkit.NewestFirst,
		Also:  also,
	})
}

// txSpec is a transactions table, newest first, with drill-down and the
// freeze actions; manyWallets says whether they may come from more than
// one wallet. Its caller gives it its rows: a Source, or a Read.
func (v *View) txSpec(crumb string, manyWallets bool) viewkit.TableSpec[wallet.Transaction] {
	return viewkit.TableSpec[wallet.Transaction]{
		Crumb:   crumb,
		Columns: txColumns(manyWallets),
		Topics:  []live.Topic{live.Transactions, live.Wallets},
		Live:    true,
		Row:     func(t wallet.Transaction) table.Row { return txRow(t, walletNames(v.ctx.Store)) },
		Enter:   func(t wallet.Transaction) tea.Cmd { return v.Stack.Push(v.txPage(t.ID, &t)) },
		Actions: v.txActions(),
		Empty:   "no transactions",
		What:    "transactions",
	}
}

// allTxPage is every wallet's transactions, of one status when status is
// set ("FROZEN" selects the frozen ones).
func (v *View) allTxPage(status string) *viewkit.TablePage[wallet.Transaction] {
	crumb := secTxs
	if status != "" {
		crumb += " " + status
	}
	spec := v.txSpec(crumb, true)
	spec.Source = txRows(v.ctx.Store, status, true)
	return viewkit.NewTablePage(v.ctx, spec)
}
