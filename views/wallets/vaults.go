package wallets

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"treasury/data/live"
	"treasury/data/wallet"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// counts are the wallets and transactions of a vault or wallet.
type counts struct{ wallets, provisioned, txs, frozen int }

// countsBy tallies wallets per vault and transactions per vault and wallet.
func (v *View) countsBy() map[string]*counts {
	out := map[string]*counts{}
	get := func(id string) *counts {
		c := out[id]
		if c == nil {
			c = &counts{}
			out[id] = c
		}
		return c
	}
	ws, _ := v.wallets()
	for _, w := range ws {
		c := get(w.VaultID)
		c.wallets++
		if w.Status == wallet.WalletProvisioned {
			c.provisioned++
		}
	}
	ts, _ := v.txs()
	for _, t := range ts {
		for _, id := range []string{t.VaultID, t.WalletID} {
			c := get(id)
			c.txs++
			if t.FreezeInfo.IsFrozen {
				c.frozen++
			}
		}
	}
	return out
}

// tally holds the counts of a page's rows. Read forgets them and the first
// Row after it counts again: a store change that leaves the page's
// snapshots as they were keeps the rows and costs no pass over the
// transactions.
type tally struct {
	v *View
	m map[string]*counts
}

func (t *tally) forget() { t.m = nil }

func (t *tally) of(id string) counts {
	if t.m == nil {
		t.m = t.v.countsBy()
	}
	if c := t.m[id]; c != nil {
		return *c
	}
	return counts{}
}

func (v *View) vaultsPage() *viewkit.TablePage[wallet.Vault] {
	tl := &tally{v: v}
	return viewkit.NewTablePage(v.ctx, viewkit.TableSpec[wallet.Vault]{
		Crumb: secVaults,
		Columns: []table.Column{
			{Title: "Vault", Width: 19, Flex: 2}, {Title: "Wallets", Width: 7, Align: table.Right},
			{Title: "Provisioned", Width: 11, Align: table.Right}, {Title: "Txs", Width: 5, Align: table.Right},
			{Title: "Frozen", Width: 6, Align: table.Right}, {Title: "Created", Width: 10},
			{Title: "Description", Width: 11, Flex: 1}, {Title: "Vault id", Width: 9, Flex: 1},
		},
		Topics: []live.Topic{live.Vaults, live.Wallets, live.Transactions},
		Read: func() ([]wallet.Vault, live.Snapshot) {
			tl.forget()
			vs, snap := v.vaults()
			// The wallet counts change with the other topics: the newest
			// change of the three drives the re-read.
			for _, t := range []live.Topic{live.Wallets, live.Transactions} {
				if s := v.ctx.Store.Snapshot(t); s.Seq > snap.Seq {
					snap.Seq = s.Seq
				}
			}
			return vs, snap
		},
		Row: func(x wallet.Vault) table.Row {
			c := tl.of(x.ID)
			return table.Row{ID: x.ID, Cells: []string{sanitize.Line(x.Name), fmt.Sprint(c.wallets), fmt.Sprint(c.provisioned),
				fmt.Sprint(c.txs), fmt.Sprint(c.frozen), viewkit.TimeAs(x.CreatedAt, time.DateOnly), sanitize.Line(x.Description), sanitize.Line(x.ID)},
				Keys: []table.Key{{}, table.Int(int64(c.wallets)), table.Int(int64(c.provisioned)), table.Int(int64(c.txs)),
					table.Int(int64(c.frozen)), table.Time(x.CreatedAt)}}
		},
		Enter: func(x wallet.Vault) tea.Cmd { return v.Stack.Push(v.walletsPage(x)) },
		Empty: "no vaults visible to this credential",
	})
}

// settingsText is the four settings of a wallet, on or off.
func settingsText(s wallet.Settings) string {
	on := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	return "enabled " + on(s.Enabled) + " · raw signing " + on(s.RawSigningEnabled) +
		" · sweeping " + on(s.SweepingEnabled) + " · default freeze " + on(s.DefaultFreezeEnabled)
}

// flags is a short form of the settings for a table cell: E R S F for the
// settings that are on.
func flags(s wallet.Settings) string {
	var b strings.Builder
	for _, f := range []struct {
		on bool
		c  string
	}{{s.Enabled, "E"}, {s.RawSigningEnabled, "R"}, {s.SweepingEnabled, "S"}, {s.DefaultFreezeEnabled, "F"}} {
		if f.on {
			b.WriteString(f.c)
		} else {
			b.WriteString("·")
		}
	}
	return b.String()
}

func (v *View) walletsPage(vt wallet.Vault) *viewkit.TablePage[wallet.Wallet] {
	tl := &tally{v: v}
	return viewkit.NewTablePage(v.ctx, viewkit.TableSpec[wallet.Wallet]{
		Crumb: vt.Name,
		Columns: []table.Column{
			{Title: "Wallet", Width: 18, Flex: 2}, {Title: "Chain", Width: 8}, {Title: "Status", Width: 12},
			{Title: "ERSF", Width: 4}, {Title: "Txs", Width: 4, Align: table.Right}, {Title: "Frozen", Width: 6, Align: table.Right},
			{Title: "Address", Width: 12, Flex: 1}, {Title: "Wallet id", Width: 9, Flex: 1},
		},
		Topics: []live.Topic{live.Wallets, live.Transactions},
		Read: func() ([]wallet.Wallet, live.Snapshot) {
			tl.forget()
			all, snap := v.wallets()
			if s := v.ctx.Store.Snapshot(live.Transactions); s.Seq > snap.Seq {
				snap.Seq = s.Seq
			}
			var out []wallet.Wallet
			for _, w := range all {
				if w.VaultID == vt.ID {
					out = append(out, w)
				}
			}
			return out, snap
		},
		Row: func(w wallet.Wallet) table.Row {
			c := tl.of(w.ID)
			return table.Row{ID: w.ID, Cells: []string{sanitize.Line(w.Name), sanitize.Line(w.Blockchain), sanitize.Line(w.Status),
				flags(w.Settings), fmt.Sprint(c.txs), fmt.Sprint(c.frozen), sanitize.Line(w.Address), sanitize.Line(w.ID)},
				Keys: []table.Key{{}, {}, {}, {}, table.Int(int64(c.txs)), table.Int(int64(c.frozen))}}
		},
		Enter: func(w wallet.Wallet) tea.Cmd { return v.Stack.Push(v.walletPage(w)) },
		Empty: "this vault has no wallets",
	})
}
