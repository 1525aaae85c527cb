package history

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"testing"
	"time"

	"treasury/desk/live"
)

// load is a rate of rows: how many pairs, liquidity assets, prefunded
// currencies (each with a runway) and payment states a minute writes.
type load struct{ pairs, liquidity, prefunded, states int }

var (
	// tenAndTen is the benchmark: 10 pairs and 10 currencies
	// (of both kinds, each with a runway).
	tenAndTen = load{pairs: 10, liquidity: 10, prefunded: 10, states: 6}
	// sandboxLoad is the embedded sandbox's default: 6 pairs, 7
	// liquidity assets, 3 prefunded currencies, 12 payments a minute
	// landing in about 5 states.
	sandboxLoad = load{pairs: 6, liquidity: 7, prefunded: 3, states: 5}
)

var states = []string{"COMPLETED", "IN_PROGRESS", "FAILED", "DECLINED", "RETURNED", "QUOTED", "INITIATED"}

// minuteBatch is the batch the recorder writes for minute m (x: minutes
// since the start, for values that move).
func (l load) minuteBatch(m time.Time, x float64) Batch {
	var b Batch
	for i := range l.pairs {
		mid := float64(i+1) * (1 + math.Sin(x/300+float64(i))/20)
		b.Rates = append(b.Rates, Rate{Pair: fmt.Sprintf("P%02d/USD", i), Minute: m, Mid: mid, Bid: mid * 0.9999, Ask: mid * 1.0001,
			Spread: mid * 0.0002, Low: mid * 0.9995, High: mid * 1.0005, Quotes: 60})
	}
	for i := range l.liquidity {
		v := 1e7 + float64(i)*1e5 + x*13.37
		b.Balances = append(b.Balances, Balance{Currency: fmt.Sprintf("C%02d", i), Kind: Liquidity, Minute: m, Available: v, Low: v - 10, High: v + 10})
	}
	for i := range l.prefunded {
		v := 1e6 - x*3.21 + float64(i)
		b.Balances = append(b.Balances, Balance{Currency: fmt.Sprintf("C%02d", i), Kind: Prefunded, Minute: m, Available: v, Low: v, High: v})
		b.Runway = append(b.Runway, Runway{Currency: fmt.Sprintf("C%02d", i), Minute: m, Hours: v / 3000, Outflow: 3000})
	}
	for i := range l.states {
		b.Payments = append(b.Payments, Count{State: states[i], Minute: m, N: 1 + int(x)%7})
	}
	return b
}

// fill writes days of l ending at end, one transaction per minute (as the
// recorder does) or per hour (faster, for setting up reads).
func (l load) fill(tb testing.TB, s *Store, end time.Time, days int, perMinute bool) {
	ctx := context.Background()
	start := end.Add(-time.Duration(days) * 24 * time.Hour)
	var b Batch
	for m := start; m.Before(end); m = m.Add(time.Minute) {
		mb := l.minuteBatch(m, float64(m.Sub(start)/time.Minute))
		b.Rates, b.Balances = append(b.Rates, mb.Rates...), append(b.Balances, mb.Balances...)
		b.Runway, b.Payments = append(b.Runway, mb.Runway...), append(b.Payments, mb.Payments...)
		if perMinute || m.Minute() == 59 {
			if err := s.Write(ctx, b); err != nil {
				tb.Fatal(err)
			}
			b = Batch{}
		}
	}
}

// BenchmarkWriteDay writes a day of per-minute history for 10 pairs and
// 10 currencies, a transaction a minute as the recorder does.
func BenchmarkWriteDay(b *testing.B) {
	dir := b.TempDir()
	for i := 0; b.Loop(); i++ {
		o := open(b, filepath.Join(dir, fmt.Sprintf("w%d.db", i)))
		tenAndTen.fill(b, o.Store, t0.Add(24*time.Hour), 1, true)
		o.Close()
	}
}

// BenchmarkRead30Days reads 30 days of one series for a chart
// (live.ArchivePoints points) from a file holding 30 days of 10 pairs
// and 10 currencies: a pair's mid (the quotes view), a prefunded
// balance (the balances view: the table shared by both kinds) and a
// state's payments (the payments view: a sum per bucket), uncached (the
// first draw after a minute closes) and cached (the other draws of the
// minute).
func BenchmarkRead30Days(b *testing.B) {
	o := open(b, filepath.Join(b.TempDir(), "r.db"))
	defer o.Close()
	end := t0.Add(30 * 24 * time.Hour)
	tenAndTen.fill(b, o.Store, end, 30, false)
	ctx := context.Background()
	read := func(b *testing.B, series string, uncached bool) {
		for b.Loop() {
			if uncached {
				o.mu.Lock()
				o.cache.clear()
				o.mu.Unlock()
			}
			pts, err := o.Points(ctx, series, end.Add(-30*24*time.Hour), end, live.ArchivePoints)
			if err != nil || len(pts) < live.ArchivePoints*9/10 {
				b.Fatalf("%s: %d points, %v", series, len(pts), err)
			}
		}
	}
	for _, c := range []struct{ name, series string }{
		{"rate", live.SeriesRate + "P03/USD"},
		{"balance", live.SeriesPaymentsBalance + "C03"},
		{"payments", SeriesPayments + "FAILED"},
	} {
		b.Run(c.name+"/uncached", func(b *testing.B) { read(b, c.series, true) })
		b.Run(c.name+"/cached", func(b *testing.B) { read(b, c.series, false) })
	}
}

// BenchmarkSize30DaysSandbox writes 30 days at the embedded sandbox's
// default rate, a transaction a minute, prunes, and reports the file's
// size (run once: -benchtime=1x).
func BenchmarkSize30DaysSandbox(b *testing.B) {
	for b.Loop() {
		dir := b.TempDir()
		path := filepath.Join(dir, "s.db")
		o := open(b, path)
		end := t0.Add(30 * 24 * time.Hour)
		sandboxLoad.fill(b, o.Store, end, 30, true)
		if _, err := o.Prune(context.Background(), end); err != nil {
			b.Fatal(err)
		}
		o.Close() // checkpoints the WAL into the file
		o = open(b, path)
		b.ReportMetric(float64(o.Size())/(1<<20), "MiB")
		o.Close()
	}
}

// BenchmarkOpen30Days opens a file of 30 days at the sandbox's rate: the
// check (quick_check) and schema a start costs.
func BenchmarkOpen30Days(b *testing.B) {
	path := filepath.Join(b.TempDir(), "o.db")
	o := open(b, path)
	sandboxLoad.fill(b, o.Store, t0.Add(30*24*time.Hour), 30, false)
	o.Close()
	for b.Loop() {
		open(b, path).Close()
	}
}
