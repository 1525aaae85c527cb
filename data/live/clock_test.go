package live

import (
	"testing"
	"time"

	"treasury/data/apierr"
)

// TestClockFollowsAFastServerUnderBursts: a server whose clock runs ten
// times faster, answering in bursts (a poll's pages and retries, dozens
// of answers a second), is followed within a few of its seconds at every
// moment: the estimate neither falls back to the host's rate when the
// last answers came close together, nor jumps when they spread again.
func TestClockFollowsAFastServerUnderBursts(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 2, 0, 0, 0, time.UTC)
	local := t0
	s := New(Options{Now: func() time.Time { return local }})
	server := func(at time.Time) time.Time { return t0.Add(10 * at.Sub(t0)).Truncate(time.Second) }
	worst := time.Duration(0)
	for step := 0; step < 1200; step++ { // 2 minutes of real time, a tenth of a second a step
		local = t0.Add(time.Duration(step) * 100 * time.Millisecond)
		burst := 1
		if step%20 == 0 {
			burst = 40 // a poll: pages, retries, balances
		}
		for range burst {
			s.ObserveDate(apierr.Liquidity, local, local, server(local))
		}
		if local.Sub(t0) < 30*time.Second {
			continue // the rate is fitted over 20 s of answers
		}
		truth := t0.Add(10 * local.Sub(t0))
		if d := s.PlatformNow(apierr.Liquidity).Sub(truth).Abs(); d > worst {
			worst = d
		}
	}
	if worst > 5*time.Second {
		t.Fatalf("the estimate strayed %v from a server running ten times faster", worst)
	}
}
