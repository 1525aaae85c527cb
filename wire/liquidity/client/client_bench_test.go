package client_test

import (
	"context"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/liquidity"
	"treasury/wire/liquidity/client"
)

// BenchmarkQuotes50k reads a window of about 50,000 quotes (6 pairs, about
// one quote per pair per second: 8,400 s) in pages of 1,000, with 5 ms of
// latency added to every request, page by page and 8 pages at once.
func BenchmarkQuotes50k(b *testing.B) {
	opts := sandboxtest.Options()
	opts.Faults = sandbox.FaultSettings{Latency: sandbox.Duration(5 * time.Millisecond)}
	srv := sandboxtest.Listen(b, opts)
	win := liquidity.Last(8400*time.Second, srv.Clock().Now())
	for _, bc := range []struct {
		name string
		conc int
	}{{"sequential", 1}, {"concurrent4", 4}, {"concurrent8", 8}} {
		b.Run(bc.name, func(b *testing.B) {
			c, _ := newClient(b, srv, srv.Credentials().LiquidityToken, client.Options{Concurrency: bc.conc})
			n := 0
			for b.Loop() {
				qs, err := c.AllQuotes(context.Background(), win)
				if err != nil {
					b.Fatal(err)
				}
				n = len(qs)
			}
			b.ReportMetric(float64(n), "quotes/op")
		})
	}
}
