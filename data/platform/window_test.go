package platform

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"treasury/data/liquidity"
	"treasury/data/wire"
)

// rec is a record of a test window: its time is its id.
type rec struct{ t time.Time }

// fakeWindow serves one record a second of [from, to) newest first, in
// pages of 10, failing every page that starts at or before failFrom until
// healed.
type fakeWindow struct {
	reads    []liquidity.Window
	failFrom time.Time
}

func (f *fakeWindow) read(ctx context.Context, w liquidity.Window) ([]rec, error) {
	f.reads = append(f.reads, w)
	var out []rec
	for t := w.End.Truncate(time.Second); !t.Before(w.Start); t = t.Add(-time.Second) {
		if len(out)%10 == 0 && !f.failFrom.IsZero() && !t.After(f.failFrom) {
			return out, errors.New("HTTP 500 SYS_001")
		}
		out = append(out, rec{t})
	}
	return out, nil
}

// TestWindowReadsKeepEachPage: a read whose later page fails keeps what
// its earlier pages got (the newest records shown at once), names the
// range left as partial, and the next poll reads that range and no more;
// the window then holds every record once.
func TestWindowReadsKeepEachPage(t *testing.T) {
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	src := &fakeWindow{}
	f := &windowFeed[rec]{read: src.read, now: func() time.Time { return now }, what: "records",
		window: 10 * time.Minute, first: time.Minute, max: 10_000, interval: time.Second,
		at: func(r rec) time.Time { return r.t }, id: func(r rec) string { return r.t.Format(time.RFC3339Nano) }}
	ctx := context.Background()
	got, err := f.fetch(ctx) // the first poll: the last minute
	held, _ := f.fold(nil, got, now)
	if err != nil || len(held) != 61 {
		t.Fatalf("first poll: %d records, %v", len(held), err)
	}
	// The next poll backfills the rest of the window, but the platform
	// fails every page from 09:24:00 back.
	now = now.Add(2 * time.Second)
	src.failFrom = time.Date(2026, 11, 16, 9, 24, 0, 0, time.UTC)
	got, err = f.fetch(ctx)
	var part *wire.Partial
	if !errors.As(err, &part) || len(part.Failed) != 1 || !strings.Contains(part.Failed[0].Name, "09:20:02–09:24:0") {
		t.Fatalf("second poll: %v, want a partial read naming the range left", err)
	}
	held, _ = f.fold(held, got, now)
	newest := held[0].t
	if !newest.Equal(now) || len(held) < 300 {
		t.Fatalf("second poll holds %d records up to %v: what the pages read is kept", len(held), newest)
	}
	// Healed: the next poll reads the fresh seconds and the gap.
	src.failFrom, src.reads = time.Time{}, nil
	now = now.Add(2 * time.Second)
	got, err = f.fetch(ctx)
	held, _ = f.fold(held, got, now)
	if err != nil || len(held) != 601 {
		t.Fatalf("third poll: %d records, %v; want the 601 seconds of the window", len(held), err)
	}
	if len(src.reads) != 2 || !src.reads[1].Start.Equal(now.Add(-10*time.Minute)) {
		t.Fatalf("third poll read %v: the fresh part and the one gap left", fmt.Sprint(src.reads))
	}
}
