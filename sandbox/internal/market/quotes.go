package market

import (
	"math"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/liquidity"
)

// Quote timing.
const (
	quoteLifetime = 30 * time.Second
	tradeBlock    = 40   // one trade per this many ticks
	tradeDelayMs  = 2000 // from quote to execution
	settleAfter   = time.Minute
)

// Hash keys of the record families ("quote", "trade", "balance" in ASCII).
const (
	keyQuote   = 0x71756f7465
	keyTrade   = 0x7472616465
	keyBalance = 0x62616c616e6365
)

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// tickTime is the unix millisecond at which tick g is published: tick g is
// pair g mod npairs in second g div npairs.
func (s *Sim) tickTime(g int64) int64 {
	return floorDiv(g, npairs)*1000 + s.pairs[g-floorDiv(g, npairs)*npairs].offsetMs
}

// lastTick is the newest tick published at or before ms.
func (s *Sim) lastTick(ms int64) int64 {
	sec := floorDiv(ms, 1000)
	rem := ms - sec*1000
	p := int64(0) // offset 0 is always <= rem
	for i := int64(npairs - 1); i >= 0; i-- {
		if s.pairs[i].offsetMs <= rem {
			p = i
			break
		}
	}
	return sec*npairs + p
}

// firstTick is the oldest tick published at or after ms.
func (s *Sim) firstTick(ms int64) int64 {
	sec := floorDiv(ms, 1000)
	rem := ms - sec*1000
	for i := int64(0); i < npairs; i++ {
		if s.pairs[i].offsetMs >= rem {
			return sec*npairs + i
		}
	}
	return (sec + 1) * npairs
}

// tradeTick is the tick traded in block j.
func (s *Sim) tradeTick(j int64) int64 {
	return j*tradeBlock + int64(simkit.Mix(s.seed, keyTrade, uint64(j))%tradeBlock)
}

// traded reports whether tick g is traded.
func (s *Sim) traded(g int64) bool { return s.tradeTick(floorDiv(g, tradeBlock)) == g }

// gauss is a standard normal variate from hash h (Box-Muller).
func gauss(h uint64) float64 {
	u1 := simkit.Unit(simkit.Mix(h, 1))
	u2 := simkit.Unit(simkit.Mix(h, 2))
	return math.Sqrt(-2*math.Log(1-u1)) * math.Cos(2*math.Pi*u2)
}

// quote synthesizes tick g as seen at nowMs.
func (s *Sim) quote(g, nowMs int64) liquidity.Quote {
	p := int(g - floorDiv(g, npairs)*npairs)
	pr := &s.pairs[p]
	ms := s.tickTime(g)
	h := simkit.Mix(s.seed, keyQuote, uint64(g))
	bid, ask := s.prices(p, ms)
	qty := int64(math.Round(math.Exp(pr.qtyMu+0.8*gauss(h)) * math.Pow10(int(pr.qtyDp))))
	qty = max(qty, 1)
	q := liquidity.Quote{
		QuoteID: simkit.UUIDOf(s.seed, keyQuote, uint64(g)), BaseAsset: pr.base, QuoteAsset: quoteAsset,
		BaseAssetQty: dec(qty, pr.qtyDp), BidPrice: dec(bid, pr.priceDp), AskPrice: dec(ask, pr.priceDp),
		CreatedAt: time.UnixMilli(ms).UTC(), Status: liquidity.QuoteActive,
	}
	q.ExpiresAt = q.CreatedAt.Add(quoteLifetime)
	switch h % 3 {
	case 0:
		q.Side, q.QuoteAssetQty = liquidity.SideBuy, q.BaseAssetQty.Mul(q.AskPrice).Round(2)
	case 1:
		q.Side, q.QuoteAssetQty = liquidity.SideSell, q.BaseAssetQty.Mul(q.BidPrice).Round(2)
	default:
		q.Side, q.QuoteAssetQty = liquidity.SideTwoWay, q.BaseAssetQty.Mul(dec(bid+ask, pr.priceDp)).Mul(decimal.New(5, -1)).Round(2)
	}
	switch {
	case s.traded(g) && nowMs >= ms+tradeDelayMs:
		q.Status = liquidity.QuoteAccepted
	case nowMs >= q.ExpiresAt.UnixMilli():
		q.Status = liquidity.QuoteExpired
	}
	return q
}

// quotesPage builds the page of quotes of q, newest first.
func (s *Sim) quotesPage(q query) liquidity.QuotesPage {
	lo, hi := s.firstTick(q.startMs), s.lastTick(q.endMs)
	from, to, info := q.window(max(hi-lo+1, 0))
	page := liquidity.QuotesPage{Quotes: make([]liquidity.Quote, 0, to-from), PageInfo: info}
	for k := from; k < to; k++ {
		page.Quotes = append(page.Quotes, s.quote(hi-k, q.nowMs))
	}
	return page
}
