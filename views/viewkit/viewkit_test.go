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
