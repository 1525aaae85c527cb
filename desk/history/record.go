package history

import (
	"context"
	"log/slog"
	"math"
	"time"

	"treasury/desk/live"
	"treasury/figures/runway"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
)

// Recorder writes the live store's figures to the history file, per
// minute, once for the process (every session reads the same file): it
// reads the store's snapshots on a tick, folds them into the minute they
// belong to and writes the minutes that closed. It never writes per
// session and never blocks a poll.
type Recorder struct {
	h     *Store
	live  *live.Store
	o     RecordOptions
	quote uint64 // the quotes' version last turned into rates
	// bal are the balances of the minutes not yet written; seenLiq and
	// seenPay the fetches folded into them.
	bal              map[balKey]*Balance
	seenLiq, seenPay time.Time
	run              map[string]Runway // the current minute's runway
	seenRunway       time.Time
	// counted is the oldest minute whose payments were counted; recount
	// the last time every held minute was counted again.
	counted, recount time.Time
	pruned           time.Time
	// failing is the write failure told last, nil while writes work.
	failing error
	// shared, when set, is handed each piece of the platform's past a
	// backfill wrote (Share).
	shared func(Past)
}

// Share, before Run, hands fn each piece of the platform's past the
// backfill writes: a site's other processes keep it (Store.TakePast).
func (r *Recorder) Share(fn func(Past)) { r.shared = fn }

type balKey struct {
	currency string
	kind     Kind
	minute   int64
}

// RecordOptions are the Recorder's sources besides the store.
type RecordOptions struct {
	// Now is the store's clock.
	Now func() time.Time
	// Runway is the runway derivation (the zero key: none).
	Runway live.Key[runway.Sheet]
	// Log receives what failed (a write, a prune); nil logs nothing.
	Log *slog.Logger
	// Every is the tick (default 10 s): a minute is written at the
	// first tick after it closed.
	Every time.Duration
	// Failing, when set, is told once when writing the file starts to
	// fail (a read-only file, a full disk), with why; Writing once it
	// works again. The log has one line for each, not one per tick.
	Failing func(err error)
	Writing func()
}

// RecentRecount is how far back payments are counted again at each
// flush (their states change after they are initiated); every
// FullRecount, every minute the payments held cover is.
const (
	RecentRecount = 2 * time.Hour
	FullRecount   = time.Hour
	// PruneEvery is how often the file is pruned.
	PruneEvery = time.Hour
)

// NewRecorder records s into h (which must be the writer).
func NewRecorder(h *Store, s *live.Store, o RecordOptions) *Recorder {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Every <= 0 {
		o.Every = 10 * time.Second
	}
	if o.Runway.Topic() != "" {
		s.Pin(o.Runway.Topic()) // read here whoever watches it
	}
	return &Recorder{h: h, live: s, o: o, bal: map[balKey]*Balance{}, run: map[string]Runway{}}
}

// Run flushes at every tick until ctx ends, then writes what it holds,
// the current minute included. With bf, it also reads back what the
// platform can give (Backfill).
func (r *Recorder) Run(ctx context.Context, bf *Backfill) {
	start := r.o.Now()
	ledger := bf != nil && bf.Ledger
	done := make(chan struct{})
	if bf != nil {
		go func() {
			defer close(done)
			if bf.Wait != nil && (!bf.Wait(ctx) || r.h.Done(ctx, QuotesDone)) {
				return
			}
			until := r.o.Now().Add(-30 * time.Minute)
			if q := live.Get(r.live, live.QuotesKey); q.Loaded() && len(q.Data) > 0 {
				until = q.Data[len(q.Data)-1].CreatedAt
			}
			if bf.QuotesPage != nil {
				r.live.SetReading(readingPast)
				defer r.live.SetReading("")
			}
			r.BackfillQuotes(ctx, *bf, until)
		}()
	} else {
		close(done)
	}
	t := time.NewTicker(r.o.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			<-done
			r.Flush(context.Background(), true)
			return
		case <-t.C:
			r.Flush(ctx, false)
			if ledger && r.BackfillLedger(ctx, start) {
				ledger = false
			}
		}
	}
}

// Flush folds the store's latest snapshots in and writes the closed
// minutes (every minute held when all is set: at the end), and prunes
// when PruneEvery has passed.
func (r *Recorder) Flush(ctx context.Context, all bool) {
	now := r.o.Now()
	var b Batch
	r.rates(&b)
	r.balances()
	r.runway(&b, all)
	r.payments(&b, now)
	edge := minute(now)
	for k, x := range r.bal {
		if all || k.minute < edge {
			b.Balances = append(b.Balances, *x)
			delete(r.bal, k)
		}
	}
	r.wrote(r.h.Write(ctx, b))
	if now.Sub(r.pruned) >= PruneEvery {
		r.pruned = now
		_, err := r.h.Prune(ctx, now)
		r.wrote(err)
	}
}

// wrote notes whether a write of the file worked: the first failure after
// writes worked is logged and told (Failing), and so is the first success
// after failures (Writing); the failures between are not repeated.
func (r *Recorder) wrote(err error) {
	switch {
	case err != nil && r.failing == nil:
		r.failing = err
		if r.o.Log != nil {
			r.o.Log.Warn("history: the file cannot be written: charts go on from memory, nothing is kept for the next start",
				"file", r.h.Path(), "err", err)
		}
		if r.o.Failing != nil {
			r.o.Failing(err)
		}
	case err == nil && r.failing != nil:
		r.failing = nil
		if r.o.Log != nil {
			r.o.Log.Info("history: the file is written again", "file", r.h.Path())
		}
		if r.o.Writing != nil {
			r.o.Writing()
		}
	}
}

// rates turns the quote window into per-minute rates: every minute it
// holds whole (not the oldest, which the window's cut may have split,
// nor the one still being quoted), written again at each change of the
// window (a minute whose quotes arrive late is corrected).
func (r *Recorder) rates(b *Batch) {
	q := live.Get(r.live, live.QuotesKey)
	if !q.Loaded() || q.Version == r.quote || len(q.Data) == 0 {
		return
	}
	r.quote = q.Version
	b.Rates = append(b.Rates, RatesOf(q.Data, q.Data[len(q.Data)-1].CreatedAt, q.FetchedAt)...)
}

// RatesOf are the per-minute rates of quotes (newest first) of the whole
// minutes after the one of first and before the one of end.
func RatesOf(quotes []liquidity.Quote, first, end time.Time) []Rate {
	lo, hi := minute(first), minute(end)
	type key struct {
		pair string
		m    int64
	}
	byKey := map[key]*Rate{}
	var order []key
	for i := len(quotes) - 1; i >= 0; i-- { // oldest first: the last quote of a minute wins
		x := &quotes[i]
		m := minute(x.CreatedAt)
		if m <= lo || m >= hi {
			continue
		}
		mid, _ := x.Mid().Float64()
		bid, _ := x.BidPrice.Float64()
		ask, _ := x.AskPrice.Float64()
		k := key{x.Pair(), m}
		rt := byKey[k]
		if rt == nil {
			rt = &Rate{Pair: k.pair, Minute: time.Unix(m*60, 0).UTC(), Low: mid, High: mid}
			byKey[k] = rt
			order = append(order, k)
		}
		rt.Mid, rt.Bid, rt.Ask, rt.Spread = mid, bid, ask, ask-bid
		rt.Low, rt.High = min(rt.Low, mid), max(rt.High, mid)
		rt.Quotes++
	}
	out := make([]Rate, 0, len(order))
	for _, k := range order {
		out = append(out, *byKey[k])
	}
	return out
}

// balances folds the latest balances into their minute's.
func (r *Recorder) balances() {
	if l := live.Get(r.live, live.LiquidityBalancesKey); l.Loaded() && l.FetchedAt.After(r.seenLiq) {
		r.seenLiq = l.FetchedAt
		for _, x := range l.Data {
			f, _ := x.Available.Float64()
			r.fold(x.Asset, Liquidity, l.FetchedAt, f)
		}
	}
	if p := live.Get(r.live, live.PaymentBalancesKey); p.Loaded() && p.FetchedAt.After(r.seenPay) {
		r.seenPay = p.FetchedAt
		for _, x := range p.Data.Balances {
			f, _ := x.AvailableBalance.Float64()
			r.fold(x.Currency, Prefunded, p.FetchedAt, f)
		}
	}
}

func (r *Recorder) fold(currency string, kind Kind, at time.Time, v float64) {
	k := balKey{currency, kind, minute(at)}
	x := r.bal[k]
	if x == nil {
		r.bal[k] = &Balance{Currency: currency, Kind: kind, Minute: time.Unix(k.minute*60, 0).UTC(), Available: v, Low: v, High: v}
		return
	}
	x.Available, x.Low, x.High = v, min(x.Low, v), max(x.High, v)
}

// runway keeps the latest runway of each currency and writes it when its
// minute closes (the last of the minute is its value).
func (r *Recorder) runway(b *Batch, all bool) {
	if r.o.Runway.Topic() != "" {
		if s := live.Get(r.live, r.o.Runway); s.Loaded() && !s.Data.At.IsZero() && s.Data.At.After(r.seenRunway) {
			r.seenRunway = s.Data.At
			for _, c := range s.Data.Currencies {
				m := time.Unix(minute(s.Data.At)*60, 0).UTC()
				if old, ok := r.run[c.Currency]; ok && old.Minute.Before(m) {
					b.Runway = append(b.Runway, old) // its minute closed
				}
				hours := math.NaN()
				if !c.NoOutflow {
					hours, _ = c.Hours.Float64()
				}
				out, _ := c.Outflow.Float64()
				r.run[c.Currency] = Runway{Currency: c.Currency, Minute: m, Hours: hours, Outflow: out}
			}
		}
	}
	if all {
		for k, x := range r.run {
			b.Runway = append(b.Runway, x)
			delete(r.run, k)
		}
	}
}

// payments counts the payments held per state and minute of initiation,
// again over RecentRecount at each flush (states move), over all the
// payments held every FullRecount, and for the minutes the held payments
// newly reach back to (a view asked a wider window).
func (r *Recorder) payments(b *Batch, now time.Time) {
	p := live.Get(r.live, live.PaymentsKey)
	ps := p.Data
	if !p.Loaded() || ps.Since().IsZero() {
		return
	}
	held := ps.Since().Truncate(time.Minute).Add(time.Minute) // its first whole minute
	from := now.Add(-RecentRecount).Truncate(time.Minute)
	if r.counted.IsZero() || held.Before(r.counted) || now.Sub(r.recount) >= FullRecount {
		from, r.recount = held, now
		if r.counted.IsZero() || held.Before(r.counted) {
			r.counted = held
		}
	}
	from = laterOf(from, held)
	to := now.Truncate(time.Minute).Add(time.Minute)
	b.Payments, b.PaymentsFrom, b.PaymentsTo = CountsOf(ps, from, to), from, to
}

func laterOf(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// CountsOf counts the payments of ps initiated in [from, to) per state
// and minute.
func CountsOf(ps *live.PaymentSet, from, to time.Time) []Count {
	type key struct {
		state payments.State
		m     int64
	}
	n := map[key]int{}
	var order []key
	for i := ps.Len() - 1; i >= 0; i-- { // newest first: stop at from
		x := ps.At(i)
		w := x.When()
		if w.Before(from) {
			break
		}
		if !w.Before(to) {
			continue
		}
		k := key{x.PaymentState, minute(w)}
		if n[k] == 0 {
			order = append(order, k)
		}
		n[k]++
	}
	out := make([]Count, 0, len(order))
	for _, k := range order {
		out = append(out, Count{State: string(k.state), Minute: time.Unix(k.m*60, 0).UTC(), N: n[k]})
	}
	return out
}
