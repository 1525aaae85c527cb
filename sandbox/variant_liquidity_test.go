package sandbox_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"testing"

	"treasury/sandbox/sandboxtest"
	"treasury/wire/liquidity"
)

// TestVariantLiquidity checks the liquidity variant: pageSize capped at 100
// (the default face keeps 1,000), amounts and prices as JSON numbers, times
// with +00:00 and no fraction, extras on records and envelopes, and problem
// details for errors.
func TestVariantLiquidity(t *testing.T) {
	def, vr := faces(t)
	tok := def.Credentials().LiquidityToken
	for _, path := range []string{liquidity.PathQuotes, liquidity.PathTrades, liquidity.PathBalances} {
		st, h, b := sandboxtest.Send(t, http.MethodGet, vr.Endpoints().Liquidity+path+"?pageSize=101", tok, nil)
		expectProblem(t, path+" pageSize 101", st, h, b, 400, "pageSize")
		if st := sandboxtest.Get(t, vr.Endpoints().Liquidity+path+"?pageSize=100", tok, nil); st != 200 {
			t.Fatalf("variant %s pageSize 100: HTTP %d", path, st)
		}
		if st := sandboxtest.Get(t, def.Endpoints().Liquidity+path+"?pageSize=1000", tok, nil); st != 200 {
			t.Fatalf("default %s pageSize 1000: HTTP %d", path, st)
		}
		st, _, b = sandboxtest.Send(t, http.MethodGet, def.Endpoints().Liquidity+path+"?pageSize=1001", tok, nil)
		sandboxtest.ExpectPlain(t, "default "+path+" pageSize 1001", st, b, 400)
	}
	// Without a token the 401 comes first, even above the cap.
	st, h, b := sandboxtest.Send(t, http.MethodGet, vr.Endpoints().Liquidity+liquidity.PathQuotes+"?pageSize=500", "", nil)
	expectProblem(t, "no token", st, h, b, 401, "token")

	offset := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$`)
	cases := []struct {
		path, array string
		amounts     []string
		times       []string
	}{
		{liquidity.PathQuotes, "quotes", []string{"baseAssetQty", "quoteAssetQty", "bidPrice", "askPrice"}, []string{"createdAt", "expiresAt"}},
		{liquidity.PathTrades, "trades", []string{"qty", "price"}, []string{"executedAt"}},
		{liquidity.PathBalances, "balances", []string{"available", "reserved", "total"}, []string{"updatedAt"}},
	}
	for _, c := range cases {
		dm := rawObject(t, http.MethodGet, def.Endpoints().Liquidity+c.path+"?pageSize=20", tok, nil, 200)
		vm := rawObject(t, http.MethodGet, vr.Endpoints().Liquidity+c.path+"?pageSize=20", tok, nil, 200)
		expectExtras(t, "default "+c.path, dm, c.array, false)
		expectExtras(t, "variant "+c.path, vm, c.array, true)
		drecs, vrecs := objects(t, dm, c.array), objects(t, vm, c.array)
		if len(drecs) == 0 || len(drecs) != len(vrecs) {
			t.Fatalf("%s: %d records by default, %d in the variant", c.path, len(drecs), len(vrecs))
		}
		for i := range drecs {
			for _, k := range c.amounts {
				ds, ok1 := drecs[i][k].(string)
				vn, ok2 := vrecs[i][k].(json.Number)
				if !ok1 || !ok2 || string(vn) != ds {
					t.Fatalf("%s[%d].%s: default %#v, variant %#v; want the same decimal as a string and as a number", c.array, i, k, drecs[i][k], vrecs[i][k])
				}
			}
			for _, k := range c.times {
				vs, _ := vrecs[i][k].(string)
				if !offset.MatchString(vs) || vs[:19] != drecs[i][k].(string)[:19] {
					t.Fatalf("%s[%d].%s: variant %q (default %q), want the same second with +00:00", c.array, i, k, vs, drecs[i][k])
				}
			}
		}
	}
}
