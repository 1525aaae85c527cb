package platform

import (
	"fmt"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/wire/payments"
)

// TestDeclineAlertCountsAccountConditions: the sustained-declines alert of
// spec 7.1 rule 4 counts declines for USR_062 to USR_067 only; declines for
// other reasons, or whose reason is not known, do not raise it.
func TestDeclineAlertCountsAccountConditions(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	mk := func(n int, code string) []payments.Payment {
		var out []payments.Payment
		for i := range n {
			p := payments.Payment{PaymentID: fmt.Sprintf("%s-%d", code, i), PaymentState: payments.Declined,
				InitiatedAt: now.Add(-time.Hour), LastStateUpdatedAt: now.Add(-time.Duration(i) * time.Minute)}
			if code != "" {
				p.Errors = []payments.PaymentError{{Code: code}}
			}
			out = append(out, p)
		}
		return out
	}
	for name, c := range map[string]struct {
		ps   []payments.Payment
		want int
	}{
		"account conditions": {mk(DeclineThreshold, "USR_067"), 1},
		"other reasons":      {mk(DeclineThreshold+3, "USR_030"), 0},
		"reason unknown":     {mk(DeclineThreshold+3, ""), 0},
		"mixed, under":       {append(mk(DeclineThreshold-1, "USR_062"), mk(3, "USR_030")...), 0},
	} {
		if got := len(declineAlerts(mergeAll(c.ps), now)); got != c.want {
			t.Errorf("%s: %d alerts, want %d", name, got, c.want)
		}
	}
}

func mergeAll(ps []payments.Payment) *live.PaymentSet {
	s, _ := live.MergePayments(nil, ps, time.Time{})
	return s
}

// TestFailureAlertCountReadsRight: one failed payment is "1 payment
// failed", not "1 payments failed"; more are plural.
func TestFailureAlertCountReadsRight(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for n, want := range map[int]string{1: "1 payment failed in the last hour; newest f-0", 2: "2 payments failed in the last hour; newest f-0"} {
		var ps []payments.Payment
		for i := range n {
			ps = append(ps, payments.Payment{PaymentID: fmt.Sprintf("f-%d", i), PaymentState: payments.Failed,
				InitiatedAt: now.Add(-time.Hour), LastStateUpdatedAt: now.Add(-time.Duration(i+1) * time.Minute)})
		}
		as := paymentAlerts(mergeAll(ps), now)
		if len(as) != 1 || as[0].Title != want {
			t.Errorf("%d failed: alerts %+v, want %q", n, as, want)
		}
	}
}

// TestFailureRate: the share of the payments finished in the last hour
// that failed or were declined raises a warning at 10 % and a critical
// alert at 30 % (the defaults), from 20 finished payments; payments still
// in flight, or finished earlier, do not count.
func TestFailureRate(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	fr := config.DefaultAlerts().FailureRate
	mk := func(completed, failed, declined, older, inflight int) *live.PaymentSet {
		var ps []payments.Payment
		add := func(n int, st payments.State, at time.Time) {
			for range n {
				ps = append(ps, payments.Payment{PaymentID: fmt.Sprintf("p-%d", len(ps)), PaymentState: st,
					InitiatedAt: at.Add(-time.Minute), LastStateUpdatedAt: at})
			}
		}
		add(completed, payments.Completed, now.Add(-10*time.Minute))
		add(failed, payments.Failed, now.Add(-20*time.Minute))
		add(declined, payments.Declined, now.Add(-30*time.Minute))
		add(older, payments.Failed, now.Add(-61*time.Minute))
		add(inflight, payments.Initiated, now.Add(-time.Minute))
		return mergeAll(ps)
	}
	for name, c := range map[string]struct {
		ps    *live.PaymentSet
		sev   live.Severity
		title string
	}{
		"under the warning":  {mk(19, 1, 0, 30, 50), -1, ""},
		"warning":            {mk(18, 1, 1, 0, 0), live.Medium, "10.0% of payments failed or were declined in the last hour (2 of 20 finished; warning at 10%)"},
		"critical":           {mk(14, 3, 3, 0, 0), live.High, "30.0% of payments failed or were declined in the last hour (6 of 20 finished; critical at 30%)"},
		"too few to tell":    {mk(9, 5, 5, 0, 0), -1, ""},
		"older do not count": {mk(18, 0, 0, 40, 0), -1, ""},
	} {
		a, ok := failureRate(c.ps, fr, now)
		if c.sev < 0 {
			if ok {
				t.Errorf("%s: alert %+v", name, a)
			}
			continue
		}
		if !ok || a.Severity != c.sev || a.Title != c.title || a.Code != "FAILURE_RATE" || a.Ref != "failed" {
			t.Errorf("%s: %+v, want %v %q", name, a, c.sev, c.title)
		}
	}
}
