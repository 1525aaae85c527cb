//go:build heapprobe

// Package heapprobe measures the live heap of a platform polling a 240x
// sandbox with no session, for 12 minutes, and writes heap profiles at
// minutes 6, 9 and 12 (/tmp/heap-NN.pprof) to diff with `go tool pprof
// -base`. It is not part of the tests: run it with
//
//	go test -tags heapprobe -run TestHeapProbe -v -timeout 20m ./tools/heapprobe/
package heapprobe

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
)

func TestHeapProbe(t *testing.T) {
	opts := sandbox.Options{Seed: 1, Speed: 240}
	srv := sandboxtest.Listen(t, opts)
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, ClockRate: func() float64 { return 240 }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Start(context.Background())
	start := time.Now()
	total := 12 * time.Minute
	for time.Since(start) < total {
		time.Sleep(30 * time.Second)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		ps := live.Get(p.Store, live.PaymentsKey).Data
		n := 0
		if ps != nil {
			n = ps.Len()
		}
		q := len(live.Get(p.Store, live.QuotesKey).Data)
		tr := len(live.Get(p.Store, live.TradesKey).Data)
		fmt.Printf("%5.1fm heap %6.1f MB  payments %d quotes %d trades %d goroutines %d\n", time.Since(start).Minutes(), float64(ms.HeapAlloc)/1e6, n, q, tr, runtime.NumGoroutine())
		m := int(time.Since(start).Minutes() + 0.01)
		if m == 6 || m == 12 || m == 9 {
			f, _ := os.Create(fmt.Sprintf("/tmp/heap-%02d.pprof", m))
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
}
