package custodysim

import (
	"fmt"
	"math/rand/v2"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/custody"
)

// EndpointCount is how many endpoints the domain holds: several pages at
// the default limit.
const EndpointCount = 137

// ledger is a ledger endpoints live on.
type ledger struct {
	id  string
	evm bool
	gen func(r *rand.Rand) string
}

const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func pickFrom(r *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

func ledgers() []ledger {
	evm := func(r *rand.Rand) string { return "0x" + simkit.Hex(r, 40) }
	return []ledger{
		{id: "ethereum-mainnet", evm: true, gen: evm},
		{id: "polygon-mainnet", evm: true, gen: evm},
		{id: "bitcoin-mainnet", gen: func(r *rand.Rand) string { return "bc1q" + pickFrom(r, "023456789acdefghjklmnpqrstuvwxyz", 38) }},
		{id: "xrpl-mainnet", gen: func(r *rand.Rand) string { return "r" + pickFrom(r, base58, 33) }},
		{id: "solana-mainnet", gen: func(r *rand.Rand) string { return pickFrom(r, base58, 44) }},
	}
}

var (
	counterparties = []string{"Acme Payroll", "Globex Treasury", "Initech Settlement", "Umbrella FX", "Stark Supplier",
		"Wayne Escrow", "Hooli Exchange", "Vandelay Imports", "Soylent OTC", "Tyrell Custody"}
	purposes  = []string{"hot wallet", "cold storage", "settlement", "payout", "deposit", "fee collector"}
	contracts = []string{"USDC token", "USDT token", "WETH token", "Multisig vault", "Bridge router", "Staking pool"}
)

// erc20ABI is the ABI carried by smart-contract endpoints.
const erc20ABI = `[{"type":"function","name":"transfer","inputs":[{"name":"to","type":"address"},{"name":"value","type":"uint256"}],"outputs":[{"name":"","type":"bool"}],"stateMutability":"nonpayable"},` +
	`{"type":"function","name":"balanceOf","inputs":[{"name":"owner","type":"address"}],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"}]`

// seedEndpoints builds the domain's endpoints, oldest first: created over
// the 180 days before now. About one in seven is Locked, one is Archived;
// most are whitelisted, some blacklisted (with a low trust score), a few
// carry no listing; one EVM endpoint in three is a smart contract with an
// ABI.
func seedEndpoints(seed uint64, domainID string, now time.Time) []*custody.Endpoint {
	r := simkit.Rand(seed, simkit.Key("endpoints"))
	ls := ledgers()
	creator := simkit.UUIDOf(seed, simkit.Key("custody-admin"))
	out := make([]*custody.Endpoint, 0, EndpointCount)
	start := now.Add(-180 * 24 * time.Hour)
	step := 180 * 24 * time.Hour / EndpointCount
	for i := range EndpointCount {
		l := ls[r.IntN(len(ls))]
		created := start.Add(time.Duration(i)*step + time.Duration(r.Int64N(int64(step/2)))).Truncate(time.Millisecond)
		e := &custody.Endpoint{
			ID: simkit.UUIDOf(seed, simkit.Key("endpoint"), uint64(i)), DomainID: domainID,
			Address: l.gen(r), LedgerID: l.id, Lock: custody.LockUnlocked,
			Metadata: custody.Metadata{Revision: 1 + r.IntN(3), CreatedAt: created, CreatedBy: creator,
				CustomProperties: map[string]string{}},
		}
		e.Metadata.LastModifiedAt = created.Add(time.Duration(r.Int64N(int64(now.Sub(created)/2) + 1))).Truncate(time.Millisecond)
		cp := simkit.Pick(r, counterparties)
		e.Alias = fmt.Sprintf("%s %s %d", cp, simkit.Pick(r, purposes), i+1)
		e.Metadata.Description = fmt.Sprintf("%s address of %s on %s", simkit.Pick(r, purposes), cp, l.id)
		if l.evm && r.IntN(3) == 0 {
			name := simkit.Pick(r, contracts)
			e.Alias = fmt.Sprintf("%s %d", name, i+1)
			e.Metadata.Description = name + " smart contract on " + l.id
			e.Parameters = &custody.Parameters{Type: "Ethereum", ABI: erc20ABI}
		}
		switch x := r.IntN(10); {
		case x < 7:
			e.Metadata.CustomProperties[custody.PropListing] = custody.Whitelisted
			e.TrustScore = 60 + r.IntN(41)
		case x < 9:
			e.Metadata.CustomProperties[custody.PropListing] = custody.Blacklisted
			e.TrustScore = r.IntN(30)
		default:
			e.TrustScore = 30 + r.IntN(40)
		}
		switch {
		case i == 11:
			e.Lock = custody.LockArchived
		case i%7 == 3:
			e.Lock = custody.LockLocked
		}
		out = append(out, e)
	}
	return out
}
