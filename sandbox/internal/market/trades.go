package market

import (
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/liquidity"
)

// trade synthesizes the trade of block j as seen at nowMs: the quote of its
// tick, taken tradeDelayMs after publication at the quote's price.
func (s *Sim) trade(j, nowMs int64) liquidity.Trade {
	g := s.tradeTick(j)
	q := s.quote(g, nowMs)
	t := liquidity.Trade{
		TradeID: simkit.UUIDOf(s.seed, keyTrade, uint64(j)), QuoteID: q.QuoteID,
		BaseAsset: q.BaseAsset, QuoteAsset: q.QuoteAsset, Side: q.Side, Qty: q.BaseAssetQty,
		Status: liquidity.TradeExecuted, ExecutedAt: q.CreatedAt.Add(tradeDelayMs * time.Millisecond),
	}
	if t.Side == liquidity.SideTwoWay {
		t.Side = liquidity.SideBuy
		if simkit.Mix(s.seed, keyTrade, uint64(j), 1)&1 == 1 {
			t.Side = liquidity.SideSell
		}
	}
	t.Price = q.AskPrice
	if t.Side == liquidity.SideSell {
		t.Price = q.BidPrice
	}
	if nowMs >= t.ExecutedAt.Add(settleAfter).UnixMilli() {
		t.Status = liquidity.TradeSettled
	}
	return t
}

// tradeBlocks returns the blocks [j0, j1] whose trades executed within
// [startMs, endMs].
func (s *Sim) tradeBlocks(startMs, endMs int64) (j0, j1 int64) {
	a, b := s.firstTick(startMs-tradeDelayMs), s.lastTick(endMs-tradeDelayMs)
	j0, j1 = floorDiv(a, tradeBlock), floorDiv(b, tradeBlock)
	if s.tradeTick(j0) < a {
		j0++
	}
	if s.tradeTick(j1) > b {
		j1--
	}
	return j0, j1
}

// tradesPage builds the page of trades of q, newest first.
func (s *Sim) tradesPage(q query) liquidity.TradesPage {
	j0, j1 := s.tradeBlocks(q.startMs, q.endMs)
	from, to, info := q.window(max(j1-j0+1, 0))
	page := liquidity.TradesPage{Trades: make([]liquidity.Trade, 0, to-from), PageInfo: info}
	for k := from; k < to; k++ {
		page.Trades = append(page.Trades, s.trade(j1-k, q.nowMs))
	}
	return page
}
