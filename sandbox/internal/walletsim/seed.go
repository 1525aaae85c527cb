package walletsim

import (
	"math/rand/v2"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

// walletTemplate places one seeded wallet.
type walletTemplate struct {
	vault  int
	chain  string
	name   string
	status string
	mpc    bool
	empty  bool // provisioned but holding nothing (fee estimates fail)
}

func templates() []walletTemplate {
	P := wallet.WalletProvisioned
	return []walletTemplate{
		{0, "ETHEREUM", "Treasury ETH hot", P, true, false},
		{0, "POLYGON", "Treasury Polygon", P, false, false},
		{0, "BITCOIN", "Treasury BTC", P, true, false},
		{0, "SOLANA", "Treasury SOL", P, false, false},
		{1, "ETHEREUM", "Client omnibus ETH", P, false, false},
		{1, "XRPL", "Client XRPL", P, false, false},
		{1, "ARBITRUM", "Client Arbitrum", wallet.WalletProvisioning, false, false},
		{1, "BITCOIN", "Client BTC deposits", P, false, false},
		{2, "BITCOIN", "Cold BTC", P, true, false},
		{2, "ETHEREUM", "Cold ETH", P, true, false},
		{2, "XRPL", "Cold XRPL", wallet.WalletProvisioningFailed, false, false},
		{3, "ETHEREUM", "Fee float (unfunded)", P, false, true},
		{3, "POLYGON", "Polygon sweep source", P, false, false},
	}
}

// seedWorld builds the world as it stands at start. Everything comes from
// one generator in a fixed order, so a seed gives the same world.
func seedWorld(seed uint64, start time.Time, creds []Credential, cs chainSet) *world {
	r := simkit.Rand(seed, simkit.Key("walletsim-world"))
	w := &world{balances: map[string][]wallet.Balance{}, sequences: map[string]int64{},
		mutations: map[string]mutation{}, provisioning: map[string]time.Time{}, creds: creds}
	ago := func(d time.Duration) time.Time { return start.Add(-d).Truncate(time.Millisecond) }

	for i, name := range []string{"Treasury Operations", "Client Custody", "Cold Reserve", "Fees and Sweeps"} {
		w.vaults = append(w.vaults, wallet.Vault{ID: simkit.UUID(r), Name: name,
			Description: "Seeded vault " + name, CreatedAt: ago(time.Duration(400-i*30) * 24 * time.Hour)})
	}
	for i, t := range templates() {
		c := cs[t.chain]
		wl := &wallet.Wallet{ID: simkit.UUID(r), VaultID: w.vaults[t.vault].ID, Name: t.name,
			Address: c.gen(r), Blockchain: t.chain, Status: t.status,
			CreatedAt: ago(time.Duration(300-i*7) * 24 * time.Hour),
			Settings: wallet.Settings{Enabled: t.status == wallet.WalletProvisioned, RawSigningEnabled: c.evm,
				SweepingEnabled: i%3 != 0, DefaultFreezeEnabled: i%4 == 1}}
		if t.mpc {
			wl.QuorumID = simkit.UUID(r)
		}
		w.wallets = append(w.wallets, wl)
		if t.status != wallet.WalletProvisioned {
			continue
		}
		w.sequences[wl.ID] = r.Int64N(5000)
		if t.empty {
			w.balances[wl.ID] = []wallet.Balance{}
			continue
		}
		for _, a := range c.assets {
			w.balances[wl.ID] = append(w.balances[wl.ID], seedBalance(r, c.name, a))
		}
	}
	seedAddressBook(w, r, cs, ago)
	seedPolicies(w, r, ago)
	seedWebhooks(w, r, ago)
	for _, wl := range w.wallets {
		if wl.Status != wallet.WalletProvisioned || len(w.balances[wl.ID]) == 0 {
			continue
		}
		seedTransactions(w, r, wl, cs[wl.Blockchain], start)
	}
	seedSweeps(w, r, cs, start)
	sort.SliceStable(w.txs, func(i, j int) bool { return w.txs[i].rec.CreatedAt.Before(w.txs[j].rec.CreatedAt) })
	return w
}

// minor returns a random amount between lo and hi whole units of an asset
// with the given decimals, built from integer minor units (never a float).
func minor(r *rand.Rand, lo, hi int64, decimals int) decimal.Decimal {
	places := min(decimals, 6)
	scale := int64(1)
	for range places {
		scale *= 10
	}
	return decimal.New(lo*scale+r.Int64N((hi-lo)*scale+1), -int32(places))
}

func seedBalance(r *rand.Rand, chainName string, a assetDef) wallet.Balance {
	total := minor(r, 5, 250000, a.decimals)
	if a.price.GreaterThan(decimal.NewFromInt(1000)) {
		total = minor(r, 1, 120, a.decimals)
	}
	pending := decimal.Zero
	if r.IntN(3) == 0 {
		pending = total.Div(decimal.NewFromInt(20)).Round(int32(min(a.decimals, 6)))
	}
	frozen := decimal.Zero
	if r.IntN(4) == 0 {
		frozen = total.Div(decimal.NewFromInt(50)).Round(int32(min(a.decimals, 6)))
	}
	return wallet.Balance{Asset: wallet.Asset{Symbol: a.symbol, Blockchain: chainName, Decimals: a.decimals},
		Balance: total, AvailableBalance: total.Sub(pending).Sub(frozen), PendingBalance: pending,
		FrozenBalance: frozen, FiatValue: total.Mul(a.price).Round(2)}
}

func seedAddressBook(w *world, r *rand.Rand, cs chainSet, ago func(time.Duration) time.Time) {
	names := []string{"Acme Remittance Ltd", "Borealis Exchange", "Coral Bay Payments",
		"Delta Settlement GmbH", "Everest OTC Desk", "Fjord Treasury AS"}
	chainSets := [][]string{{"ETHEREUM", "POLYGON", "ARBITRUM"}, {"BITCOIN"}, {"SOLANA"}, {"XRPL"}, {"ETHEREUM"}}
	for i, n := range names {
		cp := wallet.Counterparty{ID: simkit.UUID(r), Name: n, Description: "Counterparty " + n,
			CreatedAt: ago(time.Duration(200-i*11) * 24 * time.Hour)}
		w.counterparties = append(w.counterparties, cp)
		for j := range 1 + r.IntN(3) {
			bc := chainSets[(i+j)%len(chainSets)]
			w.addresses = append(w.addresses, wallet.Address{ID: simkit.UUID(r), CounterpartyID: cp.ID,
				Address: cs[bc[0]].gen(r), Blockchains: append([]string(nil), bc...),
				Label: n + " " + bc[0], CreatedAt: cp.CreatedAt.Add(time.Duration(j+1) * time.Hour)})
		}
	}
}

// Limit types (chosen: the spec names "limit type" only).
const (
	limitVolume = "TRANSFER_VOLUME"
	limitCount  = "TRANSFER_COUNT"
)

func seedPolicies(w *world, r *rand.Rand, ago func(time.Duration) time.Time) {
	for i, p := range []struct{ name, action, status string }{
		{"Whitelisted destinations only", "REJECT", "ACTIVE"},
		{"Large transfers need two approvers", "REQUIRE_APPROVAL", "ACTIVE"},
		{"Sanctions screening", "REJECT", "ACTIVE"},
		{"Weekend outflow freeze", "REJECT", "PENDING_APPROVAL"},
	} {
		w.rules = append(w.rules, wallet.PolicyRule{ID: simkit.UUID(r), Name: p.name,
			Description: "Seeded rule: " + p.name, Action: p.action, Status: p.status,
			CreatedAt: ago(time.Duration(90-i*9) * 24 * time.Hour)})
	}
	durations := []string{"86400s", "604800s", "2592000s"}
	for i, wl := range w.wallets {
		if wl.Status != wallet.WalletProvisioned || i%2 == 1 {
			continue
		}
		bals := w.balances[wl.ID]
		if len(bals) == 0 {
			continue
		}
		status := wallet.LimitActive
		if i%4 == 2 {
			status = wallet.LimitPendingApproval
		}
		m := []wallet.Matcher{{Type: wallet.MatchAllCounterparties}}
		if i%3 == 1 {
			m = []wallet.Matcher{{Type: wallet.MatchCounterpartyID, Value: w.counterparties[i%len(w.counterparties)].ID}}
		}
		w.limits = append(w.limits, &limit{rec: wallet.Limit{ID: simkit.UUID(r), LimitType: limitVolume,
			Asset: bals[0].Asset.Symbol, LimitQty: bals[0].Balance.Div(decimal.NewFromInt(4)).Round(2),
			Duration: durations[i%3], Matchers: m, Status: status, WalletID: wl.ID,
			CreatedAt: ago(time.Duration(40-i) * 24 * time.Hour)}})
	}
}

func seedWebhooks(w *world, r *rand.Rand, ago func(time.Duration) time.Time) {
	for i, h := range []struct{ name, endpoint string }{
		{"ops-alerts", "https://hooks.example.com/wallet"},
		{"compliance-feed", "https://compliance.example.net/hooks/wallet"},
	} {
		wh := wallet.Webhook{ID: simkit.UUID(r), Name: h.name, Endpoint: h.endpoint, CreatedAt: ago(time.Duration(60-i) * 24 * time.Hour)}
		w.webhooks = append(w.webhooks, wh)
		w.subs = append(w.subs, wallet.Subscription{ID: simkit.UUID(r), WebhookID: wh.ID,
			Domain: wallet.DomainTransaction, CreatedAt: wh.CreatedAt.Add(time.Minute)})
		if i == 0 {
			w.subs = append(w.subs, wallet.Subscription{ID: simkit.UUID(r), WebhookID: wh.ID,
				Domain: wallet.DomainWallet, CreatedAt: wh.CreatedAt.Add(2 * time.Minute)})
		}
	}
}
