package history

import (
	"context"
	"time"

	"treasury/desk/live"
	"treasury/kit/fence"
	"treasury/wire/liquidity"
)

// Backfill is what a first start (an empty file) reads back from the
// platform: the history the platform can give again.
//
//   - Rates: the quotes interface answers any window, but a day holds
//     about 86,400 quotes per pair; so one small page is read per step
//     (every QuoteStep over the last day, every QuoteStepOld back to
//     QuoteSpan), and each pair's newest quote of it is that minute's
//     rate. The quote window the store polls (its last 30 minutes) is
//     recorded whole by the Recorder.
//   - Payments per state: the Recorder counts every payment the payments
//     feed holds, by the minute it was initiated, on its first flush.
//   - Prefunded balances: the ledger held (its last 24 hours) gives each
//     currency's available balance after each movement.
//
// Not read back: liquidity balances (the interface answers the present
// balances only) and runway (a weighting of the ledger at each time; the
// ledger of a month would be read for it).
type Backfill struct {
	// QuotesPage reads one page of quotes (nil: no quotes are read back).
	QuotesPage func(ctx context.Context, w liquidity.Window, page, size int) (liquidity.QuotesPage, error)
	// Pause is the wait between two reads (default 200 ms): a backfill
	// never competes with the polls.
	Pause time.Duration
	// Ledger reads the prefunded balances back from the ledger held (a
	// new file only: it would overwrite minutes recorded live).
	Ledger bool
	// Wait, when set, holds the quotes' read back until it returns true
	// (a process of a site reads the platform's past once it polls);
	// false gives it up. A read another process finished meanwhile (its
	// mark taken: Store.TakePast) is not read again. A page the site's
	// lease held back (fence.ErrFenced: this process was stopped or cut
	// off, another polls now) waits here again, and the read goes on
	// from that page once this process polls again.
	Wait func(ctx context.Context) bool
}

// readingPast is what the store says is being read back (SetReading)
// while the quotes' past is read.
const readingPast = "the platform's past quotes"

// QuotesDone is the mark (Store.Done) of a quotes backfill that went to
// its end: one stopped (a failed read, the process ended) starts again at
// the next start, and reads only the minutes still without a rate.
const QuotesDone = "backfill-quotes"

// Steps of the quotes read back.
const (
	QuoteStep    = 5 * time.Minute
	QuoteStepOld = time.Hour
	QuoteSpan    = 7 * 24 * time.Hour
	// quoteProbe is the window of one step's page: every pair quotes
	// within it at the platform's usual pace (about once a second).
	quoteProbe    = 5 * time.Second
	quoteProbeMax = 100
)

// BackfillQuotes reads rates back from before the quote window (before
// until) for the steps whose minute has no rate yet and writes them,
// newest first, pausing between reads; it stops at the first failure and
// says so in the log, and marks QuotesDone when it reached its end. The rates within the
// store's memory window are remembered by it too.
func (r *Recorder) BackfillQuotes(ctx context.Context, bf Backfill, until time.Time) int {
	if bf.QuotesPage == nil {
		return 0
	}
	if bf.Pause <= 0 {
		bf.Pause = 200 * time.Millisecond
	}
	now := r.o.Now()
	mem := now.Add(-r.live.HistoryWindow())
	written := 0
	have, err := r.h.minutesWithRates(ctx, now.Add(-QuoteSpan))
	if err != nil {
		if r.o.Log != nil {
			r.o.Log.Warn("history: reading rates back", "file", r.h.Path(), "err", err)
		}
		return 0
	}
	t := until.Truncate(QuoteStep)
	for ; !t.Before(now.Add(-QuoteSpan)); t = r.stepBack(t, now) {
		if ctx.Err() != nil {
			return written
		}
		if have[minute(t)] {
			continue
		}
		page, err := bf.QuotesPage(ctx, liquidity.Window{Start: t, End: t.Add(quoteProbe)}, 0, quoteProbeMax)
		for fence.Fenced(err) && bf.Wait != nil {
			// The lease this read was made under is gone: nothing more
			// leaves until this process polls again (the one that holds
			// the lease now reads the site's platform, not its past).
			r.live.SetReading("")
			if !bf.Wait(ctx) || r.h.Done(ctx, QuotesDone) {
				return written
			}
			r.live.SetReading(readingPast)
			page, err = bf.QuotesPage(ctx, liquidity.Window{Start: t, End: t.Add(quoteProbe)}, 0, quoteProbeMax)
		}
		if err != nil {
			if r.o.Log != nil && ctx.Err() == nil {
				r.o.Log.Warn("history: reading rates back stopped", "at", t, "err", err)
			}
			return written
		}
		rates := probeRates(page.Quotes, t)
		if err := r.h.Write(ctx, Batch{Rates: rates}); err != nil {
			if r.o.Log != nil {
				r.o.Log.Warn("history: write", "file", r.h.Path(), "err", err)
			}
			return written
		}
		b := Batch{Rates: rates}
		written += len(rates)
		r.share(Past{Batch: b})
		if !t.Before(mem) {
			r.live.Remember(b.Samples(mem))
		}
		select {
		case <-ctx.Done():
		case <-time.After(bf.Pause):
		}
	}
	if ctx.Err() == nil {
		if err := r.h.MarkDone(ctx, QuotesDone); err != nil && r.o.Log != nil {
			r.o.Log.Warn("history: write", "file", r.h.Path(), "err", err)
		}
		r.share(Past{Done: QuotesDone})
	}
	return written
}

// stepBack is the probe before t: QuoteStep over the last day, then
// QuoteStepOld.
func (r *Recorder) stepBack(t, now time.Time) time.Time {
	if t.Before(now.Add(-24 * time.Hour)) {
		return t.Add(-QuoteStepOld)
	}
	return t.Add(-QuoteStep)
}

// probeRates are each pair's newest quote of a probe at t, as the rate
// of t's minute.
func probeRates(quotes []liquidity.Quote, t time.Time) []Rate {
	m := time.Unix(minute(t)*60, 0).UTC()
	seen := map[string]bool{}
	var out []Rate
	for _, q := range quotes { // newest first
		p := q.Pair()
		if seen[p] {
			continue
		}
		seen[p] = true
		mid, _ := q.Mid().Float64()
		bid, _ := q.BidPrice.Float64()
		ask, _ := q.AskPrice.Float64()
		out = append(out, Rate{Pair: p, Minute: m, Mid: mid, Bid: bid, Ask: ask, Spread: ask - bid, Low: mid, High: mid, Quotes: 1})
	}
	return out
}

// BackfillLedger writes the prefunded balances the ledger held gives,
// per currency and minute before until (the first minute recorded live),
// when the ledger has been read; it reports whether it could.
func (r *Recorder) BackfillLedger(ctx context.Context, until time.Time) bool {
	l := live.Get(r.live, live.LedgerKey)
	if !l.Loaded() {
		return false
	}
	type key struct {
		currency string
		m        int64
	}
	last := map[key]*Balance{}
	edge := minute(until)
	for i := len(l.Data) - 1; i >= 0; i-- { // oldest first
		t := l.Data[i]
		m := minute(t.CreatedDttm)
		if m >= edge {
			continue
		}
		v, _ := t.AvailableBalanceAfter.Float64()
		k := key{t.Currency, m}
		if x := last[k]; x != nil {
			x.Available, x.Low, x.High = v, min(x.Low, v), max(x.High, v)
			continue
		}
		last[k] = &Balance{Currency: t.Currency, Kind: Prefunded, Minute: time.Unix(m*60, 0).UTC(), Available: v, Low: v, High: v}
	}
	var b Batch
	for _, x := range last {
		b.Balances = append(b.Balances, *x)
	}
	if err := r.h.Write(ctx, b); err != nil {
		if r.o.Log != nil {
			r.o.Log.Warn("history: write", "file", r.h.Path(), "err", err)
		}
		return true
	}
	r.live.Remember(b.Samples(time.Time{}))
	r.share(Past{Batch: b})
	return true
}

// share hands a piece of the past this backfill read to the site.
func (r *Recorder) share(p Past) {
	if r.shared != nil {
		r.shared(p)
	}
}
