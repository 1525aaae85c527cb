package market

import (
	"math"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
)

// pair is a corridor the desk quotes against USD.
type pair struct {
	base      string
	mid       float64 // long-run mid price in USD
	vol       float64 // log-amplitude of the slow walk
	spreadBps float64
	priceDp   int32   // decimals of bid and ask (at most 8)
	qtyDp     int32   // decimals of baseAssetQty
	qtyMu     float64 // log of a typical quote size in base units
	offsetMs  int64   // publication offset within each second
}

// quoteAsset is the quote asset of every pair (api-choices: USD).
const quoteAsset = "USD"

// npairs is the number of quotes published per second.
const npairs = 6

// corridors are the quoted pairs; offsets grow with the index, so the
// global tick order is also time order.
func corridors() [npairs]pair {
	return [npairs]pair{
		{base: "XRP", mid: 0.62, vol: 0.08, spreadBps: 20, priceDp: 5, qtyDp: 2, qtyMu: 10.5, offsetMs: 0},
		{base: "BTC", mid: 67000, vol: 0.06, spreadBps: 6, priceDp: 2, qtyDp: 5, qtyMu: -1, offsetMs: 130},
		{base: "ETH", mid: 3400, vol: 0.07, spreadBps: 8, priceDp: 2, qtyDp: 4, qtyMu: 2, offsetMs: 290},
		{base: "EUR", mid: 1.08, vol: 0.01, spreadBps: 2, priceDp: 5, qtyDp: 2, qtyMu: 11.5, offsetMs: 420},
		{base: "GBP", mid: 1.27, vol: 0.012, spreadBps: 3, priceDp: 5, qtyDp: 2, qtyMu: 11, offsetMs: 610},
		{base: "MXN", mid: 0.0585, vol: 0.02, spreadBps: 15, priceDp: 6, qtyDp: 2, qtyMu: 13.5, offsetMs: 780},
	}
}

// Periods of the rate walk, in seconds of sandbox time: a slow walk of
// about six hours with octaves down to minutes, plus a fast jitter.
const (
	walkPeriod   = 6 * 3600.0
	walkOctaves  = 9
	jitterPeriod = 7.0
	jitterAmp    = 0.0004
)

// mid is the mid price of pair p at unix millisecond ms: a pure function of
// the seed and time.
func (s *Sim) mid(p int, ms int64) float64 {
	pr := &s.pairs[p]
	t := float64(ms) / 1000
	k := simkit.Mix(s.seed, uint64(p))
	x := pr.vol*simkit.Walk(k, t/walkPeriod, walkOctaves) + jitterAmp*simkit.Noise(k^0x5bd1e995, t/jitterPeriod)
	return pr.mid * math.Exp(x)
}

// prices are bid and ask of pair p at ms, as scaled integers of priceDp
// decimals, so no float ever reaches the wire.
func (s *Sim) prices(p int, ms int64) (bid, ask int64) {
	pr := &s.pairs[p]
	m := s.mid(p, ms)
	half := m * pr.spreadBps / 2 / 1e4
	scale := math.Pow10(int(pr.priceDp))
	bid = int64(math.Floor((m - half) * scale))
	ask = int64(math.Ceil((m + half) * scale))
	if ask <= bid {
		ask = bid + 1
	}
	return bid, ask
}

// dec turns a scaled integer into a decimal of dp places.
func dec(v int64, dp int32) decimal.Decimal { return decimal.New(v, -dp) }
