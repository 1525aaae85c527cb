package serve

import (
	"context"
	"log/slog"
	goruntime "runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"treasury/desk/live"
	"treasury/process"
	"treasury/sshserve"
)

// logStats writes a "process stats" line every interval until ctx ends:
// the live heap after a collection it runs, the least live heap any
// collection found over the interval (read every second: the heap held
// for good, where the first can catch a poll's pages being decoded, tens
// of megabytes at a fast sandbox's rate), the heap in use, goroutines,
// sessions, the payments the store holds and the requests sent upstream,
// so that an operator (and a soak test) can see memory stay flat as the
// server runs for weeks. The embedded sandbox's clock is logged too (it
// is the time the store's windows move by), and how much its payments
// world holds: in process, its memory is in the live heap too. A member
// of a site says how the site stands from this node (siteStats).
func logStats(ctx context.Context, log *slog.Logger, every time.Duration, rt *process.Runtime, srv *sshserve.Server, models *atomic.Int64) {
	if every <= 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	look := time.NewTicker(min(time.Second, every))
	defer look.Stop()
	var heap heapFloor
	for {
		select {
		case <-ctx.Done():
			return
		case <-look.C:
			heap.look()
			continue
		case <-t.C:
		}
		liveHeap, floor := heap.take()
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
		attrs := []any{"live_heap_bytes", liveHeap, "live_heap_floor_bytes", floor, "heap_inuse_bytes", ms.HeapInuse,
			"goroutines", goruntime.NumGoroutine(), "sessions", srv.Sessions(), "models_held", models.Load(), "payments_held", held,
			"derivations", derived, "derivations_built", built, "derivations_running", rt.Platform.Store.Running(),
			"display_kept", rt.Kept.Len(),
			"upstream_requests", rt.Requests.Load()}
		if rt.Sandbox != nil {
			w := rt.Sandbox.Stats().World
			attrs = append(attrs, "sandbox_time", rt.Platform.Now().UTC().Format(time.RFC3339),
				"sandbox_payments", w.Payments, "sandbox_ledger_entries", w.LedgerEntries,
				"sandbox_wallet_transactions", w.WalletTransactions)
		}
		attrs = append(attrs, siteStats(ctx, rt)...)
		log.Info("process stats", attrs...)
	}
}

// heapFloor is the live heap as the collections find it: the least over
// the looks since the last take, and the live heap now.
type heapFloor struct {
	sample []metrics.Sample
	floor  uint64
}

// look reads the live heap the last collection found.
func (h *heapFloor) look() uint64 {
	if h.sample == nil {
		h.sample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	}
	metrics.Read(h.sample)
	v := h.sample[0].Value.Uint64()
	if v > 0 && (h.floor == 0 || v < h.floor) {
		h.floor = v
	}
	return v
}

// take runs a collection first, so that the live heap is what is live
// now, not what the last one found while the process was busy (it counts
// what was allocated while it marked): one cycle per interval is cheap,
// and the numbers are comparable. It returns that and the least seen
// since the last take, and starts a new interval.
func (h *heapFloor) take() (now, floor uint64) {
	goruntime.GC()
	now = h.look()
	floor, h.floor = h.floor, 0
	return now, floor
}

// siteStats is what this node sees of its site: its name, the node its
// connection is on, the site's record's leader, lines and the most lines
// a replica is behind, and its role in the site's polling (none without
// a site).
func siteStats(ctx context.Context, rt *process.Runtime) []any {
	if rt.Site == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	h, err := rt.Site.Health(ctx)
	attrs := []any{"site_node", rt.Site.Node(), "site_connected", h.Connected, "site_record_leader", h.Leader,
		"site_record_lines", h.Lines, "site_record_lag", h.Lag()}
	if err != nil {
		attrs = append(attrs, "site_error", err.Error())
	}
	if rt.Polling != nil {
		// The role: this node polls for the site (and what that cost
		// between the nodes), another does, or it polls alone.
		ps := rt.Polling.Stats()
		attrs = append(attrs, "site_role", process.SiteRole(ps.Poller), "site_poller", ps.Poller.Node, "site_published_msgs", ps.Messages,
			"site_published_bytes", ps.Bytes, "site_publish_dropped", ps.Dropped)
	}
	return attrs
}
