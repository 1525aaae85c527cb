// Package liquidity holds the records of the liquidity interface (spec area
// A): quotes, trades and balances under /api/v0, read with page-number
// pagination by its client (wire/liquidity/client).
//
// Where the spec says "not shown", this package follows api-choices.md:
//   - record fields: quote (quoteId, baseAsset, quoteAsset, side, baseAssetQty,
//     quoteAssetQty, bidPrice, askPrice, createdAt, expiresAt, status), trade
//     (tradeId, quoteId, baseAsset, quoteAsset, side, qty, price, status,
//     executedAt) and balance (asset, available, reserved, total, updatedAt);
//   - amounts and prices are JSON strings of up to 8 decimal places;
//   - /trades and /balances take the same query as /quotes (startTime,
//     endTime, pageSize, pageNumber) and name their arrays trades, balances;
//   - the maximum page size is not shown: the sandbox's default face caps
//     at MaxPageSize, the client starts at StartPageSize and halves on a
//     400 that names the page size (paging.First);
//   - error bodies, not shown, are apierr.PlainBody.
//
// Change those here when a real deployment differs.
package liquidity

import (
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire"
)

// Paths of the liquidity interface, relative to its base URL.
const (
	PathQuotes   = "/api/v0/quotes"
	PathTrades   = "/api/v0/trades"
	PathBalances = "/api/v0/balances"
)

// Page sizes of the liquidity lists. The spec shows neither a default nor a
// maximum: the sandbox's default face uses DefaultPageSize and refuses
// above MaxPageSize; the client asks for StartPageSize (a conservative
// size any server should accept) and adapts to a lower cap.
const (
	DefaultPageSize = 20
	MaxPageSize     = 1000
	StartPageSize   = 100
)

// Quote sides.
const (
	SideBuy    = "BUY"
	SideSell   = "SELL"
	SideTwoWay = "TWO_WAY"
)

// Quote statuses (chosen; a client accepts others).
const (
	QuoteActive   = "ACTIVE"
	QuoteExpired  = "EXPIRED"
	QuoteAccepted = "ACCEPTED"
)

// Trade statuses (chosen; a client accepts others).
const (
	TradePending  = "PENDING"
	TradeExecuted = "EXECUTED"
	TradeSettled  = "SETTLED"
)

// Quote is a price offered for a pair, newest first in lists.
type Quote struct {
	wire.Raw `json:"-"`

	QuoteID       string          `json:"quoteId"`
	BaseAsset     string          `json:"baseAsset"`
	QuoteAsset    string          `json:"quoteAsset"`
	Side          string          `json:"side"`
	BaseAssetQty  decimal.Decimal `json:"baseAssetQty"`
	QuoteAssetQty decimal.Decimal `json:"quoteAssetQty"`
	BidPrice      decimal.Decimal `json:"bidPrice"`
	AskPrice      decimal.Decimal `json:"askPrice"`
	CreatedAt     time.Time       `json:"createdAt"`
	ExpiresAt     time.Time       `json:"expiresAt"`
	Status        string          `json:"status"`
}

// Pair is "BASE/QUOTE", the key of rate history.
func (q Quote) Pair() string { return q.BaseAsset + "/" + q.QuoteAsset }

// Mid is the midpoint of bid and ask.
func (q Quote) Mid() decimal.Decimal {
	return q.BidPrice.Add(q.AskPrice).Div(decimal.NewFromInt(2))
}

// Trade is an executed quote.
type Trade struct {
	wire.Raw `json:"-"`

	TradeID    string          `json:"tradeId"`
	QuoteID    string          `json:"quoteId"`
	BaseAsset  string          `json:"baseAsset"`
	QuoteAsset string          `json:"quoteAsset"`
	Side       string          `json:"side"`
	Qty        decimal.Decimal `json:"qty"`
	Price      decimal.Decimal `json:"price"`
	Status     string          `json:"status"`
	ExecutedAt time.Time       `json:"executedAt"`
}

// Balance is the liquidity account's holding of one asset.
type Balance struct {
	wire.Raw `json:"-"`

	Asset     string          `json:"asset"`
	Available decimal.Decimal `json:"available"`
	Reserved  decimal.Decimal `json:"reserved"`
	Total     decimal.Decimal `json:"total"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

// PageInfo is the page-number envelope (spec 2.1): first is true on page 0,
// last is true on the final page.
type PageInfo struct {
	First         bool `json:"first"`
	Last          bool `json:"last"`
	TotalElements int  `json:"totalElements"`
	TotalPages    int  `json:"totalPages"`
}

// QuotesPage is one page of GET /api/v0/quotes.
type QuotesPage struct {
	Quotes []Quote `json:"quotes"`
	PageInfo
}

// TradesPage is one page of GET /api/v0/trades.
type TradesPage struct {
	Trades []Trade `json:"trades"`
	PageInfo
}

// BalancesPage is one page of GET /api/v0/balances.
type BalancesPage struct {
	Balances []Balance `json:"balances"`
	PageInfo
}

// Tolerant pages: what the client decodes (records one by one, see
// package wire); the sandbox writes the plain pages above.
type (
	QuotesPageIn struct {
		Quotes wire.Items[Quote] `json:"quotes"`
		PageInfo
	}
	TradesPageIn struct {
		Trades wire.Items[Trade] `json:"trades"`
		PageInfo
	}
	BalancesPageIn struct {
		Balances wire.Items[Balance] `json:"balances"`
		PageInfo
	}
)
