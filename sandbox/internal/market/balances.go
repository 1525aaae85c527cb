package market

import (
	"math"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/liquidity"
)

// holding is the desk's long-run position in one asset.
type holding struct {
	asset string
	total float64
	dp    int32
}

// holdings are the balances' assets: USD first, then the pairs' bases.
func holdings() []holding {
	return []holding{
		{"USD", 25_000_000, 2}, {"XRP", 40_000_000, 6}, {"BTC", 120, 8}, {"ETH", 2_500, 8},
		{"EUR", 8_000_000, 2}, {"GBP", 5_000_000, 2}, {"MXN", 150_000_000, 2},
	}
}

// balance is the holding i as of unix millisecond ms: the total drifts on a
// slow walk (hours), the reserved share on a faster one (minutes).
func (s *Sim) balance(h holding, i int, ms int64) liquidity.Balance {
	t := float64(ms) / 1000
	k := simkit.Mix(s.seed, keyBalance, uint64(i))
	scale := math.Pow10(int(h.dp))
	total := int64(math.Round(h.total * math.Exp(0.15*simkit.Walk(k, t/(12*3600), 7)) * scale))
	share := 0.05 + 0.04*simkit.Noise(k^1, t/600)
	reserved := int64(math.Round(float64(total) * share))
	return liquidity.Balance{
		Asset: h.asset, Total: dec(total, h.dp), Reserved: dec(reserved, h.dp), Available: dec(total-reserved, h.dp),
		UpdatedAt: time.UnixMilli(ms).UTC().Truncate(time.Second),
	}
}

// balancesPage builds the page of balances as of the end of q's window.
func (s *Sim) balancesPage(q query) liquidity.BalancesPage {
	hs := holdings()
	from, to, info := q.window(int64(len(hs)))
	page := liquidity.BalancesPage{Balances: make([]liquidity.Balance, 0, to-from), PageInfo: info}
	for i := from; i < to; i++ {
		page.Balances = append(page.Balances, s.balance(hs[i], int(i), q.endMs))
	}
	return page
}
