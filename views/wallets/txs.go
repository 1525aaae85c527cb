package wallets

import (
	tea "github.com/charmbracelet/bubbletea"

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
// the wallets' names by id.
func (v *View) txRow(t wallet.Transaction, names map[string]string) table.Row {
	who := t.DestinationAddress
	if names != nil {
		if who = names[t.WalletID]; who == "" {
			who = viewkit.Short(t.WalletID, 9)
		}
	}
	return table.Row{ID: t.ID, Cells: []string{viewkit.TimeAs(t.CreatedAt, "01-02 15:04:05"), sanitize.Line(t.Status), sanitize.Line(t.Action),
		sanitize.Line(t.Asset), viewkit.Amount(t.Qty, ""), frozenText(t), sanitize.Line(viewkit.Dash(who)), sanitize.Line(t.ID)},
		Keys: []table.Key{table.Time(t.CreatedAt), {}, {}, {}, table.Decimal(t.Qty)}}
}

// txSpec is a transactions table of the store's transactions that keep
// returns true for, newest first, with drill-down and the freeze actions;
// manyWallets says whether they may come from more than one wallet.
func (v *View) txSpec(crumb string, manyWallets bool, keep func(wallet.Transaction) bool) viewkit.TableSpec[wallet.Transaction] {
	// names are read once per rebuild of the rows, not once per row.
	var names map[string]string
	return viewkit.TableSpec[wallet.Transaction]{
		Crumb:   crumb,
		Columns: txColumns(manyWallets),
		Topics:  []live.Topic{live.Transactions, live.Wallets},
		Read: func() ([]wallet.Transaction, live.Snapshot) {
			all, snap := v.txs()
			names = nil
			var out []wallet.Transaction
			for _, t := range all {
				if keep(t) {
					out = append(out, t)
				}
			}
			return out, snap
		},
		Row: func(t wallet.Transaction) table.Row {
			if manyWallets && names == nil {
				names = v.walletNames()
			}
			return v.txRow(t, names)
		},
		Enter:    func(t wallet.Transaction) tea.Cmd { return v.Stack.Push(v.txPage(t.ID, &t)) },
		Actions:  v.txActions(),
		SortCol:  0,
		SortDesc: true,
		Empty:    "no transactions",
	}
}

// allTxPage is every wallet's transactions, of one status when status is
// set ("FROZEN" selects the frozen ones).
func (v *View) allTxPage(status string) *viewkit.TablePage[wallet.Transaction] {
	crumb := secTxs
	if status != "" {
		crumb += " " + status
	}
	return viewkit.NewTablePage(v.ctx, v.txSpec(crumb, true, func(t wallet.Transaction) bool {
		switch status {
		case "":
			return true
		case "FROZEN":
			return t.FreezeInfo.IsFrozen
		}
		return t.Status == status
	}))
}
