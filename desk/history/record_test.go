package history

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/live"
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
