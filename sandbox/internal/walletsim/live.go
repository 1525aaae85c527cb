package walletsim

import (
	"math/rand/v2"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

// outcome is how an outgoing transaction ends.
type outcome int

const (
	endConfirmed outcome = iota
	endRejected          // policies disallow it: REJECTED with a problems entry
	endFailed            // the chain rejects it: FAILED, reasons, no problems
	endApproval          // waits in PENDING_APPROVAL, then confirms
)

// policyProblem is the problems entry of a transaction policies disallow.
func policyProblem(rule string) []wallet.Problem {
	return []wallet.Problem{{Reason: reasonPolicyDenial, Message: "Transaction denied by policy: " + rule, Retryable: false}}
}

// chainFailure is the blockchain's result for a FAILED transaction.
func chainFailure(c chain) []string {
	switch {
	case c.evm:
		return []string{"execution reverted: ERC20: transfer amount exceeds balance"}
	case c.name == "BITCOIN":
		return []string{"bad-txns-inputs-missingorspent"}
	case c.name == "SOLANA":
		return []string{"InstructionError(0, InsufficientFunds)"}
	default:
		return []string{"tecUNFUNDED_PAYMENT"}
	}
}

// newTx builds a transaction created at at and the statuses it will reach.
func newTx(r *rand.Rand, wl *wallet.Wallet, c chain, at time.Time, action, asset string, qty decimal.Decimal, other string, end outcome, rule string) *tx {
	t := &tx{rec: wallet.Transaction{ID: simkit.UUID(r), WalletID: wl.ID, VaultID: wl.VaultID,
		Status: wallet.TxRequested, Action: action, Asset: asset, Qty: qty,
		OriginAddress: wl.Address, DestinationAddress: other,
		Problems: []wallet.Problem{}, Reasons: []string{},
		FreezeInfo: wallet.FreezeInfo{History: []wallet.FreezeEvent{}}, CreatedAt: at}}
	hash := "0x" + simkit.Hex(r, 64)
	if !c.evm {
		hash = simkit.Hex(r, 64)
	}
	add := func(d time.Duration, status string) *step {
		t.steps = append(t.steps, step{at: at.Add(d), status: status})
		return &t.steps[len(t.steps)-1]
	}
	switch action {
	case wallet.TxActionDeposit:
		t.rec.OriginAddress, t.rec.DestinationAddress = other, wl.Address
		t.rec.Status, t.rec.Hash = wallet.TxBroadcasted, hash
		add(time.Minute, wallet.TxConfirmed)
		return t
	case wallet.TxActionSweep:
		add(5*time.Second, wallet.TxSigning)
		add(15*time.Second, wallet.TxBroadcasted).hash = hash
		add(time.Minute, wallet.TxConfirmed)
		return t
	}
	add(2*time.Second, wallet.TxPolicyCheckPending)
	if end == endRejected {
		add(5*time.Second, wallet.TxRejected).problems = policyProblem(rule)
		return t
	}
	sign := 10 * time.Second
	if end == endApproval {
		add(5*time.Second, wallet.TxPendingApproval)
		sign = 15 * time.Minute
	}
	add(sign, wallet.TxSigning)
	add(sign+10*time.Second, wallet.TxBroadcasted).hash = hash
	last := add(sign+90*time.Second, wallet.TxConfirmed)
	if end == endFailed {
		last.status, last.reasons = wallet.TxFailed, chainFailure(c)
	}
	return t
}

// progress applies the steps of t that are due by now. A frozen
// transaction stands still.
func (t *tx) progress(now time.Time) {
	if t.rec.FreezeInfo.IsFrozen {
		return
	}
	for len(t.steps) > 0 && !t.steps[0].at.After(now) {
		s := t.steps[0]
		t.steps = t.steps[1:]
		t.rec.Status = s.status
		if s.hash != "" {
			t.rec.Hash = s.hash
		}
		switch s.status {
		case wallet.TxRejected:
			t.rec.Problems = s.problems
		case wallet.TxFailed:
			t.rec.Problems, t.rec.Reasons = []wallet.Problem{}, s.reasons
		}
	}
}

// randomTx makes a deposit or an outgoing transfer on wl at at, with a
// random outcome.
func (w *world) randomTx(r *rand.Rand, wl *wallet.Wallet, c chain, at time.Time) *tx {
	a := c.assets[r.IntN(len(c.assets))]
	qty := minor(r, 1, 20000, a.decimals)
	if a.price.GreaterThan(decimal.NewFromInt(1000)) {
		qty = minor(r, 0, 3, a.decimals).Add(decimal.New(1, -2))
	}
	if r.IntN(10) < 4 {
		return newTx(r, wl, c, at, wallet.TxActionDeposit, a.symbol, qty, c.gen(r), endConfirmed, "")
	}
	dest := c.gen(r)
	if book := w.bookAddresses(c.name); len(book) > 0 && r.IntN(3) > 0 {
		dest = simkit.Pick(r, book)
	}
	end := endConfirmed
	switch p := r.IntN(100); {
	case p < 12:
		end = endRejected
	case p < 22:
		end = endFailed
	case p < 27:
		end = endApproval
	}
	t := newTx(r, wl, c, at, wallet.TxActionTransfer, a.symbol, qty, dest, end, simkit.Pick(r, w.rules[:3]).Name)
	if r.IntN(4) == 0 {
		t.rec.ExternalID = "ext-" + simkit.Hex(r, 12)
	}
	return t
}

// bookAddresses lists the address-book addresses usable on chainName.
func (w *world) bookAddresses(chainName string) []string {
	var out []string
	for _, a := range w.addresses {
		for _, b := range a.Blockchains {
			if b == chainName {
				out = append(out, a.Address)
				break
			}
		}
	}
	return out
}

// seedTransactions gives wl a month of settled history, a few frozen
// deposits, and three transactions still in flight at start.
func seedTransactions(w *world, r *rand.Rand, wl *wallet.Wallet, c chain, start time.Time) {
	for i := range 24 {
		at := start.Add(-time.Duration(30*24-i*30) * time.Hour).Add(time.Duration(r.IntN(3600)) * time.Second)
		t := w.randomTx(r, wl, c, at.Truncate(time.Millisecond))
		t.progress(start)
		if t.rec.Action == wallet.TxActionDeposit && t.rec.Status == wallet.TxConfirmed {
			switch r.IntN(8) {
			case 0:
				seedFreeze(r, t, false)
			case 1:
				seedFreeze(r, t, true)
			}
		}
		w.txs = append(w.txs, t)
	}
	for i, end := range []outcome{endApproval, endConfirmed, endFailed} {
		at := start.Add(-time.Duration(9-i*3) * time.Minute)
		a := c.assets[0]
		t := newTx(r, wl, c, at, wallet.TxActionTransfer, a.symbol, minor(r, 0, 2, a.decimals).Add(decimal.New(1, -2)),
			c.gen(r), end, "")
		t.progress(start)
		w.txs = append(w.txs, t)
	}
}

// seedFreeze freezes t (and unfreezes it again when thawed) in its history.
func seedFreeze(r *rand.Rand, t *tx, thawed bool) {
	at := t.rec.CreatedAt.Add(2 * time.Hour)
	t.rec.FreezeInfo.History = append(t.rec.FreezeInfo.History, wallet.FreezeEvent{Action: wallet.ActionFreeze,
		Reason: "Sanctions screening hit on origin address", MutationID: simkit.UUID(r),
		PerformedBy: "compliance-bot", PerformedAt: at})
	t.rec.FreezeInfo.IsFrozen = true
	if thawed {
		t.rec.FreezeInfo.History = append(t.rec.FreezeInfo.History, wallet.FreezeEvent{Action: wallet.ActionUnfreeze,
			Reason: "Cleared after manual review", MutationID: simkit.UUID(r),
			PerformedBy: "compliance-officer", PerformedAt: at.Add(26 * time.Hour)})
		t.rec.FreezeInfo.IsFrozen = false
	}
}

// liveGap is the mean sandbox time between generated transactions.
const liveGap = 3 * time.Minute

// advance brings the world to now: new transactions appear, transactions,
// wallets, limits and sweeps move on. It is a function of the seed and the
// clock only, whenever it is called.
func (s *Sim) advance(now time.Time) {
	w := s.w
	funded := s.fundedSeeded()
	for !w.liveNext.After(now) {
		r := simkit.Rand(s.env.Seed, simkit.Key("walletsim-live"), w.liveN)
		wl := funded[r.IntN(len(funded))]
		t := w.randomTx(r, wl, s.chains[wl.Blockchain], w.liveNext)
		t.progress(now)
		w.txs = append(w.txs, t)
		w.liveN++
		w.liveNext = w.liveNext.Add(time.Duration((0.2 + 1.6*r.Float64()) * float64(liveGap))).Truncate(time.Millisecond)
	}
	for _, t := range w.txs {
		t.progress(now)
	}
	for id, at := range w.provisioning {
		if !at.After(now) {
			if wl := w.wallet(id); wl != nil {
				wl.Status = wallet.WalletProvisioned
				wl.Settings.Enabled = true
				w.balances[id] = []wallet.Balance{}
				w.sequences[id] = 0
			}
			delete(w.provisioning, id)
		}
	}
	for _, l := range w.limits {
		if !l.activeAt.IsZero() && !l.activeAt.After(now) {
			l.rec.Status, l.activeAt = wallet.LimitActive, time.Time{}
		}
	}
	for _, sw := range w.sweeps {
		if sw.rec.SweepRunning && !sw.doneAt.After(now) {
			done := sw.doneAt
			sw.rec.SweepRunning, sw.rec.LastSwept, sw.doneAt = false, &done, time.Time{}
		}
	}
	s.prune(now)
}

// prune drops, once every simkit.PruneEvery of sandbox time, the
// transactions created before Options.Retain's span that have settled (no
// status to come, not frozen: a frozen one can still be unfrozen), so
// that live traffic does not grow the world (and the work of each
// request, which walks it) without bound. A list inside the span reads
// the same.
func (s *Sim) prune(now time.Time) {
	w := s.w
	if now.Before(w.nextPrune) {
		return
	}
	w.nextPrune = now.Add(simkit.PruneEvery)
	from, ok := simkit.KeepFrom(s.opts.Retain, now)
	if !ok {
		return
	}
	kept := w.txs[:0]
	for _, t := range w.txs {
		if t.rec.CreatedAt.Before(from) && len(t.steps) == 0 && !t.rec.FreezeInfo.IsFrozen {
			continue
		}
		kept = append(kept, t)
	}
	clear(w.txs[len(kept):])
	w.txs = kept
}

// Transactions is how many transactions the simulator holds, brought up
// to the clock.
func (s *Sim) Transactions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advance(s.env.Clock.Now())
	return len(s.w.txs)
}

// fundedSeeded lists the seeded wallets that live traffic runs on.
func (s *Sim) fundedSeeded() []*wallet.Wallet {
	var out []*wallet.Wallet
	for _, wl := range s.w.wallets[:len(templates())] {
		if wl.Status == wallet.WalletProvisioned && len(s.w.balances[wl.ID]) > 0 {
			out = append(out, wl)
		}
	}
	return out
}
