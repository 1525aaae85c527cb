package live

import (
	"context"
	"errors"
	"testing"
	"time"
	"treasury/wire/apierr"
)

// fakeArchive has a point per hour of the last 10 days.
type fakeArchive struct {
	now   time.Time
	err   error
	reads int
}

func (a *fakeArchive) Points(_ context.Context, _ string, from, to time.Time, _ int) ([]Point, error) {
	a.reads++
	if a.err != nil {
		return nil, a.err
	}
	var out []Point
	for t := a.now.Add(-240 * time.Hour); t.Before(to); t = t.Add(time.Hour) {
		if !t.Before(from) {
			out = append(out, Point{At: t, Value: 1})
		}
	}
	return out, nil
}

// TestHistorySinceReadsTheArchiveBeyondMemory: a span the memory holds is
// read from it; a longer one from the archive, followed by the memory's
// points newer than the archive's; a failing archive leaves the memory.
func TestHistorySinceReadsTheArchiveBeyondMemory(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 30, 0, time.UTC)
	s := New(Options{Now: func() time.Time { return now }, HistoryWindow: 24 * time.Hour})
	a := &fakeArchive{now: now.Truncate(time.Hour)}
	s.SetArchive(a)
	s.Remember([]Sample{{Series: "rate:X", At: now.Add(-2 * time.Hour), Value: 2}, {Series: "rate:X", At: now.Add(-time.Minute), Value: 3},
		{Series: "rate:X", At: now, Value: 4}})
	if pts := s.HistorySince("rate:X", now.Add(-time.Hour)); len(pts) != 2 || a.reads != 0 {
		t.Fatalf("1 h: %v (%d archive reads): the memory's two points", pts, a.reads)
	}
	week := s.HistorySince("rate:X", now.Add(-7*24*time.Hour))
	if a.reads != 1 || len(week) != 7*24+1 || week[len(week)-1].Value != 4 || week[len(week)-2].Value != 1 {
		t.Fatalf("7 d: %d points, last %v: the archive's 168 and the memory's one newer than its last", len(week), week[len(week)-3:])
	}
	a.err = errors.New("unreadable")
	if pts := s.HistorySince("rate:X", now.Add(-7*24*time.Hour)); len(pts) != 3 {
		t.Fatalf("with the archive failing: %v, want the memory's", pts)
	}
}

// TestArchiveBetween: a series only the archive keeps is read from it over
// any span, the memory not asked; without an archive there is none.
func TestArchiveBetween(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 30, 0, time.UTC)
	s := New(Options{Now: func() time.Time { return now }, HistoryWindow: 24 * time.Hour})
	if s.Archived() || s.ArchiveBetween("payments:FAILED", now.Add(-time.Hour), now, ArchivePoints) != nil {
		t.Fatal("points without an archive")
	}
	a := &fakeArchive{now: now.Truncate(time.Hour)}
	s.SetArchive(a)
	if pts := s.ArchiveBetween("payments:FAILED", now.Add(-3*time.Hour), now, ArchivePoints); !s.Archived() || len(pts) != 3 || a.reads != 1 {
		t.Fatalf("3 h: %v (%d reads): the archive's 3 points", pts, a.reads)
	}
	a.err = errors.New("unreadable")
	if pts := s.ArchiveBetween("payments:FAILED", now.Add(-3*time.Hour), now, ArchivePoints); pts != nil {
		t.Fatalf("a failing archive gave %v", pts)
	}
}

// TestHistoryLastIsThePlatformsLastSpan: a chart of the last hour reads
// the points of the platform's last hour, which the points' times are on,
// when the platform's clock runs three hours ahead of this host's: not
// four hours of points (from the host's hour ago on), nor, from a clock
// behind, none.
func TestHistoryLastIsThePlatformsLastSpan(t *testing.T) {
	for _, ahead := range []time.Duration{3 * time.Hour, -3 * time.Hour} {
		host := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		plat := host.Add(ahead)
		s := New(Options{Now: func() time.Time { return host }, HistoryWindow: 24 * time.Hour})
		s.ObserveDate(apierr.Liquidity, host, host, plat)
		var samples []Sample
		for m := 5 * 60; m >= 0; m-- { // a point a minute over the platform's last five hours
			samples = append(samples, Sample{Series: "rate:X", At: plat.Add(-time.Duration(m) * time.Minute), Value: float64(m)})
		}
		s.Remember(samples)
		pts := s.HistoryLast(apierr.Liquidity, "rate:X", time.Hour)
		// A Date header says the second: the platform's now is known to it.
		if n := len(pts); n < 60 || n > 61 || pts[0].At.Sub(plat.Add(-time.Hour)).Abs() > time.Minute || !pts[n-1].At.Equal(plat) {
			t.Errorf("platform %s ahead: %d points of the last hour, want the platform's 60 or 61", ahead, len(pts))
		}
	}
}

// youngArchive holds the last two hours only: a history file that began
// after the process read a day of history.
type youngArchive struct{ now time.Time }

func (a youngArchive) Points(_ context.Context, _ string, from, to time.Time, _ int) ([]Point, error) {
	var out []Point
	for t := a.now.Add(-2 * time.Hour); t.Before(to); t = t.Add(10 * time.Minute) {
		if !t.Before(from) {
			out = append(out, Point{At: t, Value: 1})
		}
	}
	return out, nil
}

// TestLongerWindowNeverHoldsLess: with a history file younger than what
// the process holds, the 7-day history begins where the 24-hour one does.
func TestLongerWindowNeverHoldsLess(t *testing.T) {
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	s := New(Options{Now: func() time.Time { return now }, HistoryWindow: 24 * time.Hour})
	s.SetArchive(youngArchive{now: now})
	var samples []Sample
	for h := 23; h >= 0; h-- {
		samples = append(samples, Sample{Series: "rate:X", At: now.Add(-time.Duration(h) * time.Hour), Value: 2})
	}
	s.Remember(samples)
	day := s.HistorySince("rate:X", now.Add(-24*time.Hour))
	week := s.HistorySince("rate:X", now.Add(-7*24*time.Hour))
	if len(day) == 0 || len(week) == 0 || week[0].At.After(day[0].At) {
		t.Fatalf("the week begins %v, the day %v", week[0].At, day[0].At)
	}
	for i := 1; i < len(week); i++ {
		if week[i].At.Before(week[i-1].At) {
			t.Fatalf("points out of order at %d: %v after %v", i, week[i].At, week[i-1].At)
		}
	}
}
