package walletsim

import (
	"math/rand/v2"
	"regexp"
	"strings"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
)

// assetDef is an asset the simulator knows on one chain, with a fixed USD
// price for fiatValue.
type assetDef struct {
	symbol   string
	decimals int
	price    decimal.Decimal
}

// chain is a blockchain the simulator knows: whether it is EVM-compatible,
// its native asset (first of assets), and what its addresses look like.
type chain struct {
	name   string
	evm    bool
	assets []assetDef
	addr   *regexp.Regexp
	gen    func(r *rand.Rand) string
}

var (
	evmAddr = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	btcAddr = regexp.MustCompile(`^(bc1[02-9ac-hj-np-z]{25,60}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$`)
	solAddr = regexp.MustCompile(`^[1-9A-HJ-NP-Za-km-z]{32,44}$`)
	xrpAddr = regexp.MustCompile(`^r[1-9A-HJ-NP-Za-km-z]{24,34}$`)
)

const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func b58(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = base58[r.IntN(len(base58))]
	}
	return string(b)
}

func evmGen(r *rand.Rand) string { return "0x" + simkit.Hex(r, 40) }

func usd(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// chains returns the chains the simulator knows. It builds them on each call
// so that no package-level state is mutable.
func chains() []chain {
	usdc := assetDef{"USDC", 6, usd("1")}
	return []chain{
		{name: "ETHEREUM", evm: true, addr: evmAddr, gen: evmGen,
			assets: []assetDef{{"ETH", 18, usd("3150.25")}, usdc, {"USDT", 6, usd("1")}}},
		{name: "POLYGON", evm: true, addr: evmAddr, gen: evmGen,
			assets: []assetDef{{"POL", 18, usd("0.41")}, usdc}},
		{name: "ARBITRUM", evm: true, addr: evmAddr, gen: evmGen,
			assets: []assetDef{{"ETH", 18, usd("3150.25")}, usdc}},
		{name: "BITCOIN", addr: btcAddr,
			gen:    func(r *rand.Rand) string { return "bc1q" + strings.ToLower(simkit.Hex(r, 38)) },
			assets: []assetDef{{"BTC", 8, usd("91250.10")}}},
		{name: "SOLANA", addr: solAddr, gen: func(r *rand.Rand) string { return b58(r, 44) },
			assets: []assetDef{{"SOL", 9, usd("142.80")}, usdc}},
		{name: "XRPL", addr: xrpAddr, gen: func(r *rand.Rand) string { return "r" + b58(r, 33) },
			assets: []assetDef{{"XRP", 6, usd("2.18")}, {"RLUSD", 6, usd("1")}}},
	}
}

// chainSet indexes chains by name.
type chainSet map[string]chain

func newChainSet() chainSet {
	m := chainSet{}
	for _, c := range chains() {
		m[c.name] = c
	}
	return m
}

func (cs chainSet) names() []string {
	var out []string
	for _, c := range chains() {
		out = append(out, c.name)
	}
	return out
}

// asset returns the asset of symbol on chain.
func (c chain) asset(symbol string) (assetDef, bool) {
	for _, a := range c.assets {
		if a.symbol == symbol {
			return a, true
		}
	}
	return assetDef{}, false
}

// anyAsset reports whether symbol is an asset on any chain, and the chain
// names it lives on.
func (cs chainSet) knownAsset(symbol string) bool {
	for _, c := range cs {
		if _, ok := c.asset(symbol); ok {
			return true
		}
	}
	return false
}

// validAnywhere reports whether addr is a well-formed address of some chain.
func (cs chainSet) validAnywhere(addr string) bool {
	for _, c := range cs {
		if c.addr.MatchString(addr) {
			return true
		}
	}
	return false
}
