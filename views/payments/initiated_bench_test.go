package paymentsview

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"treasury/desk/history"
	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/ui"
)

// BenchmarkInitiatedChart30Days reads and draws the payments chart of the
// 30 days from a history file holding 30 days of per-minute counts in the
// seven charted states. "read" is what paystats.InitiatedHistory does at
// a fetch of the payments after a minute was written (every state read
// from the file again, on the store's goroutine, once a minute), "cached"
// the same between writes, and "draw" a drawing of what was read (once
// per change for every session: ui.Context.Chart).
func BenchmarkInitiatedChart30Days(b *testing.B) {
	now := benchStart
	h, err := history.Open(filepath.Join(b.TempDir(), "h.db"), history.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	start := now.Add(-30 * 24 * time.Hour)
	var batch history.Batch
	for m := start; m.Before(now); m = m.Add(time.Minute) {
		for i, st := range chartStates {
			batch.Payments = append(batch.Payments, history.Count{State: string(st), Minute: m, N: 1 + (i+int(m.Unix()/60))%5})
		}
		if m.Minute() == 59 {
			if err := h.Write(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = history.Batch{}
		}
	}
	st := live.New(live.Options{Now: func() time.Time { return now }})
	st.SetArchive(h.Store)
	win := 30 * 24 * time.Hour
	read := func() paystats.Initiated {
		in := paystats.Initiated{States: chartStates[:], Series: make([][]live.Point, len(chartStates)), From: now.Add(-win), At: now, Archived: true}
		for i, s := range chartStates {
			in.Series[i] = st.ArchiveBetween(history.SeriesPayments+string(s), in.From, in.At, live.ArchivePoints)
		}
		return in
	}
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			// A count a minute ago, as the recorder writes: the file's
			// read cache is dropped.
			if err := h.Write(ctx, history.Batch{Payments: []history.Count{{State: "COMPLETED", Minute: now.Add(-time.Minute), N: 3}},
				PaymentsFrom: now.Add(-time.Minute), PaymentsTo: now}); err != nil {
				b.Fatal(err)
			}
			_ = read()
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = read()
		}
	})
	in := read()
	r := colorprofile.NoTTY
	uctx := &ui.Context{Shared: &ui.Shared{Store: st, Now: func() time.Time { return now }}, Session: ui.Session{Colors: r, Dark: true, Theme: ui.NewTheme(r, true, nil)}}
	if drawInitiatedChart(uctx, in, win, 120, 10) == "" {
		b.Fatal("no chart")
	}
	b.Run("draw", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = drawInitiatedChart(uctx, in, win, 120, 10)
		}
	})
}
