package live

import (
	"slices"
	"testing"
	"time"
)

// TestAlertsByUrgency: the most severe first; within a severity the one
// that bites first first (a runway's end: GBP's 1.4 h after USD's 0.3 h),
// then those without a due time, newest first.
func TestAlertsByUrgency(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	s := New(Options{Inline: true, Now: func() time.Time { return now }})
	s.alerts.replaceData(Ledger, []Alert{
		{Key: "low-runway:GBP", Severity: High, Due: now.Add(84 * time.Minute), Since: now.Add(-time.Minute)},
		{Key: "failure-rate", Severity: High, Since: now},
		{Key: "low-runway:USD", Severity: High, Due: now.Add(18 * time.Minute), Since: now.Add(-2 * time.Minute)},
		{Key: "low-runway:EUR", Severity: Medium, Due: now.Add(time.Minute)},
	}, now)
	var keys []string
	for _, a := range s.Alerts() {
		keys = append(keys, a.Key)
	}
	if want := []string{"low-runway:USD", "low-runway:GBP", "failure-rate", "low-runway:EUR"}; !slices.Equal(keys, want) {
		t.Errorf("alerts %v, want %v", keys, want)
	}
}
