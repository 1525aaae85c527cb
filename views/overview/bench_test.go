package overview

import (
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// synth makes n payments initiated one every 0.8 s up to end (the last
// 22 hours for 100,000: all in the set's 24-hour window), in every state;
// the failed and declined ones with one of a few reason codes.
func synth(n int, end time.Time) []payments.Payment {
	states := []payments.State{payments.Completed, payments.Transferring, payments.Validating, payments.Initiated,
		payments.Failed, payments.Declined, payments.Returned, payments.Completed}
	codes := []string{"USR_067", "USR_030", "SYS_001", "USR_062"}
	out := make([]payments.Payment, n)
	for i := range out {
		at := end.Add(time.Duration(i-n) * 800 * time.Millisecond)
		st := states[i%len(states)]
		p := payments.Payment{
			PaymentID:    fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i*7919),
			PaymentState: st, InitiatedAt: at, ExpiresAt: at.Add(72 * time.Hour), LastStateUpdatedAt: at.Add(30 * time.Second),
			Originator:  payments.Originator{InternalID: fmt.Sprintf("INV-%07d", i), SourceCurrency: "USD", SourceAmount: money.N(decimal.New(int64(1000+i%99991), -2))},
			Destination: payments.Destination{DestinationCurrency: "MXN", DestinationCountry: "MX", DestinationAmount: money.N(decimal.New(int64(17000+i%999983), -2))},
		}
		if st == payments.Failed || st == payments.Declined {
			c := codes[i%len(codes)]
			p.Errors = []payments.PaymentError{{Code: c, Type: "USER_ERROR", Title: "reason " + c}}
		}
		out[i] = p
	}
	return out
}

// benchEnv is the sandbox's store (quotes, balances, ledger read) holding
// n synthetic payments besides the sandbox's, and, with view, an overview
// on it (its shared values registered and built).
func benchEnv(b *testing.B, n int, view bool) (*viewtest.Env, *View, []payments.Payment) {
	b.Helper()
	e := viewtest.New(b, viewtest.Options{})
	var v *View
	if view {
		v = New(e.Ctx, Options{Base: "USD", Runway: e.P.Runway})
	}
	ps := synth(n, e.Sandbox.Clock().Now())
	e.P.Store.PutPayments(ps)
	e.P.Store.Sync()
	if got := live.Get(e.P.Store, live.PaymentsKey).Data.Len(); got < n {
		b.Fatalf("the store holds %d payments, want %d at least", got, n)
	}
	if v != nil {
		v.Update(ui.StoreChanged{})
		if all := live.Get(e.P.Store, v.pay[1]).Data.Counts[0]; all < n {
			b.Fatalf("the 24h summary counts %d payments, want %d at least", all, n)
		}
	}
	return e, v, ps
}

// BenchmarkOverviewRender: what a session spends on a frame of the
// overview over 100,000 payments. draw: a frame drawn in full from the
// shared values (a new second, a store change); changed: the same after
// reading the store's health and alerts, as on a store change; same: a
// frame asked for again in the same second with nothing changed (a key),
// given from the last one.
func BenchmarkOverviewRender(b *testing.B) {
	_, v, _ := benchEnv(b, 100_000, true)
	for _, size := range [][2]int{{120, 36}, {80, 20}} {
		w, h := size[0], size[1]
		name := fmt.Sprintf("%dx%d", w, h+4) // the shell's header, tabs and footer
		b.Run("draw/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = v.draw(w, h)
			}
		})
		b.Run("changed/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v.Update(ui.StoreChanged{})
				_ = v.draw(w, h)
			}
		})
		b.Run("same/"+name, func(b *testing.B) {
			b.ReportAllocs()
			_ = v.Render(w, h)
			for b.Loop() {
				_ = v.Render(w, h)
			}
		})
	}
}

// BenchmarkOverviewProjection: the work done once per change for every
// session. payment: the store's merge of one changed payment among
// 100,000 and everything built from it (with the overview: its counts and
// reason groups over 1h and 24h and its two summaries; the store alone is
// the baseline). rates: the rates built from the sandbox's quote window
// and rate history at a quotes poll; holdings: the balances valued at
// those rates.
func BenchmarkOverviewProjection(b *testing.B) {
	for _, view := range []bool{false, true} {
		name := map[bool]string{false: "payment/store-alone", true: "payment/with-overview"}[view]
		b.Run(name, func(b *testing.B) {
			e, _, ps := benchEnv(b, 100_000, view)
			p := ps[len(ps)-1]
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				p.LastStateUpdatedAt = p.LastStateUpdatedAt.Add(time.Second)
				p.PaymentState = []payments.State{payments.Transferring, payments.Validating}[i%2]
				e.P.Store.PutPayment(p)
				e.P.Store.Sync()
			}
		})
	}
	e, v, _ := benchEnv(b, 1, true)
	q := live.Get(e.P.Store, live.QuotesKey)
	b.Run(fmt.Sprintf("rates/quotes=%d", len(q.Data)), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = buildRates(q.Data, q.FetchedAt, e.P.Store.HistorySince, len(e.P.Store.Series(live.SeriesRate)), false)
		}
	})
	// A day of history per pair (the store's 8,640 points of 10 s), the
	// points since the read's start copied at each read as the store does
	// (the week and the 30 days: the same day, without a history file).
	day := make([]live.Point, 8640)
	for i := range day {
		day[i] = live.Point{At: q.FetchedAt.Add(time.Duration(i-len(day)) * 10 * time.Second), Value: 1 + float64(i%97)/1000}
	}
	b.Run("rates/history=24h", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = buildRates(q.Data, q.FetchedAt, func(_ string, since time.Time) []live.Point {
				return append([]live.Point(nil), day[firstAt(day, since):]...)
			}, 6, false)
		}
	})
	// With a history file: the week and the 30 days are its points (the
	// store's 2,000 at most, cached between its writes, here in memory)
	// followed by the memory's last minute.
	month := make([]live.Point, live.ArchivePoints)
	for i := range month {
		month[i] = live.Point{At: q.FetchedAt.Add(time.Duration(i-len(month)) * 30 * 24 * time.Hour / live.ArchivePoints), Value: 1 + float64(i%89)/1000}
	}
	b.Run("rates/history=30d", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = buildRates(q.Data, q.FetchedAt, func(_ string, since time.Time) []live.Point {
				if since.Before(q.FetchedAt.Add(-24 * time.Hour)) {
					return append(month[firstAt(month, since):len(month):len(month)], day[len(day)-6:]...)
				}
				return append([]live.Point(nil), day[firstAt(day, since):]...)
			}, 6, true)
		}
	})
	rates := live.Get(e.P.Store, v.rates).Data
	lb, pb := live.Get(e.P.Store, live.LiquidityBalancesKey).Data, live.Get(e.P.Store, live.PaymentBalancesKey).Data
	b.Run("holdings", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = buildHoldings("USD", lb, true, pb, true, rates, true)
		}
	})
}
