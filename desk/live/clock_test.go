package live

import (
	"context"
	"testing"
	"time"

	"treasury/wire/apierr"
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

// TestAlertTimesFollowAFastClock: a feed's alert judged on a platform
// whose clock runs 20 times faster (a sandbox at --speed 20) names a
// payment that failed 15 of the platform's minutes ago: on this host's
// clock that was 45 s ago, not 15 minutes (moving it back by today's
// offset put it before the dashboard started).
func TestAlertTimesFollowAFastClock(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 11, 0, 0, 0, time.UTC)
	local := t0
	server := func(at time.Time) time.Time { return t0.Add(20 * at.Sub(t0)) }
	s := New(Options{Now: func() time.Time { return local }, Feeds: []Feed{
		ValueFeed(KeyOf[int]("payments"), func(context.Context) (int, error) { return 1, nil }, FeedOptions[int, int]{
			Interface: apierr.Payments, Interval: time.Second,
			Alerts: func(_ int, now time.Time) []Alert {
				failed := now.Add(-15 * time.Minute)
				return []Alert{{Key: "failures", Code: "FAILED", Since: failed, Last: failed}}
			}}),
	}})
	for step := range 600 { // a minute of answers, a tenth of a second apart
		local = t0.Add(time.Duration(step) * 100 * time.Millisecond)
		s.ObserveDate(apierr.Payments, local, local, server(local).Truncate(time.Second))
	}
	s.FetchNow(context.Background(), "payments")
	as := s.Alerts()
	if len(as) != 1 {
		t.Fatalf("alerts %+v", as)
	}
	if ago := local.Sub(as[0].Since); ago < 40*time.Second || ago > 50*time.Second {
		t.Errorf("the failure 15 platform minutes ago is put %s ago on the host's clock, want about 45 s", ago)
	}
}

// TestAFastClockIsKnownFromTwoAnswers: answers a fraction of a second
// apart from a server at 240x tell it runs fast at once, within a
// factor of two of its rate (a receiver judging its notifications
// cannot wait 20 s of answers); from a server at the
// host's rate, answers as close, their Dates rounded to the second and
// their round trips uneven, never pass for a fast clock.
func TestAFastClockIsKnownFromTwoAnswers(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 2, 0, 0, 300e6, time.UTC)
	for _, tc := range []struct {
		speed float64
		want  func(float64) bool
	}{
		{240, func(r float64) bool { return r > 120 && r < 480 }}, // refined by the answers after
		{1, func(r float64) bool { return r == 1 }},
	} {
		for _, gap := range []time.Duration{150 * time.Millisecond, 400 * time.Millisecond, 900 * time.Millisecond} {
			s := New(Options{Now: func() time.Time { return t0.Add(gap) }})
			server := func(at time.Time) time.Time {
				return t0.Add(time.Duration(tc.speed * float64(at.Sub(t0)))).Truncate(time.Second)
			}
			// The first answer took 400 ms, the second 10 ms.
			s.ObserveDate(apierr.Payments, t0.Add(-400*time.Millisecond), t0, server(t0.Add(-390*time.Millisecond)))
			s.ObserveDate(apierr.Payments, t0.Add(gap-10*time.Millisecond), t0.Add(gap), server(t0.Add(gap-5*time.Millisecond)))
			if r := s.PlatformRate(apierr.Payments); !tc.want(r) {
				t.Errorf("a server at %vx, answers %s apart: rate %v", tc.speed, gap, r)
			}
		}
	}
}
