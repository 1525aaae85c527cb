package liquidity

import (
	"encoding/json"
	"testing"

	"treasury/wire/wiretest"
)

// FuzzPages decodes any body as the client does each page (quotes, trades,
// balances: the first byte chooses): no panic, and every record read is
// stable (written back and read again, it is the same record).
func FuzzPages(f *testing.F) {
	quote := `{"quoteId":"q1","baseAsset":"BTC","quoteAsset":"USD","side":"BUY","baseAssetQty":"0.5","quoteAssetQty":"30000.25","bidPrice":"60000","askPrice":60001.5,"createdAt":"2026-11-16T09:30:00Z","expiresAt":"2026-11-16T09:30:30+00:00","status":"ACTIVE"}`
	for _, s := range []string{
		"0" + `{"quotes":[` + quote + `,{"quoteId":"bad","bidPrice":"x"},null],"first":true,"last":false,"totalElements":3,"totalPages":2}`,
		"1" + `{"trades":[{"tradeId":"t1","qty":"1.25","price":"100","executedAt":"2026-11-16T09:30:00Z","extension":{"a":1}}],"last":true}`,
		"2" + `{"balances":[{"asset":"USD","available":"10.00","reserved":0,"total":"1e3","updatedAt":"2026-11-16T09:30:00.123456789Z"}],"last":true}`,
		"0" + `{"quotes":{}}`, "1" + `[]`, "2" + `{"balances":[{"available":"1e10001"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		body := data[1:]
		switch data[0] % 3 {
		case 0:
			var p QuotesPageIn
			if json.Unmarshal(body, &p) == nil {
				for _, q := range p.Quotes.Items {
					wiretest.Stable(t, q)
					_ = q.Mid()
				}
			}
		case 1:
			var p TradesPageIn
			if json.Unmarshal(body, &p) == nil {
				for _, r := range p.Trades.Items {
					wiretest.Stable(t, r)
				}
			}
		default:
			var p BalancesPageIn
			if json.Unmarshal(body, &p) == nil {
				for _, b := range p.Balances.Items {
					wiretest.Stable(t, b)
				}
			}
		}
	})
}

// TestPagesAllocationBounded: a megabyte of adversarial page of the
// largest record costs a bounded multiple of its size (trades and
// balances are wire.Items alike).
func TestPagesAllocationBounded(t *testing.T) {
	wiretest.Bounded(t, "quotes", func(b []byte) { var p QuotesPageIn; _ = json.Unmarshal(b, &p) })
}
