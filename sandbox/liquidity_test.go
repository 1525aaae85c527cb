package sandbox_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/internal/market"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/liquidity"
)

// liqURL builds a liquidity URL with query parameters given as key, value.
func liqURL(srv *sandbox.Server, path string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	u := srv.Endpoints().Liquidity + path
	if len(v) > 0 {
		u += "?" + v.Encode()
	}
	return u
}

// liqQuotes fetches a quotes page and fails unless it is a 200.
func liqQuotes(t *testing.T, srv *sandbox.Server, kv ...string) liquidity.QuotesPage {
	t.Helper()
	var page liquidity.QuotesPage
	if st := sandboxtest.Get(t, liqURL(srv, liquidity.PathQuotes, kv...), srv.Credentials().LiquidityToken, &page); st != http.StatusOK {
		t.Fatalf("quotes %v: HTTP %d", kv, st)
	}
	return page
}

func TestLiquidityAuth(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	for _, p := range []string{liquidity.PathQuotes, liquidity.PathTrades, liquidity.PathBalances} {
		st, _, body := sandboxtest.Send(t, http.MethodGet, liqURL(srv, p), "", nil)
		sandboxtest.ExpectPlain(t, p+" without token", st, body, http.StatusUnauthorized)
		st, _, body = sandboxtest.Send(t, http.MethodGet, liqURL(srv, p), "not-the-token", nil)
		sandboxtest.ExpectPlain(t, p+" with a wrong token", st, body, http.StatusUnauthorized)
		if st, _, body = sandboxtest.Send(t, http.MethodGet, liqURL(srv, p), srv.Credentials().LiquidityToken, nil); st != http.StatusOK {
			t.Fatalf("%s with the token: HTTP %d: %s", p, st, body)
		}
	}
}

func TestLiquidityQuotesPagination(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	tok := srv.Credentials().LiquidityToken
	now := sandboxtest.Start()

	def := liqQuotes(t, srv)
	if len(def.Quotes) != liquidity.DefaultPageSize || !def.First || def.Last {
		t.Fatalf("default page: %d quotes, first %v, last %v", len(def.Quotes), def.First, def.Last)
	}
	// A week of history, about six quotes a second.
	if def.TotalElements < 6*86400*market.HistoryDays-10 || def.TotalPages != (def.TotalElements+liquidity.DefaultPageSize-1)/liquidity.DefaultPageSize {
		t.Fatalf("default page: totalElements %d totalPages %d", def.TotalElements, def.TotalPages)
	}

	// Ten seconds back to now, inclusive: 10 full seconds of 6 pairs plus the
	// quote published exactly at now.
	win := []string{"startTime", now.Add(-10 * time.Second).Format(time.RFC3339), "endTime", now.Format(time.RFC3339)}
	var seen []liquidity.Quote
	for n := 0; n < 3; n++ {
		p := liqQuotes(t, srv, append(win, "pageSize", "25", "pageNumber", fmt.Sprint(n))...)
		if p.TotalElements != 61 || p.TotalPages != 3 || p.First != (n == 0) || p.Last != (n == 2) {
			t.Fatalf("page %d: %+v", n, p.PageInfo)
		}
		seen = append(seen, p.Quotes...)
	}
	if len(seen) != 61 {
		t.Fatalf("pages hold %d quotes, want 61", len(seen))
	}
	ids := map[string]bool{}
	for i, q := range seen {
		if ids[q.QuoteID] {
			t.Fatalf("quote %s twice", q.QuoteID)
		}
		ids[q.QuoteID] = true
		if q.CreatedAt.Before(now.Add(-10*time.Second)) || q.CreatedAt.After(now) {
			t.Fatalf("quote at %v outside the window", q.CreatedAt)
		}
		if i > 0 && q.CreatedAt.After(seen[i-1].CreatedAt) {
			t.Fatalf("quote %d at %v is newer than quote %d at %v: not newest first", i, q.CreatedAt, i-1, seen[i-1].CreatedAt)
		}
	}

	past := liqQuotes(t, srv, append(win, "pageSize", "25", "pageNumber", "3")...)
	if len(past.Quotes) != 0 || past.First || !past.Last || past.TotalElements != 61 {
		t.Fatalf("page past the last: %d quotes, %+v", len(past.Quotes), past.PageInfo)
	}
	if big := liqQuotes(t, srv, "pageSize", "1000"); len(big.Quotes) != liquidity.MaxPageSize {
		t.Fatalf("max page: %d quotes", len(big.Quotes))
	}
	for _, bad := range [][]string{
		{"pageSize", "1001"}, {"pageSize", "0"}, {"pageSize", "x"}, {"pageNumber", "-1"},
		{"startTime", "yesterday"}, {"endTime", "2026-13-01T00:00:00Z"},
		{"startTime", now.Format(time.RFC3339), "endTime", now.Add(-time.Hour).Format(time.RFC3339)},
	} {
		st, _, body := sandboxtest.Send(t, http.MethodGet, liqURL(srv, liquidity.PathQuotes, bad...), tok, nil)
		sandboxtest.ExpectPlain(t, fmt.Sprint(bad), st, body, http.StatusBadRequest)
	}
}

func TestLiquidityWireFormat(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	tok := srv.Credentials().LiquidityToken
	for path, array := range map[string]string{liquidity.PathQuotes: "quotes", liquidity.PathTrades: "trades", liquidity.PathBalances: "balances"} {
		st, _, body := sandboxtest.Send(t, http.MethodGet, liqURL(srv, path, "pageSize", "50"), tok, nil)
		if st != http.StatusOK {
			t.Fatalf("%s: HTTP %d", path, st)
		}
		var raw map[string]any
		if err := json.Unmarshal(body, &raw); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"first", "last", "totalElements", "totalPages"} {
			if _, ok := raw[f]; !ok {
				t.Fatalf("%s: no %s in %.200s", path, f, body)
			}
		}
		items, _ := raw[array].([]any)
		if len(items) == 0 {
			t.Fatalf("%s: no %s array in %.200s", path, array, body)
		}
		for _, it := range items {
			for k, v := range it.(map[string]any) {
				if _, isNum := v.(float64); isNum {
					t.Fatalf("%s: %s is a JSON number (%v); amounts travel as strings", path, k, v)
				}
				if s, ok := v.(string); ok && liqLooksDecimal(s) {
					if i := strings.IndexByte(s, '.'); i >= 0 && len(s)-i-1 > 8 {
						t.Fatalf("%s: %s = %s has more than 8 decimals", path, k, s)
					}
				}
			}
		}
	}
	q := liqQuotes(t, srv, "pageSize", "100").Quotes
	for _, x := range q {
		if x.QuoteAsset != "USD" || !x.BidPrice.LessThan(x.AskPrice) || !x.BaseAssetQty.IsPositive() || !x.QuoteAssetQty.IsPositive() ||
			x.ExpiresAt.Sub(x.CreatedAt) <= 0 || x.Side == "" || x.Status == "" {
			t.Fatalf("implausible quote %+v", x)
		}
	}
}

func liqLooksDecimal(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' && r != '-' {
			return false
		}
	}
	return true
}

func TestLiquidityDeterministic(t *testing.T) {
	a := sandboxtest.Listen(t, sandboxtest.Options())
	b := sandboxtest.Listen(t, sandboxtest.Options())
	o := sandboxtest.Options()
	o.Seed = 2
	c := sandboxtest.Listen(t, o)
	for p, page := range map[string]string{liquidity.PathQuotes: "7", liquidity.PathTrades: "7", liquidity.PathBalances: "0"} {
		_, _, ba := sandboxtest.Send(t, http.MethodGet, liqURL(a, p, "pageSize", "200", "pageNumber", page), a.Credentials().LiquidityToken, nil)
		_, _, bb := sandboxtest.Send(t, http.MethodGet, liqURL(b, p, "pageSize", "200", "pageNumber", page), b.Credentials().LiquidityToken, nil)
		_, _, bc := sandboxtest.Send(t, http.MethodGet, liqURL(c, p, "pageSize", "200", "pageNumber", page), c.Credentials().LiquidityToken, nil)
		if !bytes.Equal(ba, bb) {
			t.Fatalf("%s: one seed gave two answers", p)
		}
		if bytes.Equal(ba, bc) {
			t.Fatalf("%s: seeds 1 and 2 gave the same answer", p)
		}
	}
}

// liqNewest returns the newest quote of a base asset.
func liqNewest(t *testing.T, srv *sandbox.Server, base string) liquidity.Quote {
	t.Helper()
	for _, q := range liqQuotes(t, srv, "pageSize", "12").Quotes {
		if q.BaseAsset == base {
			return q
		}
	}
	t.Fatalf("no %s quote among the newest 12", base)
	return liquidity.Quote{}
}

func TestLiquidityRatesMoveWithClock(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	now := sandboxtest.Start()
	hist := []string{"startTime", now.Add(-time.Hour).Format(time.RFC3339), "endTime", now.Add(-50 * time.Minute).Format(time.RFC3339), "pageSize", "1000", "pageNumber", "2"}
	before := liqQuotes(t, srv, hist...)

	moved := map[string]bool{}
	for _, base := range []string{"XRP", "BTC", "ETH", "EUR", "GBP", "MXN"} {
		q0 := liqNewest(t, srv, base)
		if q0.Status != liquidity.QuoteActive {
			t.Fatalf("newest %s quote is %s", base, q0.Status)
		}
		srv.Clock().Advance(20 * time.Minute)
		q1 := liqNewest(t, srv, base)
		if !q1.CreatedAt.After(q0.CreatedAt) || q1.QuoteID == q0.QuoteID {
			t.Fatalf("%s: no new quote after advancing the clock", base)
		}
		moved[base] = !q1.Mid().Equal(q0.Mid())
		// The old quote is now expired, the mid stays within a plausible band.
		if ratio, _ := q1.Mid().Div(q0.Mid()).Float64(); ratio < 0.8 || ratio > 1.25 {
			t.Fatalf("%s: mid jumped from %s to %s in 20 minutes", base, q0.Mid(), q1.Mid())
		}
	}
	for base, m := range moved {
		if !m {
			t.Fatalf("%s rate did not move in 20 minutes", base)
		}
	}
	// History is a pure function of time: the same window reads the same.
	after := liqQuotes(t, srv, hist...)
	a, _ := json.Marshal(before)
	b, _ := json.Marshal(after)
	if !bytes.Equal(a, b) || after.TotalElements != 6*600+1 {
		t.Fatalf("a past window changed as the clock moved (%d elements)", after.TotalElements)
	}
}

func TestLiquidityTradesAndBalances(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	tok := srv.Credentials().LiquidityToken
	var trades liquidity.TradesPage
	if st := sandboxtest.Get(t, liqURL(srv, liquidity.PathTrades, "pageSize", "30"), tok, &trades); st != http.StatusOK {
		t.Fatalf("trades: HTTP %d", st)
	}
	if len(trades.Trades) != 30 || trades.TotalElements < 1000 {
		t.Fatalf("trades: %d on the page, %d in all", len(trades.Trades), trades.TotalElements)
	}
	for i, tr := range trades.Trades[:5] {
		if i > 0 && tr.ExecutedAt.After(trades.Trades[i-1].ExecutedAt) {
			t.Fatal("trades not newest first")
		}
		// The traded quote is in the quotes, ACCEPTED, at the trade's price.
		at := tr.ExecutedAt.Add(-5 * time.Second)
		qs := liqQuotes(t, srv, "startTime", at.Format(time.RFC3339Nano), "endTime", tr.ExecutedAt.Format(time.RFC3339Nano), "pageSize", "100").Quotes
		found := false
		for _, q := range qs {
			if q.QuoteID != tr.QuoteID {
				continue
			}
			found = true
			price := q.AskPrice
			if tr.Side == liquidity.SideSell {
				price = q.BidPrice
			}
			if q.Status != liquidity.QuoteAccepted || !tr.Price.Equal(price) || !tr.Qty.Equal(q.BaseAssetQty) || q.BaseAsset != tr.BaseAsset {
				t.Fatalf("trade %+v does not match its quote %+v", tr, q)
			}
		}
		if !found {
			t.Fatalf("trade %s: quote %s not among the quotes before it", tr.TradeID, tr.QuoteID)
		}
	}

	var b0, b1 liquidity.BalancesPage
	sandboxtest.Get(t, liqURL(srv, liquidity.PathBalances), tok, &b0)
	if len(b0.Balances) != 7 || !b0.First || !b0.Last || b0.TotalElements != 7 {
		t.Fatalf("balances: %d, %+v", len(b0.Balances), b0.PageInfo)
	}
	for _, b := range b0.Balances {
		if !b.Available.Add(b.Reserved).Equal(b.Total) || !b.Available.IsPositive() {
			t.Fatalf("balance %+v: available + reserved != total", b)
		}
	}
	srv.Clock().Advance(2 * time.Hour)
	sandboxtest.Get(t, liqURL(srv, liquidity.PathBalances), tok, &b1)
	drifted := 0
	for i := range b1.Balances {
		if !b1.Balances[i].Total.Equal(b0.Balances[i].Total) {
			drifted++
		}
	}
	if drifted < 5 || !b1.Balances[0].UpdatedAt.After(b0.Balances[0].UpdatedAt) {
		t.Fatalf("only %d of 7 balances drifted in 2 hours", drifted)
	}
}
