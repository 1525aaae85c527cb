package variant

import (
	"net/http"
)

// LiquidityMaxPageSize is the variant's pageSize cap on quotes, trades and
// balances (the spec does not show one; the default face's is 1,000).
const LiquidityMaxPageSize = 100

// liquidity answers amounts and prices as JSON numbers, times with a
// +00:00 offset and no fraction, and errors as problem details.
type liquidity struct{ base }

func liquidityAmount(key string) bool {
	switch key {
	case "baseAssetQty", "quoteAssetQty", "bidPrice", "askPrice", "qty", "price", "available", "reserved", "total":
		return true
	}
	return false
}

func liquidityTime(key string) bool {
	switch key {
	case "createdAt", "expiresAt", "executedAt", "updatedAt":
		return true
	}
	return false
}

func (liquidity) success(r *http.Request, v any) any {
	walk(v, func(o *object) {
		numbersOf(o, liquidityAmount)
		for i, m := range o.members {
			if s, ok := m.val.(string); ok && liquidityTime(m.key) {
				o.members[i].val = offsetTime(s)
			}
		}
	})
	decorate(v, r.URL.Path)
	return v
}

func (liquidity) failure(status int, h http.Header, v any) any { return problem(status, h, v) }
