package history

import (
	"context"
	"time"

	"treasury/desk/live"
)

// The platform's past that a backfill read (Backfill) is read once, by
// the process that polls; in a site, it is handed to every other
// process (RecordOptions.Shared), which keeps it as its own backfill
// would have: TakePast.

// Past is one piece of the platform's past a backfill read: a batch it
// wrote, or (Done) the mark it set at its end.
type Past struct {
	Batch Batch  `json:"batch"`
	Done  string `json:"done,omitempty"`
}

// Samples are the points of b at or after since that the store's memory
// charts: each pair's rate, each prefunded balance.
func (b *Batch) Samples(since time.Time) []live.Sample {
	var out []live.Sample
	for _, x := range b.Rates {
		if !x.Minute.Before(since) {
			out = append(out, live.Sample{Series: live.SeriesRate + x.Pair, At: x.Minute, Value: x.Mid})
		}
	}
	for _, x := range b.Balances {
		if x.Kind == Prefunded && !x.Minute.Before(since) {
			out = append(out, live.Sample{Series: live.SeriesPaymentsBalance + x.Currency, At: x.Minute, Value: x.Available})
		}
	}
	return out
}

// TakePast keeps a piece of the past another process read: its rates of
// the minutes this file has none of (a minute recorded here from the
// whole quote window is worth more than one probe's quote), its
// balances, and its mark (this process, should it poll one day, does
// not read again what it was handed).
func (s *Store) TakePast(ctx context.Context, p Past) error {
	b := p.Batch
	if len(b.Rates) > 0 {
		oldest := b.Rates[0].Minute
		for _, x := range b.Rates {
			if x.Minute.Before(oldest) {
				oldest = x.Minute
			}
		}
		have, err := s.minutesWithRates(ctx, oldest)
		if err != nil {
			return err
		}
		rates := b.Rates[:0:0]
		for _, x := range b.Rates {
			if !have[minute(x.Minute)] {
				rates = append(rates, x)
			}
		}
		b.Rates = rates
	}
	if !b.Empty() {
		if err := s.Write(ctx, b); err != nil {
			return err
		}
	}
	if p.Done != "" {
		return s.MarkDone(ctx, p.Done)
	}
	return nil
}

// Pieces splits p into pieces of at most n rates and n balances each
// (a message of the site has a bound); the mark goes with the last.
func (p Past) Pieces(n int) []Past {
	var out []Past
	rates, bals := p.Batch.Rates, p.Batch.Balances
	for len(rates) > 0 || len(bals) > 0 {
		var x Past
		k := min(n, len(rates))
		x.Batch.Rates, rates = rates[:k], rates[k:]
		k = min(n, len(bals))
		x.Batch.Balances, bals = bals[:k], bals[k:]
		out = append(out, x)
	}
	if len(out) == 0 {
		out = append(out, Past{})
	}
	out[len(out)-1].Done = p.Done
	return out
}
