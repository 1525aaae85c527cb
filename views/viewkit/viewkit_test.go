package viewkit

import (
	"testing"
	"time"
)

// TestTimeAsMissing: a record without a time shows a dash in every
// layout (slicing Time's dash panicked).
func TestTimeAsMissing(t *testing.T) {
	if got := TimeAs(time.Time{}, time.TimeOnly); got != "—" {
		t.Errorf("zero time: %q", got)
	}
	at := time.Date(2026, 3, 1, 12, 30, 0, 0, time.FixedZone("X", 3600))
	if got := TimeAs(at, time.TimeOnly); got != "11:30:00" {
		t.Errorf("UTC time of day: %q", got)
	}
}

// TestDurationKeepsTensOfSeconds: 40 seconds read "4" (the "0s" of
// "1m0s" was trimmed from "40s" too).
func TestDurationKeepsTensOfSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		40 * time.Second: "40s", 45 * time.Second: "45s", 0: "0s", time.Minute: "1m", 90 * time.Second: "1m30s",
		30 * time.Minute: "30m", 90 * time.Minute: "1h30m", 24 * time.Hour: "24h", 10*time.Hour + 20*time.Second: "10h0m20s",
		7 * 24 * time.Hour: "7d", 30 * 24 * time.Hour: "30d", 53*time.Hour + 10*time.Minute: "2d5h",
		3*24*time.Hour - 20*time.Minute: "3d", 2*24*time.Hour + 30*time.Minute: "2d1h",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%s) = %q, want %q", d, got, want)
		}
	}
}

// TestSpanSaysWhatTheHistoryCovers: a chart of the last 24 hours drawn over
// the 30 minutes held since a start said "last 24h"; it says how long its
// points cover until they reach back to the window's start.
func TestSpanSaysWhatTheHistoryCovers(t *testing.T) {
	at := time.Date(2026, 11, 25, 11, 37, 0, 0, time.UTC)
	for _, c := range []struct {
		win         time.Duration
		first, last time.Time
		want        string
	}{
		{24 * time.Hour, at.Add(-30 * time.Minute), at, "last 24h window, 30m held"},
		{24 * time.Hour, at.Add(-(5*time.Hour + 20*time.Minute + 40*time.Second)), at, "last 24h window, 5h21m held"},
		{24 * time.Hour, at.Add(-24 * time.Hour), at, "last 24h"},
		{24 * time.Hour, at.Add(-24*time.Hour + 30*time.Second), at, "last 24h"},
		{time.Hour, at.Add(-40 * time.Second), at, "last 1h window, 40s held"},
		{7 * 24 * time.Hour, at.Add(-(7*24*time.Hour - 6*time.Minute)), at, "last 7d"},
		{7 * 24 * time.Hour, at.Add(-(7*24*time.Hour - 40*time.Minute)), at, "last 7d window, 6d23h held"},
		{time.Hour, at, at, "last 1h window, one point held"},
		{time.Hour, time.Time{}, time.Time{}, "last 1h window, nothing held yet"},
	} {
		if got := Span(c.win, c.first, c.last); got != c.want {
			t.Errorf("Span(%s, %s held) = %q, want %q", c.win, c.last.Sub(c.first), got, c.want)
		}
	}
}
