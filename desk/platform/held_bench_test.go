package platform_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// BenchmarkHeldPayment: what a payment held costs the live heap. Each op
// reads 20,000 payments of the sandbox's history through the platform's
// client (the dashboard's: what a poll reads, decoded as a poll decodes
// them), folds them into a set as the store does, lets go of everything
// else, and reports the live heap the set holds per payment (B/payment):
// the record and its strings, its amounts, its fees and taxes, the set's
// index.
func BenchmarkHeldPayment(b *testing.B) {
	const n = 20_000
	opts := sandboxtest.Options()
	opts.HistoryPayments, opts.Observe = n, func(sandbox.Exchange) {} // the contract check would cost minutes
	srv := sandboxtest.Listen(b, opts)
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	since := srv.Clock().Now().Add(-120 * 24 * time.Hour)
	var perPayment float64
	for b.Loop() {
		runtime.GC()
		before := liveHeap()
		ps, err := p.Payments.AllFiltered(ctx, payments.Filter{AfterTimestamp: &since})
		if err != nil || len(ps) < n*9/10 {
			b.Fatalf("read %d payments: %v", len(ps), err)
		}
		set, _ := live.MergePayments(nil, ps, time.Time{})
		ps = nil
		runtime.GC()
		perPayment = float64(liveHeap()-before) / float64(set.Len())
		runtime.KeepAlive(set)
	}
	b.ReportMetric(perPayment, "B/payment")
}

func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
