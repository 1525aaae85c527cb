package wallets

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
)

// sweepActed tells the pages that a sweep was triggered.
type sweepActed struct{ id string }

// sweepFresh holds configurations read after a trigger, fresher than the
// store until its next change.
type sweepFresh struct {
	recs map[string]wallet.SweepConfig
	seq  uint64
	// asked are the reads of configurations triggered, by sweep id.
	asked map[string]live.Key[wallet.SweepConfig]
}

func (v *View) sweepsPage() *viewkit.TablePage[wallet.SweepConfig] {
	fr := &sweepFresh{recs: map[string]wallet.SweepConfig{}, asked: map[string]live.Key[wallet.SweepConfig]{}}
	return viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[wallet.SweepConfig]{
		Crumb: secSweeps,
		Columns: []table.Column{
			{Title: "Sweep", Width: 20, Flex: 2}, {Title: "Running", Width: 7}, {Title: "Last swept (UTC)", Width: 19},
			{Title: "Last instance", Width: 13, Flex: 1}, {Title: "Destination", Width: 12, Flex: 1}, {Title: "Assets", Width: 8, Flex: 1},
			{Title: "Chain", Width: 8}, {Title: "Status", Width: 8}, {Title: "Sweep id", Width: 9, Flex: 1},
		},
		Topics:  []live.Topic{live.Sweeps, live.Wallets},
		Enter:   v.pushSweepTxs,
		Actions: v.sweepActions(),
		Handle: func(msg tea.Msg) (bool, tea.Cmd) {
			switch msg := msg.(type) {
			case sweepActed:
				if v.p.Wallet == nil {
					return false, nil
				}
				k := live.Ask(v.ctx.Store, v.p.Reads.Sweep, msg.id)
				fr.asked[msg.id] = k
				return false, viewkit.Fetch(v.ctx, k, v.ctx.Store.Now())
			case viewkit.Fetched:
				taken := false
				for id, k := range fr.asked {
					if got := live.Get(v.ctx.Store, k); got.Loaded() || got.Err != nil {
						delete(fr.asked, id)
						if got.Err == nil {
							fr.recs[id], fr.seq, taken = got.Data, v.ctx.Store.Snapshot(live.Sweeps).Seq, true
						}
					}
				}
				return taken, nil
			}
			return false, nil
		},
		Empty: "no sweep configurations",
		// The destination wallet by id and by name, the assets "; "
		// between two, running true or false, "" for a sweep never run.
		Export: &viewkit.Export[wallet.SweepConfig]{
			Header: []string{"sweep_id", "name", "status", "sweep_running", "last_swept_at", "last_instance_id",
				"destination_wallet_id", "destination_wallet_name", "assets", "blockchain"},
			Row: func(s wallet.SweepConfig) []string {
				last, name := "", ""
				if s.LastSwept != nil {
					last = viewkit.ISO(*s.LastSwept)
				}
				if w, ok := v.wallet(s.DestinationWallet); ok {
					name = w.Name // "" for a wallet not held: its id is all there is
				}
				return []string{s.ID, s.Name, s.Status, viewkit.Bool(s.SweepRunning), last, s.LastInstanceID,
					s.DestinationWallet, name, strings.Join(s.Assets, "; "), s.Blockchain}
			},
		},
	}, viewkit.Own[wallet.SweepConfig]{
		Read: func() ([]wallet.SweepConfig, live.Snapshot) {
			got := live.Get(v.ctx.Store, live.SweepsKey)
			all, snap := got.Data, got.Snapshot
			if len(fr.recs) == 0 || snap.Seq > fr.seq {
				clear(fr.recs)
				return all, snap
			}
			out := make([]wallet.SweepConfig, len(all))
			for i, s := range all {
				out[i] = s
				if f, ok := fr.recs[s.ID]; ok {
					out[i] = f
				}
			}
			return out, snap
		},
		Row: func(s wallet.SweepConfig) table.Row {
			running, last, lastKey := "no", "never", table.Key{}
			if s.SweepRunning {
				running = "RUNNING"
			}
			if s.LastSwept != nil {
				last, lastKey = viewkit.Time(*s.LastSwept), table.Time(*s.LastSwept)
			}
			return table.Row{ID: s.ID, Cells: []string{sanitize.Line(s.Name), running, last, sanitize.Line(viewkit.Dash(s.LastInstanceID)),
				sanitize.Line(v.walletName(s.DestinationWallet)), sanitize.Line(strings.Join(s.Assets, ",")),
				sanitize.Line(s.Blockchain), sanitize.Line(s.Status), sanitize.Line(s.ID)},
				Keys: []table.Key{{}, {}, lastKey}}
		},
	})
}

// pushSweepTxs opens the transactions of a configuration's last instance,
// read from the interface.
func (v *View) pushSweepTxs(s wallet.SweepConfig) tea.Cmd {
	spec := v.txSpec("last run of "+s.Name, true)
	spec.Topics = []live.Topic{live.Wallets}
	spec.What = "the transactions of the last run of " + s.Name
	spec.Empty = "no transactions in the last run"
	if s.LastInstanceID == "" {
		spec.Empty = "this sweep has not run yet"
	}
	own, load := viewkit.ReadInto(v.ctx, &spec, live.Ask(v.ctx.Store, v.p.Reads.SweepTransactions, s.ID), v.txOwnRow(true))
	return tea.Batch(v.Stack.Push(viewkit.NewOwnTable(v.ctx, spec, own)), load)
}
