package client_test

import (
	"context"
	"encoding/json"
	"testing"

	"treasury/sandbox"
	"treasury/wire/payments"
	"treasury/wire/payments/client"
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

// BenchmarkDecodeFilterPage: decoding one page of 100 payments as the
// filter answers them (the sandbox's records, written again), the way the
// client decodes a page: the cost of reading a window, per payment.
func BenchmarkDecodeFilterPage(b *testing.B) {
	srv := start(b, func(o *sandbox.Options) { o.HistoryPayments = 300 })
	c, _ := fullClient(b, srv, client.Options{})
	var recs []payments.Payment
	for p, err := range c.Filter(context.Background(), payments.Filter{}) {
		if err != nil {
			b.Fatal(err)
		}
		if recs = append(recs, p); len(recs) == 100 {
			break
		}
	}
	page, err := json.Marshal(payments.FilterResponse{Data: recs, Page: payments.PageIn{Size: 100, LastPageToken: "t"}})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		var resp payments.FilterResponseIn
		if err := json.Unmarshal(page, &resp); err != nil || len(resp.Data.Items) != len(recs) {
			b.Fatalf("decoded %d: %v", len(resp.Data.Items), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(recs))/1000, "µs/payment")
}
