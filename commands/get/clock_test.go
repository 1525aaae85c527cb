package get

import (
	"encoding/json"
	"testing"
	"time"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/sandbox/sandboxtest"
)

// TestGetSinceIsThePlatformsSpan: a --since window against a platform
// whose clock is three hours ahead of this host's is the platform's last
// span, as the dashboard's windows are, on each interface's own clock:
// the quotes of its last five minutes (liquidity), and of its last fifteen
// without --since (the default window, which getCases leaves out: it is
// 5,400 quotes, a second or two a read under -race), the ledger of its
// last hour (payments, whose clock a token test does not tell: that is the
// auth interface's). Counted back from this host's clock, the quotes read
// were three hours old, and the ledger's hour held none of the platform's
// last ten minutes of traffic.
func TestGetSinceIsThePlatformsSpan(t *testing.T) {
	o := sandboxtest.Options()
	o.Start = time.Now().Add(3 * time.Hour).Truncate(time.Second)
	srv := sandboxtest.Listen(t, o)
	srv.AdvanceClock(10 * time.Minute) // live traffic: payments move the ledger
	face := profiletest.Write(t, srv, clitest.FreeAddr(t), nil)
	plat := srv.Clock().Now()
	for _, c := range []struct {
		args []string
		span time.Duration
		full bool // the oldest record is near the window's start
	}{
		{[]string{"quotes", "--since", "5m"}, 5 * time.Minute, true},
		{[]string{"quotes"}, 15 * time.Minute, true},
		{[]string{"ledger", "--since", "1h"}, time.Hour, false},
	} {
		code, out, stderr := getRun(t, append([]string{"--config", face}, append(c.args, "-o", "json")...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		var recs []struct {
			CreatedAt   time.Time `json:"createdAt"`
			CreatedDttm time.Time `json:"createdDttm"`
		}
		if err := json.Unmarshal([]byte(out), &recs); err != nil {
			t.Fatalf("%v: %v: %s", c.args, err, out)
		}
		if len(recs) == 0 {
			t.Fatalf("%v: nothing in the platform's last %s", c.args, c.span)
		}
		oldest := plat
		for _, r := range recs {
			at := r.CreatedAt
			if at.IsZero() {
				at = r.CreatedDttm
			}
			if at.Before(plat.Add(-c.span-2*time.Second)) || at.After(plat) {
				t.Fatalf("%v: a record at %s, outside the platform's last %s (its now %s)", c.args, at, c.span, plat)
			}
			if at.Before(oldest) {
				oldest = at
			}
		}
		if c.full && oldest.After(plat.Add(-c.span+10*time.Second)) {
			t.Fatalf("%v: the oldest record is at %s, %s before the platform's now: not its last %s", c.args, oldest, plat.Sub(oldest), c.span)
		}
	}
}

// TestSinceStartsOnTheSecond: a window's start does not move with the
// milliseconds this host adds to the platform's Date (whole seconds)
// between one get and the next. It did: against two frozen servers of one
// instant, a trade at the edge of the last hour was read from one and not
// from the other (539 and 540 trades, a CI failure).
func TestSinceStartsOnTheSecond(t *testing.T) {
	date := time.Date(2026, 11, 16, 10, 0, 0, 0, time.UTC)
	var starts []time.Time
	for _, after := range []time.Duration{time.Millisecond, 40 * time.Millisecond, 900 * time.Millisecond} {
		a := getArgs{since: time.Hour, now: func() time.Time { return date.Add(after) }}
		starts = append(starts, a.from())
	}
	for _, s := range starts {
		if !s.Equal(date.Add(-time.Hour)) {
			t.Fatalf("windows start at %v, want %v each", starts, date.Add(-time.Hour))
		}
	}
}
