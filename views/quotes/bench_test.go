package quotes

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/shopspring/decimal"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/wire/liquidity"
)

var benchStart = time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)

// quoteAt is the i-th synthetic quote, one every 200 ms over four pairs.
func quoteAt(i int) liquidity.Quote {
	pairs := [][2]string{{"USD", "MXN"}, {"EUR", "USD"}, {"GBP", "EUR"}, {"USD", "PHP"}}
	p := pairs[i%len(pairs)]
	at := benchStart.Add(time.Duration(i) * 200 * time.Millisecond)
	bid := decimal.New(int64(170000+i%997), -4)
	return liquidity.Quote{QuoteID: fmt.Sprintf("q-%09d", i), BaseAsset: p[0], QuoteAsset: p[1], Side: "BUY",
		BaseAssetQty: decimal.NewFromInt(1000), QuoteAssetQty: decimal.NewFromInt(17000), BidPrice: bid,
		AskPrice: bid.Add(decimal.New(5, -3)), CreatedAt: at, ExpiresAt: at.Add(30 * time.Second), Status: "ACTIVE"}
}

// quoteStore holds n quotes in a feed whose every fetch brings the next
// one, with the rate history the platform's feed records.
func quoteStore(tb testing.TB, n int) (*live.Store, func()) {
	tb.Helper()
	next := 0
	now := func() time.Time { return benchStart.Add(time.Duration(next) * 200 * time.Millisecond) }
	feed := live.FoldFeed(live.QuotesKey, func(context.Context) ([]liquidity.Quote, error) {
		// The first fetch brings the n quotes held, newest first; each
		// next one the next quote.
		var got []liquidity.Quote
		for next == 0 && len(got) < n {
			got = append(got, quoteAt(n-1-len(got)))
		}
		if next == 0 {
			next = n
			return got, nil
		}
		next++
		return []liquidity.Quote{quoteAt(next - 1)}, nil
	}, func(prev, got []liquidity.Quote, _ time.Time) ([]liquidity.Quote, live.Changes) {
		out := make([]liquidity.Quote, 0, len(prev)+len(got))
		out = append(append(out, got...), prev...)
		var ch live.Changes
		for _, q := range got {
			ch.Added = append(ch.Added, q.QuoteID)
		}
		return out, ch
	}, live.FeedOptions[[]liquidity.Quote, []liquidity.Quote]{Interval: time.Second,
		Samples: func(qs, _ []liquidity.Quote) []live.Sample {
			var out []live.Sample
			for _, q := range qs {
				f, _ := q.Mid().Float64()
				out = append(out, live.Sample{Series: live.SeriesRate + q.Pair(), At: q.CreatedAt, Value: f})
			}
			return out
		}})
	st := live.New(live.Options{Now: now, Inline: true, Feeds: []live.Feed{feed}})
	fetch := func() { st.FetchNow(context.Background(), live.Quotes) }
	fetch()
	return st, fetch
}

// sessions are n quotes views over one store, sharing the drawings as
// the sessions of one process do.
func sessions(st *live.Store, n int) []*View {
	d := ui.NewKept()
	out := make([]*View, n)
	for i := range out {
		r := colorprofile.ANSI256
		ctx := &ui.Context{Shared: &ui.Shared{Store: st, Kept: d, Environment: "test", Now: func() time.Time { return benchStart }}, Session: ui.Session{Colors: r, Dark: true, Theme: ui.NewTheme(r, true, nil), Width: 120, Height: 36}}
		out[i] = New(ctx)
		out[i].Update(ui.StoreChanged{})
		_ = out[i].Render(120, 36)
	}
	return out
}

// BenchmarkFollowNewQuote: a poll that brings one new quote among 9,000
// held (30 minutes at five a second), in follow mode: the store's fold and
// the shared rows (once), then each session's update and frame, chart
// included, for one session and for twenty.
func BenchmarkFollowNewQuote(b *testing.B) {
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			st, fetch := quoteStore(b, 9_000)
			vs := sessions(st, n)
			b.ReportAllocs()
			for b.Loop() {
				fetch()
				st.Sync()
				for _, v := range vs {
					v.Update(ui.StoreChanged{})
					_ = v.Render(120, 36)
				}
			}
		})
	}
}

// TestFollowKeepsTheNewestSelected: in follow mode each new quote becomes
// the selected first row of every session (what the benchmark measures
// is the work of following, not of a view that stood still).
func TestFollowKeepsTheNewestSelected(t *testing.T) {
	st, fetch := quoteStore(t, 500)
	vs := sessions(st, 3)
	for range 5 {
		fetch()
		st.Sync()
		newest := live.Get(st, live.QuotesKey).Data[0].QuoteID
		for i, v := range vs {
			v.Update(ui.StoreChanged{})
			_ = v.Render(120, 36)
			if id, _, ok := ui.SelectedOf(v); !ok || id != newest {
				t.Fatalf("session %d selects %q, want the newest %q", i, id, newest)
			}
		}
	}
}
