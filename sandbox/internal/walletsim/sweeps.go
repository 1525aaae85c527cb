package walletsim

import (
	"math/rand/v2"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

// sweepDuration is how long a sweep instance runs.
const sweepDuration = 2 * time.Minute

// seedSweeps makes three sweep configurations: one running since just
// before start (for half an hour), one swept two days ago, one never.
func seedSweeps(w *world, r *rand.Rand, cs chainSet, start time.Time) {
	dest := func(name string) string {
		for _, wl := range w.wallets {
			if wl.Name == name {
				return wl.ID
			}
		}
		return ""
	}
	for i, t := range []struct {
		name, chain, dest string
		assets            []string
	}{
		{"USDC to treasury (Ethereum)", "ETHEREUM", "Treasury ETH hot", []string{"USDC"}},
		{"Polygon consolidation", "POLYGON", "Treasury Polygon", []string{"USDC", "POL"}},
		{"BTC to cold storage", "BITCOIN", "Cold BTC", []string{"BTC"}},
	} {
		sw := &sweep{rec: wallet.SweepConfig{ID: simkit.UUID(r), Name: t.name, Blockchain: t.chain,
			DestinationWallet: dest(t.dest), Assets: t.assets, Status: "ENABLED"}}
		w.sweeps = append(w.sweeps, sw)
		switch i {
		case 0:
			w.runSweep(r, sw, cs, start.Add(-time.Minute), start.Add(30*time.Minute))
		case 1:
			at := start.Add(-48 * time.Hour)
			w.runSweep(r, sw, cs, at, at.Add(sweepDuration))
		}
	}
}

// runSweep starts an instance of sw at at, with one SWEEP transaction per
// asset held by each other wallet on the chain, finishing at done.
func (w *world) runSweep(r *rand.Rand, sw *sweep, cs chainSet, at, done time.Time) string {
	inst := simkit.UUID(r)
	ch := cs[sw.rec.Blockchain]
	dst := w.wallet(sw.rec.DestinationWallet)
	for _, wl := range w.wallets {
		if wl.Blockchain != ch.name || wl.ID == sw.rec.DestinationWallet || wl.Status != wallet.WalletProvisioned {
			continue
		}
		for _, asset := range sw.rec.Assets {
			bal := w.balance(wl.ID, asset)
			if !bal.IsPositive() {
				continue
			}
			qty := bal.Div(decimal.NewFromInt(10)).Round(6)
			t := newTx(r, wl, ch, at, wallet.TxActionSweep, asset, qty, dst.Address, endConfirmed, "")
			t.instance = inst
			t.progress(at)
			w.txs = append(w.txs, t)
		}
	}
	sw.rec.SweepRunning, sw.rec.LastInstanceID, sw.doneAt = true, inst, done
	return inst
}

func listSweeps(c *call) {
	var ss []wallet.SweepConfig
	for _, s := range c.w.sweeps {
		ss = append(ss, c.sweepOut(s.rec))
	}
	spec := listSpec[wallet.SweepConfig]{id: func(s wallet.SweepConfig) string { return s.ID }, order: "name",
		fields: fields[wallet.SweepConfig]{"id": func(s wallet.SweepConfig) string { return s.ID },
			"name": func(s wallet.SweepConfig) string { return s.Name }, "blockchain": func(s wallet.SweepConfig) string { return s.Blockchain },
			"status": func(s wallet.SweepConfig) string { return s.Status }},
		enums: map[string][]string{"blockchain": c.s.chains.names()}}
	if page, f, ok := paginate(c, ss, spec); ok {
		c.ok(wallet.SweepsPage{SweepConfigurations: page, Filter: f})
	}
}

// lookupSweep answers ERR000.020 for an id that is not a UUID and the
// chosen ERR017.001 for a missing configuration.
func (c *call) lookupSweep() *sweep {
	ids, ok := c.ids("sweepId")
	if !ok {
		return nil
	}
	sw := c.w.sweep(ids[0])
	if sw == nil {
		c.notFound(reasonSweepGone, "sweep configuration not found")
	}
	return sw
}

func getSweep(c *call) {
	if sw := c.lookupSweep(); sw != nil {
		c.ok(c.sweepOut(sw.rec))
	}
}

// actionTrigger marks a sweep trigger's mutation.
const actionTrigger = "TRIGGER"

// triggerSweep starts an instance; a running configuration gives
// ERR017.006. The body is not shown in the spec: an optional mutationId
// (a UUID) is honoured as freezes honour theirs, so a retry of a trigger
// whose answer was lost gets the instance it started, not ERR017.006; the
// same mutationId on another sweep is invalid.
func triggerSweep(c *call) {
	sw := c.lookupSweep()
	if sw == nil {
		return
	}
	var req struct {
		MutationID string `json:"mutationId"`
	}
	if !c.decode(&req) {
		return
	}
	mid := strings.ToLower(req.MutationID)
	if mid != "" {
		if !simkit.IsUUID(mid) {
			c.invalid()
			return
		}
		if m, seen := c.w.mutations[mid]; seen {
			if m.txID != sw.rec.ID || m.action != actionTrigger {
				c.invalid()
				return
			}
			c.ok(wallet.TriggerResponse{InstanceID: m.instance})
			return
		}
	}
	if sw.rec.SweepRunning {
		c.precondition(reasonSweepRunning, "sweep configuration already running")
		return
	}
	c.w.counter++
	r := simkit.Rand(c.s.env.Seed, simkit.Key("walletsim-sweep"), c.w.counter)
	inst := c.w.runSweep(r, sw, c.s.chains, c.now, c.now.Add(sweepDuration))
	if mid != "" {
		c.w.mutations[mid] = mutation{txID: sw.rec.ID, action: actionTrigger, instance: inst, order: len(c.w.mutations) + 1}
	}
	c.ok(wallet.TriggerResponse{InstanceID: inst})
}

// instanceTransactions pages the transactions of a sweep instance with the
// top-level pageSize (max 100): 200 and empty when the instance does not
// exist.
func instanceTransactions(c *call) {
	ids, ok := c.ids("sweepId", "instanceId")
	if !ok {
		return
	}
	var ts []wallet.Transaction
	for _, t := range c.w.txs {
		if t.instance == ids[1] {
			ts = append(ts, c.txOut(t.rec))
		}
	}
	if page, f, ok := paginate(c, ts, txSpec("created_at", true)); ok {
		c.ok(wallet.TransactionsPage{Transactions: page, Filter: f})
	}
}
