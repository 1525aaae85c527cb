package overview

import (
	"slices"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/live"
	"treasury/ui/chart"
	"treasury/wire/apierr"
	"treasury/wire/liquidity"
)

// windows are the periods the overview shows changes and payments over,
// which w cycles through (the first is the default): the quotes view's
// chart windows. The rates of the 7 and 30 days are read from the history
// file (live.Store.HistorySince); the payments are what the store holds
// (its payments window, a day unless a view asks more), and the panel
// says so when that is shorter than the window.
var windows = [...]time.Duration{time.Hour, 24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour}

// sparkPoints is how many points of each window a pair's sparkline is
// resampled to, once for every session; a session draws as many of them
// as its column has cells.
const sparkPoints = 48

// Pair is a pair's latest quote, its spread and its mid's history over
// each window.
type Pair struct {
	Pair string
	// Bid, Ask and QuotedAt are the latest quote's, as received; Mid is
	// their midpoint and Spread Ask − Bid, exact.
	Bid, Ask, Mid, Spread decimal.Decimal
	// SpreadBps is the spread in basis points of the mid, to a tenth.
	SpreadBps decimal.Decimal
	QuotedAt  time.Time
	// Trends are the mid's history over each of windows.
	Trends [len(windows)]Trend
}

// Trend is a pair's mid over a window, from the store's rate history
// (points of one bucket each, plotted values: float64).
type Trend struct {
	// Change is the mid's change in percent from the first point held in
	// the window to the latest quote's mid; Span is how far back that
	// point is: shorter than the window while the history fills (after a
	// start), and then said. Known is false without a point to compare.
	Change float64
	Span   time.Duration
	Known  bool
	// Spark is the window's history resampled to sparkPoints over the
	// whole window (NaN where none is held yet: a gap).
	Spark []live.Point
}

// Rates are every pair's figures, built from the quotes once per change
// for every session.
type Rates struct {
	Pairs []Pair // by pair name
	// At is the quotes' fetch on the platform's clock: the end of the
	// windows.
	At time.Time
}

// ratesKey registers the rates derivation of the quotes: the latest quote
// of each pair in the store's quote window, and each pair's mid history
// (the store's rate series: its memory, or the history file beyond it)
// over each window.
func ratesKey(st *live.Store) live.Key[Rates] {
	return live.Derive(st, live.QuotesKey, "overview-rates", func(_ Rates, in live.Snap[[]liquidity.Quote]) Rates {
		// The windows end at the fetch on the liquidity platform's clock,
		// which the rates' times are on.
		at := st.PlatformTime(apierr.Liquidity, in.FetchedAt)
		return buildRates(in.Data, at, st.HistorySince, len(st.Series(live.SeriesRate)), st.Archived())
	})
}

// buildRates makes the rates from quotes (newest first) at time at,
// reading each pair's rate series since each window's start through
// history (live.Store.HistorySince: the memory's points for the hour and
// the day, the history file's beyond); known is how many
// pairs have a rate series, so that the scan of the quotes stops once
// each was seen (a pair seen in the series but not in the quotes makes it
// read them all). The changes of all
// pairs over a window start at the same time: the window's start, or,
// while the history held is shorter (after a start), the oldest time
// every pair has a point for, so that the column's title says the truth
// of every row. Without an archive (the history file) the week and the
// 30 days are the memory's points, not read again.
func buildRates(quotes []liquidity.Quote, at time.Time, history func(series string, since time.Time) []live.Point, known int, archived bool) Rates {
	out := Rates{At: at}
	bps := decimal.NewFromInt(10_000)
	seen := map[[2]string]bool{} // base and quote asset: no string built per quote
	var names []string
	for _, q := range quotes {
		if known > 0 && len(seen) >= known {
			break
		}
		if k := [2]string{q.BaseAsset, q.QuoteAsset}; seen[k] {
			continue
		} else {
			seen[k] = true
		}
		name := q.Pair()
		p := Pair{Pair: name, Bid: q.BidPrice, Ask: q.AskPrice, Mid: q.Mid(), Spread: q.AskPrice.Sub(q.BidPrice), QuotedAt: q.CreatedAt}
		if p.Mid.IsPositive() {
			p.SpreadBps = p.Spread.Div(p.Mid).Mul(bps).Round(1)
		}
		out.Pairs = append(out.Pairs, p)
		names = append(names, live.SeriesRate+name)
	}
	series := make([][]live.Point, len(names))
	read := time.Duration(0) // the span series were read over
	for i, w := range windows {
		cut := at.Add(-w)
		// The hour is cut from the day's points (the memory's, read once);
		// the week and the 30 days are read each from the history file
		// (archived), or are the day's points again without one.
		span := max(w, 24*time.Hour)
		if !archived {
			span = 24 * time.Hour
		}
		if span != read {
			for k, name := range names {
				series[k] = history(name, at.Add(-span))
			}
			read = span
		}
		for _, pts := range series {
			if j := firstAt(pts, cut); j < len(pts) && pts[j].At.After(cut) && !pts[j].At.After(at) {
				cut = pts[j].At // this pair's history starts later
			}
		}
		for k := range out.Pairs {
			latest, _ := out.Pairs[k].Mid.Float64()
			out.Pairs[k].Trends[i] = trend(series[k], cut, at.Add(-w), latest, at)
		}
	}
	sort.Slice(out.Pairs, func(i, j int) bool { return out.Pairs[i].Pair < out.Pairs[j].Pair })
	return out
}

// firstAt is the index of the first point of pts (oldest first) at or
// after t.
func firstAt(pts []live.Point, t time.Time) int {
	i, _ := slices.BinarySearchFunc(pts, t, func(p live.Point, t time.Time) int { return p.At.Compare(t) })
	return i
}

// trend is the mid over the points of pts (oldest first) since cut, its
// sparkline over the whole window from start to at: the time before its
// first point, not held yet, blank (never the points stretched over it).
func trend(pts []live.Point, cut, start time.Time, latest float64, at time.Time) Trend {
	pts = pts[firstAt(pts, cut):]
	var t Trend
	if len(pts) == 0 {
		return t
	}
	t.Spark = chart.ResampleOver(pts, start, at, sparkPoints)
	if first := pts[0]; first.Value != 0 && first.At.Before(at) {
		t.Change = (latest - first.Value) / first.Value * 100
		t.Span = at.Sub(first.At)
		t.Known = true
	}
	return t
}
