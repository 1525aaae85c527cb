package client_test

import (
	"context"
	"testing"

	"treasury/data/payments"
	"treasury/data/payments/client"
	"treasury/sandbox"
)

// BenchmarkFilter10kPayments reads 10,000 payments through the v3 filter
// (100 pages of 100, body-token paging) from a sandbox on loopback.
func BenchmarkFilter10kPayments(b *testing.B) {
	const want = 10_000
	srv := start(b, func(o *sandbox.Options) { o.HistoryPayments = want + want/20 })
	c, _ := fullClient(b, srv, client.Options{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, err := range c.Filter(ctx, payments.Filter{}) {
			if err != nil {
				b.Fatal(err)
			}
			if n++; n == want {
				break
			}
		}
		if n != want {
			b.Fatalf("read %d payments, want %d", n, want)
		}
	}
	b.ReportMetric(float64(want), "payments/op")
}
