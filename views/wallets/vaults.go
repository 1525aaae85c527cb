package wallets

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/figures/columns"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
)

// counts are the wallets and transactions of a vault or wallet;
// walletsErr and txsErr, when set, say why the wallet or the transaction
// counts are unknown: the read they come from does not cover the record.
type counts struct {
	wallets, provisioned, txs, frozen int
	walletsErr, txsErr                error
}

// tallies are the counts of every vault and wallet held, and what the
// wallets and transactions reads cover.
type tallies struct {
	by        map[string]*counts
	wc, tc    cover
	vaults    map[string]wallet.Vault    // by id
	walletsOf map[string][]wallet.Wallet // by vault id
}

// countsBy tallies wallets per vault and transactions per vault and wallet.
func (v *View) countsBy() *tallies {
	ws, wsnap := v.wallets()
	ts, tsnap := v.txs()
	vs, _ := v.vaults()
	t := &tallies{by: map[string]*counts{}, wc: coverOf(wsnap), tc: coverOf(tsnap),
		vaults: make(map[string]wallet.Vault, len(vs)), walletsOf: map[string][]wallet.Wallet{}}
	for _, x := range vs {
		t.vaults[x.ID] = x
	}
	get := func(id string) *counts {
		c := t.by[id]
		if c == nil {
			c = &counts{}
			t.by[id] = c
		}
		return c
	}
	for _, w := range ws {
		t.walletsOf[w.VaultID] = append(t.walletsOf[w.VaultID], w)
		c := get(w.VaultID)
		c.wallets++
		if w.Status == wallet.WalletProvisioned {
			c.provisioned++
		}
	}
	for _, tx := range ts {
		for _, id := range []string{tx.VaultID, tx.WalletID} {
			c := get(id)
			c.txs++
			if tx.FreezeInfo.IsFrozen {
				c.frozen++
			}
		}
	}
	return t
}

func (t *tallies) of(id string) counts {
	if c := t.by[id]; c != nil {
		return *c
	}
	return counts{}
}

// vault is a vault's counts: its wallet counts are unknown when the
// wallets read did not cover it, its transaction counts when the
// transactions read did not cover it or one of its wallets.
func (t *tallies) vault(x wallet.Vault) counts {
	c := t.of(x.ID)
	c.walletsErr = t.wc.missing(vaultSources(x)...)
	names := vaultSources(x)
	for _, w := range t.walletsOf[x.ID] {
		names = append(names, walletSources(w, x, false)...)
	}
	c.txsErr = t.tc.missing(names...)
	return c
}

// wallet is a wallet's counts: unknown when the transactions read did not
// cover it or its vault.
func (t *tallies) wallet(w wallet.Wallet) counts {
	c := t.of(w.ID)
	x, ok := t.vaults[w.VaultID]
	c.txsErr = t.tc.missing(walletSources(w, x, ok)...)
	return c
}

// tally holds the counts of a page's rows. Read forgets them and the first
// Row after it counts again: a store change that leaves the page's
// snapshots as they were keeps the rows and costs no pass over the
// transactions.
type tally struct {
	v *View
	t *tallies
}

func (t *tally) forget() { t.t = nil }

func (t *tally) get() *tallies {
	if t.t == nil {
		t.t = t.v.countsBy()
	}
	return t.t
}

// walletsSource and txsSource are the topics the counts of the vaults and
// wallets pages come from, for viewkit.Needs.
func walletsSource() viewkit.Source { return viewkit.Source{Topic: live.Wallets, Name: "wallets"} }

func txsSource() viewkit.Source {
	return viewkit.Source{Topic: live.Transactions, Name: "transactions"}
}

func (v *View) vaultsPage() *viewkit.TablePage[wallet.Vault] {
	tl := &tally{v: v}
	return viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[wallet.Vault]{
		Crumb: secVaults,
		Columns: []table.Column{
			{Title: "Vault", Width: 19, Flex: 2}, {Title: "Wallets", Width: 7, Align: table.Right},
			{Title: "Provisioned", Width: 11, Align: table.Right}, {Title: "Txs", Width: 5, Align: table.Right},
			{Title: "Frozen", Width: 6, Align: table.Right}, {Title: "Created", Width: 10},
			{Title: "Description", Width: 11, Flex: 1}, {Title: "Vault id", Width: 9, Flex: 1},
		},
		Topics: []live.Topic{live.Vaults, live.Wallets, live.Transactions},
		Enter:  func(x wallet.Vault) tea.Cmd { return v.Stack.Push(v.walletsPage(x)) },
		Empty:  "no vaults visible to this credential",
		What:   "vaults",
		// The vault's fields and its counts, "" for a count not known.
		Export: &viewkit.Export[wallet.Vault]{
			Header: []string{"vault_id", "name", "description", "created_at", "wallets", "provisioned_wallets",
				"transactions", "frozen_transactions"},
			Row: func(x wallet.Vault) []string {
				c := tl.get().vault(x)
				return []string{x.ID, x.Name, x.Description, viewkit.ISO(x.CreatedAt), viewkit.Count(c.wallets, c.walletsErr),
					viewkit.Count(c.provisioned, c.walletsErr), viewkit.Count(c.txs, c.txsErr), viewkit.Count(c.frozen, c.txsErr)}
			},
		},
	}, viewkit.Own[wallet.Vault]{
		Read: func() ([]wallet.Vault, live.Snapshot) {
			tl.forget()
			vs, snap := v.vaults()
			// The counts come from the other topics: the newest change of
			// the three drives the re-read, and a topic without data is
			// named above the counts it leaves unknown.
			return vs, viewkit.Needs(v.ctx.Store, snap, "the vaults' counts", walletsSource(), txsSource())
		},
		Row: func(x wallet.Vault) table.Row {
			c := tl.get().vault(x)
			return table.Row{ID: x.ID, Cells: []string{sanitize.Line(x.Name), figure(c.wallets, c.walletsErr), figure(c.provisioned, c.walletsErr),
				figure(c.txs, c.txsErr), figure(c.frozen, c.txsErr), viewkit.TimeAs(x.CreatedAt, time.DateOnly), sanitize.Line(x.Description), sanitize.Line(x.ID)},
				Keys: []table.Key{{}, countKey(c.wallets, c.walletsErr), countKey(c.provisioned, c.walletsErr), countKey(c.txs, c.txsErr),
					countKey(c.frozen, c.txsErr), table.Time(x.CreatedAt)}}
		},
	})
}

// countKey sorts an unknown count before every known one.
func countKey(n int, err error) table.Key {
	if err != nil {
		return table.Int(-1)
	}
	return table.Int(int64(n))
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

func (v *View) walletsPage(vt wallet.Vault) *viewkit.TablePage[wallet.Wallet] {
	tl := &tally{v: v}
	set := columns.Wallets()
	return viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[wallet.Wallet]{
		Crumb: vt.Name,
		// A wallet's short columns (package columns, as `treasury get
		// wallets` prints them) with its counts after the settings.
		Columns: slices.Insert(viewkit.Columns(set), 4, table.Column{Title: "Txs", Width: 4, Align: table.Right},
			table.Column{Title: "Frozen", Width: 6, Align: table.Right}),
		Topics: []live.Topic{live.Wallets, live.Transactions},
		Enter:  func(w wallet.Wallet) tea.Cmd { return v.Stack.Push(v.walletPage(w)) },
		Empty:  "this vault has no wallets",
		What:   "the wallets of vault " + vt.Name,
		// The wallet's fields, each setting a column of its own (not the
		// screen's "ERS·"), its counts "" when not known.
		Export: &viewkit.Export[wallet.Wallet]{
			Header: []string{"wallet_id", "name", "vault_id", "blockchain", "status", "enabled", "raw_signing_enabled",
				"sweeping_enabled", "default_freeze_enabled", "transactions", "frozen_transactions", "address", "quorum_id", "created_at"},
			Row: func(w wallet.Wallet) []string {
				c, s := tl.get().wallet(w), w.Settings
				return []string{w.ID, w.Name, w.VaultID, w.Blockchain, w.Status, viewkit.Bool(s.Enabled), viewkit.Bool(s.RawSigningEnabled),
					viewkit.Bool(s.SweepingEnabled), viewkit.Bool(s.DefaultFreezeEnabled), viewkit.Count(c.txs, c.txsErr),
					viewkit.Count(c.frozen, c.txsErr), w.Address, w.QuorumID, viewkit.ISO(w.CreatedAt)}
			},
		},
	}, viewkit.Own[wallet.Wallet]{
		Read: func() ([]wallet.Wallet, live.Snapshot) {
			tl.forget()
			all, snap := v.wallets()
			// The vault's part of a partial wallets read failed: its
			// wallets are unknown, not none.
			if err := coverOf(snap).missing(vaultSources(vt)...); err != nil && snap.Loaded() {
				return nil, failedState(snap, err)
			}
			var out []wallet.Wallet
			for _, w := range all {
				if w.VaultID == vt.ID {
					out = append(out, w)
				}
			}
			return out, viewkit.Needs(v.ctx.Store, snap, "the wallets' counts", txsSource())
		},
		Row: func(w wallet.Wallet) table.Row {
			c := tl.get().wallet(w)
			r := viewkit.RowOf(set, w.ID, w, columns.At{})
			r.Cells = slices.Insert(r.Cells, 4, figure(c.txs, c.txsErr), figure(c.frozen, c.txsErr))
			r.Keys = slices.Insert(r.Keys, 4, countKey(c.txs, c.txsErr), countKey(c.frozen, c.txsErr))
			return r
		},
	})
}
