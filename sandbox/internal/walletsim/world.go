package walletsim

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire/wallet"
)

// step is a status a transaction reaches at a sandbox time, with the
// problems (policy denial) or reasons (blockchain result) it then carries.
type step struct {
	at       time.Time
	status   string
	problems []wallet.Problem
	reasons  []string
	hash     string // set when broadcast
}

// tx is a wallet transaction and the statuses it has yet to reach.
type tx struct {
	rec      wallet.Transaction
	steps    []step    // pending, in time order
	frozenAt time.Time // when frozen; progress pauses while frozen
	instance string    // sweep instance id, when a sweep made it
}

// limit is a wallet limit and when it leaves PENDING_APPROVAL.
type limit struct {
	rec      wallet.Limit
	activeAt time.Time // zero when already active
}

// sweep is a sweep configuration; a running one finishes at doneAt.
type sweep struct {
	rec    wallet.SweepConfig
	doneAt time.Time
}

// mutation is the remembered answer to a freeze or unfreeze, or to a
// sweep trigger (txID is then the sweep's id, instance its answer), by
// mutationId.
type mutation struct {
	txID, action string
	answer       wallet.Transaction
	instance     string
	order        int // its place among the mutations applied (Keys)
}

// world is the simulator's state. Every field is guarded by Sim.mu.
type world struct {
	vaults         []wallet.Vault
	wallets        []*wallet.Wallet
	balances       map[string][]wallet.Balance // by wallet id
	sequences      map[string]int64
	txs            []*tx
	limits         []*limit
	rules          []wallet.PolicyRule
	counterparties []wallet.Counterparty
	addresses      []wallet.Address
	webhooks       []wallet.Webhook
	subs           []wallet.Subscription
	sweeps         []*sweep
	mutations      map[string]mutation
	creds          []Credential

	// provisioning holds wallets that become PROVISIONED at a time.
	provisioning map[string]time.Time

	// live traffic: the next generated transaction and when it appears.
	liveN    uint64
	liveNext time.Time
	// nextPrune is when settled transactions are next pruned.
	nextPrune time.Time
	counter   uint64 // ids of records created through the API
}

func (w *world) vault(id string) *wallet.Vault {
	for i := range w.vaults {
		if w.vaults[i].ID == id {
			return &w.vaults[i]
		}
	}
	return nil
}

func (w *world) wallet(id string) *wallet.Wallet {
	for _, x := range w.wallets {
		if x.ID == id {
			return x
		}
	}
	return nil
}

func (w *world) tx(id string) *tx {
	for _, t := range w.txs {
		if t.rec.ID == id {
			return t
		}
	}
	return nil
}

func (w *world) counterparty(id string) *wallet.Counterparty {
	for i := range w.counterparties {
		if w.counterparties[i].ID == id {
			return &w.counterparties[i]
		}
	}
	return nil
}

func (w *world) webhook(id string) *wallet.Webhook {
	for i := range w.webhooks {
		if w.webhooks[i].ID == id {
			return &w.webhooks[i]
		}
	}
	return nil
}

func (w *world) sweep(id string) *sweep {
	for _, s := range w.sweeps {
		if s.rec.ID == id {
			return s
		}
	}
	return nil
}

// balance returns the wallet's balance of symbol (zero when none).
func (w *world) balance(walletID, symbol string) decimal.Decimal {
	for _, b := range w.balances[walletID] {
		if b.Asset.Symbol == symbol {
			return b.AvailableBalance
		}
	}
	return decimal.Zero
}

// knownAddress reports whether addr is in the address book for chain.
func (w *world) knownAddress(addr, chainName string) bool {
	return slices.Contains(w.bookAddresses(chainName), addr)
}
