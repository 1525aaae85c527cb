package walletsim

import (
	"strings"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

func vaultSpec() listSpec[wallet.Vault] {
	return listSpec[wallet.Vault]{id: func(v wallet.Vault) string { return v.ID }, order: "created_at",
		fields: fields[wallet.Vault]{"id": func(v wallet.Vault) string { return v.ID },
			"name": func(v wallet.Vault) string { return v.Name }, "created_at": func(v wallet.Vault) string { return stamp(v.CreatedAt) }}}
}

func walletSpec() listSpec[wallet.Wallet] {
	return listSpec[wallet.Wallet]{id: func(w wallet.Wallet) string { return w.ID }, order: "created_at",
		fields: fields[wallet.Wallet]{"id": func(w wallet.Wallet) string { return w.ID },
			"name": func(w wallet.Wallet) string { return w.Name }, "blockchain": func(w wallet.Wallet) string { return w.Blockchain },
			"status":     func(w wallet.Wallet) string { return w.Status },
			"created_at": func(w wallet.Wallet) string { return stamp(w.CreatedAt) }},
		enums: map[string][]string{"blockchain": newChainSet().names(),
			"status": {wallet.WalletCreated, wallet.WalletProvisioning, wallet.WalletProvisioned, wallet.WalletProvisioningFailed}}}
}

func balanceSpec() listSpec[wallet.Balance] {
	key := func(b wallet.Balance) string { return b.Asset.Blockchain + "/" + b.Asset.Symbol }
	return listSpec[wallet.Balance]{id: key, order: "asset",
		fields: fields[wallet.Balance]{"asset": key, "symbol": func(b wallet.Balance) string { return b.Asset.Symbol },
			"blockchain": func(b wallet.Balance) string { return b.Asset.Blockchain }},
		enums: map[string][]string{"blockchain": newChainSet().names()}}
}

func listVaults(c *call) {
	var vs []wallet.Vault
	for _, v := range c.w.vaults {
		if c.cred.sees(v.ID) {
			vs = append(vs, c.vaultOut(v))
		}
	}
	if page, f, ok := paginate(c, vs, vaultSpec()); ok {
		c.ok(wallet.VaultsPage{Vaults: page, Filter: f})
	}
}

func getVault(c *call) {
	ids, ok := c.ids("vaultId")
	if !ok {
		return
	}
	v := c.w.vault(ids[0])
	if v == nil || !c.cred.sees(v.ID) {
		c.notFound(reasonVaultNotFound, "vault not found")
		return
	}
	c.ok(c.vaultOut(*v))
}

// listWallets lists the wallets of a vault: 200 and empty when the vault
// does not exist.
func listWallets(c *call) {
	ids, ok := c.ids("vaultId")
	if !ok {
		return
	}
	var ws []wallet.Wallet
	if c.cred.sees(ids[0]) {
		for _, w := range c.w.wallets {
			if w.VaultID == ids[0] {
				ws = append(ws, c.walletOut(*w))
			}
		}
	}
	if page, f, ok := paginate(c, ws, walletSpec()); ok {
		c.ok(wallet.WalletsPage{Wallets: page, Filter: f})
	}
}

// lookupWallet finds the wallet of the path, which must sit in the vault of
// the path when there is one; otherwise it answers ERR009.101.
func (c *call) lookupWallet() *wallet.Wallet {
	names := []string{"walletId"}
	inVault := c.r.PathValue("vaultId") != ""
	if inVault {
		names = []string{"vaultId", "walletId"}
	}
	ids, ok := c.ids(names...)
	if !ok {
		return nil
	}
	w := c.w.wallet(ids[len(ids)-1])
	if w == nil || (inVault && w.VaultID != ids[0]) || !c.cred.sees(w.VaultID) {
		c.notFound(reasonWalletNotFound, "wallet not found")
		return nil
	}
	return w
}

func getWallet(c *call) {
	if w := c.lookupWallet(); w != nil {
		c.ok(c.walletOut(*w))
	}
}

func vaultBalances(c *call) {
	ids, ok := c.ids("vaultId")
	if !ok {
		return
	}
	sum := map[string]wallet.Balance{}
	var order []string
	if c.cred.sees(ids[0]) {
		for _, w := range c.w.wallets {
			if w.VaultID != ids[0] {
				continue
			}
			for _, b := range c.w.balances[w.ID] {
				k := b.Asset.Blockchain + "/" + b.Asset.Symbol
				acc, seen := sum[k]
				if !seen {
					order = append(order, k)
					sum[k] = b
					continue
				}
				acc.Balance = acc.Balance.Add(b.Balance)
				acc.AvailableBalance = acc.AvailableBalance.Add(b.AvailableBalance)
				acc.PendingBalance = acc.PendingBalance.Add(b.PendingBalance)
				acc.FrozenBalance = acc.FrozenBalance.Add(b.FrozenBalance)
				acc.FiatValue = acc.FiatValue.Add(b.FiatValue)
				sum[k] = acc
			}
		}
	}
	bs := make([]wallet.Balance, 0, len(order))
	for _, k := range order {
		bs = append(bs, sum[k])
	}
	if page, f, ok := paginate(c, bs, balanceSpec()); ok {
		c.ok(wallet.BalancesPage{Balances: page, Filter: f})
	}
}

// walletBalances lists a wallet's balances: 200 and empty when the wallet
// does not exist (or is not in the vault of the path).
func walletBalances(c *call) {
	names := []string{"walletId"}
	if c.r.PathValue("vaultId") != "" {
		names = []string{"vaultId", "walletId"}
	}
	ids, ok := c.ids(names...)
	if !ok {
		return
	}
	var bs []wallet.Balance
	if w := c.w.wallet(ids[len(ids)-1]); w != nil && (len(ids) == 1 || w.VaultID == ids[0]) && c.cred.sees(w.VaultID) {
		bs = append(bs, c.w.balances[w.ID]...)
	}
	if page, f, ok := paginate(c, bs, balanceSpec()); ok {
		c.ok(wallet.BalancesPage{Balances: page, Filter: f})
	}
}

// putSettings replaces the four settings: an omitted one becomes false, an
// empty object (or one with none of the four) is invalid.
func putSettings(c *call) {
	w := c.lookupWallet()
	if w == nil {
		return
	}
	var req wallet.SettingsRequest
	if !c.decode(&req) {
		return
	}
	known := 0
	for k := range req.Settings {
		switch k {
		case "enabled", "rawSigningEnabled", "sweepingEnabled", "defaultFreezeEnabled":
			known++
		default:
			c.invalid()
			return
		}
	}
	if known == 0 {
		c.invalid()
		return
	}
	st := req.Settings
	w.Settings = wallet.Settings{Enabled: st["enabled"], RawSigningEnabled: st["rawSigningEnabled"],
		SweepingEnabled: st["sweepingEnabled"], DefaultFreezeEnabled: st["defaultFreezeEnabled"]}
	c.ok(c.walletOut(*w))
}

func getSequence(c *call) {
	w := c.lookupWallet()
	if w == nil {
		return
	}
	if w.Status != wallet.WalletProvisioned {
		c.precondition(reasonNotProvisioned, "wallet is not provisioned")
		return
	}
	c.ok(wallet.Sequence{Sequence: c.w.sequences[w.ID]})
}

// provisionDelay is how long a new wallet takes to become PROVISIONED.
const provisionDelay = 30 * time.Second

// createWallet creates a wallet in a vault. A missing or unknown
// blockchain gives ERR009.110; an MPC wallet without quorumId ERR009.108.
func createWallet(c *call) {
	ids, ok := c.ids("vaultId")
	if !ok {
		return
	}
	var req wallet.CreateWalletRequest
	if !c.decode(&req) {
		return
	}
	v := c.w.vault(ids[0])
	if v == nil || !c.cred.sees(v.ID) {
		c.notFound(reasonVaultNotFound, "vault not found")
		return
	}
	if strings.TrimSpace(req.Name) == "" {
		c.invalid()
		return
	}
	ch, known := c.s.chains[req.Blockchain]
	if !known {
		c.bad(reasonWalletChain, "unsupported blockchain")
		return
	}
	switch req.Type {
	case "", "HSM":
		if req.QuorumID != "" {
			c.invalid()
			return
		}
	case "MPC":
		if req.QuorumID == "" {
			c.bad(reasonQuorumRequired, "MPC wallet creation requires quorum_id")
			return
		}
		if !simkit.IsUUID(req.QuorumID) {
			c.invalid()
			return
		}
	default:
		c.invalid()
		return
	}
	c.w.counter++
	r := simkit.Rand(c.s.env.Seed, simkit.Key("walletsim-wallet"), c.w.counter)
	w := &wallet.Wallet{ID: simkit.UUID(r), VaultID: v.ID, Name: req.Name, Address: ch.gen(r),
		Blockchain: ch.name, QuorumID: strings.ToLower(req.QuorumID), Status: wallet.WalletProvisioning, CreatedAt: c.now}
	c.w.wallets = append(c.w.wallets, w)
	c.w.provisioning[w.ID] = c.now.Add(provisionDelay)
	c.ok(c.walletOut(*w))
}
