package history

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/live"
	"treasury/kit/fence"
	"treasury/wire/liquidity"
)

// TestBackfillReadsRatesBack: a first start reads a small page per step,
// every 5 minutes over the last day and every hour back to 7 days; the
// day is in the store's memory at once; a failing read stops it.
func TestBackfillReadsRatesBack(t *testing.T) {
	o := open(t, filepath.Join(t.TempDir(), FileName("sandbox")))
	defer o.Close()
	now := t0.Add(10 * 24 * time.Hour)
	st := live.New(live.Options{Now: func() time.Time { return now }})
	defer st.Close()
	rec := NewRecorder(o.Store, st, RecordOptions{Now: func() time.Time { return now }})
	reads := 0
	page := func(_ context.Context, w liquidity.Window, _, _ int) (liquidity.QuotesPage, error) {
		reads++
		var qs []liquidity.Quote
		for _, base := range []string{"EUR", "BTC"} {
			for k := range 2 { // newest first: the newest is k=0
				mid := decimal.NewFromInt(int64(w.Start.Unix()/60 - int64(k)))
				qs = append(qs, liquidity.Quote{BaseAsset: base, QuoteAsset: "USD", BidPrice: mid.Sub(decimal.NewFromInt(1)),
					AskPrice: mid.Add(decimal.NewFromInt(1)), CreatedAt: w.Start.Add(time.Duration(2-k) * time.Second)})
			}
		}
		return liquidity.QuotesPage{Quotes: qs}, nil
	}
	until := now.Add(-30 * time.Minute)
	n := rec.BackfillQuotes(context.Background(), Backfill{QuotesPage: page, Pause: time.Nanosecond}, until)
	wantReads := int((24*time.Hour-30*time.Minute)/QuoteStep) + 1 + 6*24
	if reads < wantReads-2 || reads > wantReads+2 || n != 2*reads {
		t.Fatalf("%d reads, %d rates; want about %d reads, two rates each", reads, n, wantReads)
	}
	pts, err := o.Points(context.Background(), live.SeriesRate+"EUR/USD", now.Add(-8*24*time.Hour), now, 5000)
	if err != nil || len(pts) != reads {
		t.Fatalf("%d points (%v), want one per read", len(pts), err)
	}
	if first := pts[0].At; first.Before(now.Add(-QuoteSpan)) || first.After(now.Add(-QuoteSpan+time.Hour)) {
		t.Fatalf("the oldest rate read back is at %v, want about 7 days back", first)
	}
	if last := pts[len(pts)-1]; last.Value != float64(last.At.Unix()/60) {
		t.Fatalf("a minute's rate is its newest quote's mid: %v", last)
	}
	if mem := st.History(live.SeriesRate + "BTC/USD"); len(mem) < 280 {
		t.Fatalf("the store's memory holds %d points of the day read back", len(mem))
	}

	if !o.Done(context.Background(), QuotesDone) {
		t.Fatal("a backfill that went to its end is not marked done")
	}
	before := reads
	rec.BackfillQuotes(context.Background(), Backfill{QuotesPage: page, Pause: time.Nanosecond}, until)
	if reads != before {
		t.Fatalf("a backfill again read %d steps whose minutes hold rates", reads-before)
	}

	o2 := open(t, filepath.Join(t.TempDir(), FileName("sandbox")))
	defer o2.Close()
	fail := func(context.Context, liquidity.Window, int, int) (liquidity.QuotesPage, error) {
		return liquidity.QuotesPage{}, errors.New("503")
	}
	if n := NewRecorder(o2.Store, st, RecordOptions{Now: func() time.Time { return now }}).BackfillQuotes(context.Background(),
		Backfill{QuotesPage: fail, Pause: time.Nanosecond}, until); n != 0 {
		t.Fatalf("a failing read wrote %d rates", n)
	}
	if o2.Done(context.Background(), QuotesDone) {
		t.Fatal("a backfill stopped by a failure is marked done: the next start would not resume it")
	}
}

// TestRatesOfKeepsWholeMinutes: the oldest minute of the window (cut)
// and the minute still quoted are left out; a minute's rate is its last
// quote, its low and high the mid's extremes.
func TestRatesOfKeepsWholeMinutes(t *testing.T) {
	q := func(at time.Time, mid int64) liquidity.Quote {
		d := decimal.NewFromInt(mid)
		return liquidity.Quote{BaseAsset: "EUR", QuoteAsset: "USD", BidPrice: d, AskPrice: d.Add(decimal.NewFromInt(2)), CreatedAt: at}
	}
	qs := []liquidity.Quote{ // newest first
		q(t0.Add(3*time.Minute+time.Second), 9),
		q(t0.Add(2*time.Minute+50*time.Second), 5),
		q(t0.Add(2*time.Minute+20*time.Second), 1),
		q(t0.Add(2*time.Minute+10*time.Second), 7),
		q(t0.Add(time.Minute+30*time.Second), 3),
		q(t0.Add(30*time.Second), 4),
	}
	rs := RatesOf(qs, qs[len(qs)-1].CreatedAt, t0.Add(3*time.Minute+5*time.Second))
	if len(rs) != 2 {
		t.Fatalf("rates %+v: want minutes 1 and 2", rs)
	}
	r := rs[1]
	if !r.Minute.Equal(t0.Add(2*time.Minute)) || r.Mid != 6 || r.Low != 2 || r.High != 8 || r.Quotes != 3 || r.Spread != 2 {
		t.Fatalf("minute 2: %+v", r)
	}
}

// TestAFencedBackfillWaitsForTheLease: a page the site's lease held back
// (this process stopped or cut off, another polls) stops the read back
// without marking it done; nothing more leaves until Wait says this
// process polls again, and the read goes on from that page to its end.
// Without Wait (no site), a fenced page stops it as any failure.
func TestAFencedBackfillWaitsForTheLease(t *testing.T) {
	o := open(t, filepath.Join(t.TempDir(), FileName("sandbox")))
	defer o.Close()
	now := t0.Add(10 * 24 * time.Hour)
	st := live.New(live.Options{Now: func() time.Time { return now }})
	defer st.Close()
	rec := NewRecorder(o.Store, st, RecordOptions{Now: func() time.Time { return now }})
	var sent []time.Time // the windows that left
	held := false        // the lease is gone: each read is held back
	fencedAt := 10       // the read at which it goes
	waits := 0
	page := func(_ context.Context, w liquidity.Window, _, _ int) (liquidity.QuotesPage, error) {
		if len(sent) == fencedAt && waits == 0 {
			held = true
		}
		if held {
			return liquidity.QuotesPage{}, fmt.Errorf("GET /quotes: %w", fence.ErrFenced)
		}
		sent = append(sent, w.Start)
		mid := decimal.NewFromInt(100)
		return liquidity.QuotesPage{Quotes: []liquidity.Quote{{BaseAsset: "EUR", QuoteAsset: "USD", BidPrice: mid, AskPrice: mid,
			CreatedAt: w.Start.Add(time.Second)}}}, nil
	}
	wait := func(context.Context) bool {
		waits++
		if st.Reading() != "" {
			t.Error("the store says it reads the past while the read waits for the lease")
		}
		if o.Done(context.Background(), QuotesDone) {
			t.Error("a read back held by its fence is marked done")
		}
		held = false // this process polls again
		return true
	}
	until := now.Add(-30 * time.Minute)
	rec.BackfillQuotes(context.Background(), Backfill{QuotesPage: page, Pause: time.Nanosecond, Wait: wait}, until)
	if waits != 1 {
		t.Fatalf("the read back waited for the lease %d times, want once", waits)
	}
	wantReads := int((24*time.Hour-30*time.Minute)/QuoteStep) + 1 + 6*24
	if len(sent) < wantReads-2 || len(sent) > wantReads+2 {
		t.Fatalf("%d reads left, want about %d: the read goes on to its end", len(sent), wantReads)
	}
	for i := 1; i < len(sent); i++ {
		if !sent[i].Before(sent[i-1]) {
			t.Fatalf("read %d at %v after %v: the read went on from another page than the one held back", i, sent[i], sent[i-1])
		}
	}
	if !o.Done(context.Background(), QuotesDone) {
		t.Fatal("a read back that went to its end after a wait is not marked done")
	}

	// No site (no Wait): a fenced page stops the read, not marked done.
	o2 := open(t, filepath.Join(t.TempDir(), FileName("sandbox")))
	defer o2.Close()
	held = true
	if n := NewRecorder(o2.Store, st, RecordOptions{Now: func() time.Time { return now }}).BackfillQuotes(context.Background(),
		Backfill{QuotesPage: page, Pause: time.Nanosecond}, until); n != 0 || o2.Done(context.Background(), QuotesDone) {
		t.Fatalf("a fenced read without a wait wrote %d rates, done %v", n, o2.Done(context.Background(), QuotesDone))
	}

	// Given up while waiting (the process ends): nothing more leaves.
	o3 := open(t, filepath.Join(t.TempDir(), FileName("sandbox")))
	defer o3.Close()
	sent, held = nil, true
	NewRecorder(o3.Store, st, RecordOptions{Now: func() time.Time { return now }}).BackfillQuotes(context.Background(),
		Backfill{QuotesPage: page, Pause: time.Nanosecond, Wait: func(context.Context) bool { return false }}, until)
	if len(sent) != 0 || o3.Done(context.Background(), QuotesDone) {
		t.Fatalf("a read given up while it waited sent %d pages, done %v", len(sent), o3.Done(context.Background(), QuotesDone))
	}
}
