package platform

import (
	"fmt"
	"testing"
	"time"

	"treasury/data/live"
	"treasury/data/payments"
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
