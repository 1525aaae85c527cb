package serve

import (
	"context"
	"log/slog"
	goruntime "runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"treasury/data/live"
	"treasury/process"
	"treasury/serve"
)

// logStats writes a "process stats" line every interval until ctx ends:
// the live heap after a collection it runs, the heap in use, goroutines,
// sessions, the payments the store holds and the requests sent upstream,
// so that an operator (and a soak test) can see memory stay flat as the
// server runs for weeks. The embedded sandbox's clock is logged too (it
// is the time the store's windows move by), and how much its payments
// world holds: in process, its memory is in the live heap too.
func logStats(ctx context.Context, log *slog.Logger, every time.Duration, rt *process.Runtime, srv *serve.Server, models *atomic.Int64) {
	if every <= 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// A collection first, so that the live heap is what is live now,
		// not what the last one found while the process was busy (it
		// counts what was allocated while it marked): one cycle per
		// interval is cheap, and the numbers are comparable.
		goruntime.GC()
		metrics.Read(sample)
		var ms goruntime.MemStats
		goruntime.ReadMemStats(&ms)
		held := 0
		if ps := live.Get(rt.Platform.Store, live.PaymentsKey).Data; ps != nil {
			held = ps.Len()
		}
		derived, active := rt.Platform.Store.Derivations()
		built := make([]string, 0, len(active))
		for _, t := range active {
			built = append(built, string(t))
		}
		attrs := []any{"live_heap_bytes", sample[0].Value.Uint64(), "heap_inuse_bytes", ms.HeapInuse,
			"goroutines", goruntime.NumGoroutine(), "sessions", srv.Sessions(), "models_held", models.Load(), "payments_held", held,
			"derivations", derived, "derivations_built", built,
			"upstream_requests", rt.Requests.Load()}
		if rt.Sandbox != nil {
			w := rt.Sandbox.Stats().World
			attrs = append(attrs, "sandbox_time", rt.Platform.Now().UTC().Format(time.RFC3339),
				"sandbox_payments", w.Payments, "sandbox_ledger_entries", w.LedgerEntries,
				"sandbox_wallet_transactions", w.WalletTransactions)
		}
		log.Info("process stats", attrs...)
	}
}
