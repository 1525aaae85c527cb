package overview

import (
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/live"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
)

// Holding is one currency's available balances: on the liquidity account
// and prefunded on the payments interface, and their value in the base
// currency at the latest mid.
type Holding struct {
	Currency string
	// Liquidity and Prefunded are the available balances as received
	// (Prefunded summed over funding types); In* say which are held.
	Liquidity, Prefunded     decimal.Decimal
	InLiquidity, InPrefunded bool
	// Value is Liquidity + Prefunded in the base currency, exact; Valued
	// is false when no quoted pair gives the rate, Missing then naming
	// the pair looked for ("XRP/EUR"). Via names the pairs of the rate.
	Value   decimal.Decimal
	Valued  bool
	Via     string
	Missing string
	// QuotedAt is when the oldest quote its value uses was made (zero for
	// the base currency, valued at 1).
	QuotedAt time.Time
}

// Holdings are the balances of every currency and their total in the
// base currency, built once per change of either balance or of the rates
// for every session.
type Holdings struct {
	Base  string
	List  []Holding // the base currency first, then as received
	Total decimal.Decimal
	// Missing are the pairs without which a holding has no value: the
	// total leaves those holdings out, and is an estimate.
	Missing []string
	// Liquidity, Prefunded and Rates say which inputs had answered: a
	// total without one of them is an estimate too.
	Liquidity, Prefunded, Rates bool
	// OldestMid is when the oldest quote the total uses was made: the
	// total is as old as its oldest input.
	OldestMid time.Time
}

// Estimate reports whether the total leaves something out.
func (h Holdings) Estimate() bool {
	return len(h.Missing) > 0 || !h.Liquidity || !h.Prefunded || !h.Rates
}

// holdingsName names the holdings combination of a base currency.
type holdingsName struct{ base string }

// holdingsKey registers the holdings combination in base.
func holdingsKey(st *live.Store, rates live.Key[Rates], base string) live.Key[Holdings] {
	return live.Combine(st, holdingsName{base}, func(_ Holdings, in live.Inputs) Holdings {
		lb, pb, r := live.Input(in, live.LiquidityBalancesKey), live.Input(in, live.PaymentBalancesKey), live.Input(in, rates)
		return buildHoldings(base, lb.Data, lb.Loaded(), pb.Data, pb.Loaded(), r.Data, r.Loaded())
	}, live.CombineOptions[Holdings]{}, live.LiquidityBalances, live.PaymentBalances, rates.Topic())
}

func buildHoldings(base string, lb []liquidity.Balance, liqOK bool, pb payments.Balances, payOK bool, rates Rates, ratesOK bool) Holdings {
	out := Holdings{Base: base, Liquidity: liqOK, Prefunded: payOK, Rates: ratesOK}
	index := map[string]int{}
	at := func(cur string) *Holding {
		i, ok := index[cur]
		if !ok {
			i = len(out.List)
			index[cur] = i
			out.List = append(out.List, Holding{Currency: cur})
		}
		return &out.List[i]
	}
	if liqOK {
		for _, b := range lb {
			h := at(b.Asset)
			h.Liquidity, h.InLiquidity = h.Liquidity.Add(b.Available), true
		}
	}
	if payOK {
		for _, b := range pb.Balances {
			h := at(b.Currency)
			h.Prefunded, h.InPrefunded = h.Prefunded.Add(b.AvailableBalance.Decimal()), true
		}
	}
	if i, ok := index[base]; ok && i > 0 { // the base currency first
		h := out.List[i]
		out.List = append(append([]Holding{h}, out.List[:i]...), out.List[i+1:]...)
	}
	conv := newConverter(rates)
	for i := range out.List {
		h := &out.List[i]
		rate, via, ok := conv.rate(h.Currency, base)
		if !ok {
			h.Missing = h.Currency + "/" + base
			if !slices.Contains(out.Missing, h.Missing) {
				out.Missing = append(out.Missing, h.Missing)
			}
			continue
		}
		h.Value, h.Valued, h.Via = h.Liquidity.Add(h.Prefunded).Mul(rate), true, via
		h.QuotedAt = conv.quotedAt(via)
		if !h.QuotedAt.IsZero() && (out.OldestMid.IsZero() || h.QuotedAt.Before(out.OldestMid)) {
			out.OldestMid = h.QuotedAt
		}
		out.Total = out.Total.Add(h.Value)
	}
	return out
}

// converter finds the rate from one currency to another at the latest
// mids: a pair quoted either way, or two through a third currency.
type converter struct {
	// mids[a][b] is the mid of the pair a/b (b per a), as quoted.
	mids map[string]map[string]decimal.Decimal
	// at is when each pair's latest quote was made.
	at map[string]time.Time
}

func newConverter(r Rates) converter {
	c := converter{mids: map[string]map[string]decimal.Decimal{}, at: map[string]time.Time{}}
	for _, p := range r.Pairs {
		a, b, ok := strings.Cut(p.Pair, "/")
		if !ok || !p.Mid.IsPositive() {
			continue
		}
		c.at[p.Pair] = p.QuotedAt
		if c.mids[a] == nil {
			c.mids[a] = map[string]decimal.Decimal{}
		}
		c.mids[a][b] = p.Mid
	}
	return c
}

// quotedAt is when the oldest of the pairs of via (as rate names them,
// space-separated) was quoted; zero for none.
func (c converter) quotedAt(via string) time.Time {
	var oldest time.Time
	for _, p := range strings.Fields(via) {
		if t, ok := c.at[p]; ok && (oldest.IsZero() || t.Before(oldest)) {
			oldest = t
		}
	}
	return oldest
}

// direct is the rate from a to b through one pair, a/b or b/a.
func (c converter) direct(a, b string) (decimal.Decimal, string, bool) {
	if m, ok := c.mids[a][b]; ok {
		return m, a + "/" + b, true
	}
	if m, ok := c.mids[b][a]; ok {
		return decimal.NewFromInt(1).Div(m), b + "/" + a, true
	}
	return decimal.Decimal{}, "", false
}

// rate is how many b one a is worth: 1 for the same currency, a direct
// pair, else the first currency (in order) quoted against both.
func (c converter) rate(a, b string) (decimal.Decimal, string, bool) {
	if a == b {
		return decimal.NewFromInt(1), "", true
	}
	if r, via, ok := c.direct(a, b); ok {
		return r, via, true
	}
	var thirds []string
	for x := range c.mids {
		thirds = append(thirds, x)
		for y := range c.mids[x] {
			thirds = append(thirds, y)
		}
	}
	slices.Sort(thirds)
	for _, x := range slices.Compact(thirds) {
		if x == a || x == b {
			continue
		}
		r1, v1, ok1 := c.direct(a, x)
		r2, v2, ok2 := c.direct(x, b)
		if ok1 && ok2 {
			return r1.Mul(r2), v1 + " " + v2, true
		}
	}
	return decimal.Decimal{}, "", false
}
