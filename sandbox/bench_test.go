package sandbox_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"sync/atomic"
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
	"treasury/wire/wallet"
)

func heapAlloc() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkSandbox100kWorld reports the heap a sandbox world of 100,000
// payments holds once it has served a filter over them.
func BenchmarkSandbox100kWorld(b *testing.B) {
	opts := sandboxtest.Options()
	opts.HistoryPayments = 100_000
	for b.Loop() {
		before := heapAlloc()
		srv, err := sandbox.Listen("127.0.0.1:0", opts)
		if err != nil {
			b.Fatal(err)
		}
		var page payments.FilterResponse
		sandboxtest.PostJSON(b, srv.Endpoints().Payments+payments.PathFilterV3, sandboxtest.PaymentsToken(b, srv),
			payments.FilterRequest{Filter: payments.Filter{PaymentStates: []payments.State{payments.Returned}}}, &page)
		b.ReportMetric(float64(heapAlloc()-before)/(1<<20), "MB-world")
		srv.Close()
	}
}

// BenchmarkSandbox100kPayments reports the requests per second the
// sandbox serves on loopback, with a world of 100,000 payments, for a
// dashboard-like mix: payment by id, a filter page, a quotes page, the
// vault list.
func BenchmarkSandbox100kPayments(b *testing.B) {
	opts := sandboxtest.Options()
	opts.HistoryPayments = 100_000
	srv := sandboxtest.Listen(b, opts)

	ep, creds := srv.Endpoints(), srv.Credentials()
	ptok := sandboxtest.PaymentsToken(b, srv)
	wtok := sandboxtest.WalletToken(b, srv, "monitoring")
	var page payments.FilterResponse
	sandboxtest.PostJSON(b, ep.Payments+payments.PathFilterV3, ptok,
		payments.FilterRequest{Page: &payments.PageIn{Size: 100}}, &page)
	if len(page.Data) == 0 {
		b.Fatal("no payments")
	}
	ids := make([]string, len(page.Data))
	for i, p := range page.Data {
		ids[i] = p.PaymentID
	}
	filter, _ := json.Marshal(payments.FilterRequest{Filter: payments.Filter{PaymentStates: []payments.State{payments.Failed}},
		Page: &payments.PageIn{Size: 50}})
	type call struct {
		method, url, token string
		body               []byte
	}
	calls := []call{
		{http.MethodGet, ep.Payments + payments.PathPaymentV3 + ids[0], ptok, nil},
		{http.MethodPost, ep.Payments + payments.PathFilterV3, ptok, filter},
		{http.MethodGet, ep.Liquidity + liquidity.PathQuotes + "?pageSize=100&pageNumber=0", creds.LiquidityToken, nil},
		{http.MethodGet, ep.Wallet + wallet.PathVaults, wtok, nil},
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	var n, failed atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			c := calls[i%len(calls)]
			if i%len(calls) == 0 { // payment by id: a different one each time
				c.url = ep.Payments + payments.PathPaymentV3 + ids[i%len(ids)]
			}
			i++
			req, _ := http.NewRequest(c.method, c.url, bytes.NewReader(c.body))
			req.Header.Set("Authorization", "Bearer "+c.token)
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			if err != nil {
				failed.Add(1)
				continue
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				if failed.Add(1) == 1 {
					b.Logf("%s %s: HTTP %d", c.method, c.url, resp.StatusCode)
				}
			}
			n.Add(1)
		}
	})
	b.ReportMetric(float64(n.Load())/b.Elapsed().Seconds(), "req/s")
	if failed.Load() > 0 {
		b.Fatalf("%d requests failed", failed.Load())
	}
}
