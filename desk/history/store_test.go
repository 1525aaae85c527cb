package history

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"treasury/desk/live"
)

var t0 = time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)

func open(t testing.TB, path string) *Opened {
	t.Helper()
	o, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// days writes n days of per-minute rates of pairs and balances of
// currencies ending at end, one transaction per hour.
func days(t testing.TB, s *Store, end time.Time, n int, pairs, currencies []string) {
	t.Helper()
	ctx := context.Background()
	start := end.Add(-time.Duration(n) * 24 * time.Hour)
	for h := start; h.Before(end); h = h.Add(time.Hour) {
		var b Batch
		for m := h; m.Before(h.Add(time.Hour)); m = m.Add(time.Minute) {
			x := float64(m.Sub(start) / time.Minute)
			for i, p := range pairs {
				mid := 1 + float64(i) + math.Sin(x/100)/10
				b.Rates = append(b.Rates, Rate{Pair: p, Minute: m, Mid: mid, Bid: mid - 0.001, Ask: mid + 0.001, Spread: 0.002, Low: mid, High: mid, Quotes: 60})
			}
			for i, c := range currencies {
				v := 1e6 + float64(i)*1000 + x
				b.Balances = append(b.Balances, Balance{Currency: c, Kind: Kind(i % 2), Minute: m, Available: v, Low: v, High: v})
			}
		}
		if err := s.Write(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRestartKeepsTheDayAndTheWeek(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName("sandbox"))
	ctx := context.Background()
	o := open(t, path)
	if !o.Writer() || o.Notice != "" {
		t.Fatalf("first open: writer %v, notice %q", o.Writer(), o.Notice)
	}
	if last, err := o.Newest(ctx); err != nil || !last.Empty() {
		t.Fatalf("a new file: %+v %v", last, err)
	}
	end := t0.Add(8 * 24 * time.Hour)
	days(t, o.Store, end, 8, []string{"EUR/USD", "BTC/USD"}, []string{"USD", "EUR"})
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}

	o = open(t, path)
	defer o.Close()
	if !o.Writer() {
		t.Fatal("reopened by the same process after Close: not the writer")
	}
	day, err := o.Points(ctx, live.SeriesRate+"EUR/USD", end.Add(-24*time.Hour), end, 2000)
	if err != nil {
		t.Fatal(err)
	}
	if len(day) != 24*60 {
		t.Fatalf("24 h: %d points, want one a minute (1440)", len(day))
	}
	if !day[0].At.Equal(end.Add(-24*time.Hour)) || !day[len(day)-1].At.Equal(end.Add(-time.Minute)) {
		t.Fatalf("24 h spans %v .. %v", day[0].At, day[len(day)-1].At)
	}
	week, err := o.Points(ctx, live.SeriesRate+"EUR/USD", end.Add(-7*24*time.Hour), end, 2000)
	if err != nil {
		t.Fatal(err)
	}
	if len(week) < 1500 || len(week) > 2000 {
		t.Fatalf("7 d: %d points, want at most 2000 and close to it", len(week))
	}
	if week[len(week)-1].Value != day[len(day)-1].Value {
		t.Fatalf("7 d ends at %v, the day at %v: a bucket keeps its last minute", week[len(week)-1], day[len(day)-1])
	}
	bal, err := o.Points(ctx, live.SeriesPaymentsBalance+"EUR", end.Add(-time.Hour), end, 100)
	if err != nil || len(bal) != 60 {
		t.Fatalf("prefunded EUR: %d points, %v", len(bal), err)
	}
	if liq, _ := o.Points(ctx, live.SeriesLiquidityBalance+"EUR", end.Add(-time.Hour), end, 100); len(liq) != 0 {
		t.Fatalf("EUR was written prefunded only, read %d liquidity points", len(liq))
	}
	bid, _ := o.Points(ctx, SeriesBid+"BTC/USD", end.Add(-time.Hour), end, 100)
	if mid, _ := o.Points(ctx, live.SeriesRate+"BTC/USD", end.Add(-time.Hour), end, 100); len(bid) != 60 || bid[0].Value >= mid[0].Value {
		t.Fatalf("bid: %d points", len(bid))
	}
	recent, err := o.Recent(ctx, end.Add(-24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := 24 * 60 * 4; len(recent) != want {
		t.Fatalf("Recent: %d samples, want %d (2 pairs and 2 balances a minute)", len(recent), want)
	}
}

// TestSecondProcessReads opens the file from another process (this test
// binary, run again) while this one writes it: it reads, and sees what
// was written.
func TestSecondProcessReads(t *testing.T) {
	if path := os.Getenv("HISTORY_READER"); path != "" {
		o, err := Open(path, Options{})
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		defer o.Close()
		pts, err := o.Points(context.Background(), live.SeriesRate+"EUR/USD", t0, t0.Add(24*time.Hour), 5000)
		werr := o.Write(context.Background(), Batch{Rates: []Rate{{Pair: "X/Y", Minute: t0}}})
		fmt.Printf("writer=%v points=%d err=%v write=%v\n", o.Writer(), len(pts), err, werr)
		return
	}
	path := filepath.Join(t.TempDir(), FileName("prod"))
	o := open(t, path)
	defer o.Close()
	days(t, o.Store, t0.Add(24*time.Hour), 1, []string{"EUR/USD"}, []string{"USD"})
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondProcessReads$")
	cmd.Env = append(os.Environ(), "HISTORY_READER="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("reader: %v\n%s", err, out)
	}
	if want := "writer=false points=1440 err=<nil> write=" + ErrReadOnly.Error(); !strings.Contains(string(out), want) {
		t.Fatalf("reader said:\n%s\nwant %q", out, want)
	}
	// In this process too, a second open of the same file reads.
	r := open(t, path)
	defer r.Close()
	if r.Writer() {
		t.Fatal("a second open is a writer too")
	}
	// It sees the writer's later minutes.
	if err := o.Write(context.Background(), Batch{Rates: []Rate{{Pair: "EUR/USD", Minute: t0.Add(24 * time.Hour), Mid: 2}}}); err != nil {
		t.Fatal(err)
	}
	pts, err := r.Points(context.Background(), live.SeriesRate+"EUR/USD", t0, t0.Add(25*time.Hour), 5000)
	if err != nil || len(pts) != 1441 || pts[len(pts)-1].Value != 2 {
		t.Fatalf("the reader reads %d points (%v), want the writer's 1441", len(pts), err)
	}
}

func TestDamagedFileIsMovedAsideAndReplaced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName("sandbox"))
	garbage := []byte(strings.Repeat("not a database, ", 512))
	if err := os.WriteFile(path, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2025, 3, 9, 10, 11, 12, 0, time.UTC)
	o, err := Open(path, Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatalf("a damaged file must not stop the start: %v", err)
	}
	defer o.Close()
	aside := path + ".damaged-20250309T101112Z"
	if !strings.Contains(o.Notice, "moved aside to "+aside) || !strings.Contains(o.Notice, "starts afresh") {
		t.Fatalf("notice %q", o.Notice)
	}
	if kept, err := os.ReadFile(aside); err != nil || string(kept) != string(garbage) {
		t.Fatalf("the damaged file is not kept as %s: %v", aside, err)
	}
	days(t, o.Store, t0.Add(time.Hour), 0, nil, nil)
	if err := o.Write(context.Background(), Batch{Rates: []Rate{{Pair: "EUR/USD", Minute: t0, Mid: 1.08}}}); err != nil {
		t.Fatal(err)
	}
	pts, err := o.Points(context.Background(), live.SeriesRate+"EUR/USD", t0, t0.Add(time.Hour), 10)
	if err != nil || len(pts) != 1 || pts[0].Value != 1.08 {
		t.Fatalf("history after the replacement: %v %v", pts, err)
	}
}

func TestTruncatedFileIsReplaced(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName("sandbox"))
	o := open(t, path)
	days(t, o.Store, t0.Add(24*time.Hour), 1, []string{"EUR/USD"}, nil)
	o.Close()
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, data[:len(data)/3], 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(path + "-wal")
	o = open(t, path)
	defer o.Close()
	if o.Notice == "" {
		t.Fatal("a truncated file was opened without a word")
	}
	if err := o.Write(context.Background(), Batch{Rates: []Rate{{Pair: "EUR/USD", Minute: t0, Mid: 1}}}); err != nil {
		t.Fatal(err)
	}
}

func TestPruneByAgeAndSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName("sandbox"))
	o, err := Open(path, Options{Keep: 3 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	end := t0.Add(5 * 24 * time.Hour)
	days(t, o.Store, end, 5, []string{"EUR/USD"}, []string{"USD"})
	if err := o.Write(ctx, Batch{Payments: []Count{{State: "FAILED", Minute: t0, N: 3}}, Runway: []Runway{{Currency: "USD", Minute: t0, Hours: math.NaN()}}}); err != nil {
		t.Fatal(err)
	}
	n, err := o.Prune(ctx, end)
	if err != nil || n == 0 {
		t.Fatalf("prune: %d, %v", n, err)
	}
	pts, _ := o.Points(ctx, live.SeriesRate+"EUR/USD", t0, end, 100000)
	if len(pts) != 3*24*60 || pts[0].At.Before(end.Add(-3*24*time.Hour)) {
		t.Fatalf("after pruning to 3 days: %d points from %v", len(pts), pts[0].At)
	}
	if p, _ := o.Points(ctx, SeriesPayments+"FAILED", t0, end, 10); len(p) != 0 {
		t.Fatalf("payments older than Keep kept: %v", p)
	}
	o.Close()

	o, err = Open(path, Options{Keep: 30 * 24 * time.Hour, MaxBytes: 256 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if _, err := o.Prune(ctx, end); err != nil {
		t.Fatal(err)
	}
	used, _ := o.used(ctx)
	pts, _ = o.Points(ctx, live.SeriesRate+"EUR/USD", t0, end, 100000)
	if used > 256<<10 || len(pts) == 0 || len(pts) >= 3*24*60 {
		t.Fatalf("bounded to 256 KiB: %d bytes used, %d minutes left (the newest must stay)", used, len(pts))
	}
	if !pts[len(pts)-1].At.Equal(end.Add(-time.Minute)) {
		t.Fatalf("the size bound dropped the newest minute: last %v", pts[len(pts)-1].At)
	}
}

func TestRunwayWithoutOutflowHasNoPoint(t *testing.T) {
	o := open(t, filepath.Join(t.TempDir(), FileName("x")))
	defer o.Close()
	ctx := context.Background()
	err := o.Write(ctx, Batch{Runway: []Runway{{Currency: "USD", Minute: t0, Hours: math.NaN()}, {Currency: "USD", Minute: t0.Add(time.Minute), Hours: 12.5}}})
	if err != nil {
		t.Fatal(err)
	}
	pts, err := o.Points(ctx, SeriesRunway+"USD", t0, t0.Add(time.Hour), 100)
	if err != nil || len(pts) != 1 || pts[0].Value != 12.5 {
		t.Fatalf("runway: %v %v", pts, err)
	}
	if p, _ := o.Points(ctx, "nonsense", t0, t0.Add(time.Hour), 100); p != nil {
		t.Fatalf("an unknown series: %v", p)
	}
}

// TestBucketsArePointsBuckets: a chart that sums Points into columns of
// whole buckets finds each point in the bucket Buckets says, one point
// per bucket, and the sums of the payments add up to what was written.
func TestBucketsArePointsBuckets(t *testing.T) {
	o := open(t, filepath.Join(t.TempDir(), "b.db"))
	defer o.Close()
	var b Batch
	for m := t0; m.Before(t0.Add(3 * time.Hour)); m = m.Add(time.Minute) {
		b.Payments = append(b.Payments, Count{State: "COMPLETED", Minute: m, N: 2})
	}
	b.PaymentsFrom, b.PaymentsTo = t0, t0.Add(3*time.Hour)
	if err := o.Write(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	from, to := t0.Add(-time.Hour+30*time.Second), t0.Add(3*time.Hour+10*time.Second)
	start, bucket, n := Buckets(from, to, 7)
	if !start.Equal(t0.Add(-time.Hour)) || bucket != 35*time.Minute || n != 7 {
		t.Fatalf("Buckets = %v, %v, %d; want the hour before t0, 35m (241 minutes in 7), 7", start, bucket, n)
	}
	pts, err := o.Points(context.Background(), SeriesPayments+"COMPLETED", from, to, 7)
	if err != nil {
		t.Fatal(err)
	}
	seen, sum := map[int]bool{}, 0.0
	for _, p := range pts {
		k := int(p.At.Sub(start) / bucket)
		if seen[k] || k < 0 || k >= n {
			t.Errorf("point at %v in bucket %d (seen: %v)", p.At, k, seen[k])
		}
		seen[k] = true
		sum += p.Value
	}
	if sum != 360 || len(pts) != 6 {
		t.Errorf("%d points summing to %v, want 6 (the first bucket is before t0) summing to 360", len(pts), sum)
	}
}
