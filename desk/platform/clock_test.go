package platform_test

import (
	"context"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// TestPaymentAlertsOnThePlatformClock: the platform's clock runs three
// hours ahead of the dashboard's (a sandbox at many times real time does
// this in minutes; a platform in another data centre can do it by a
// little). "Failed in the last hour" is the platform's last hour, which
// the payments' times are on: the alert counts the failures of that hour
// and points at the newest of them, and its time is on the dashboard's
// clock, as every alert's is, not three hours in the future. The runway
// is weighed up to the platform's now, not the dashboard's, which would
// leave the last three hours of the ledger out.
func TestPaymentAlertsOnThePlatformClock(t *testing.T) {
	const ahead = 3 * time.Hour
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	host := func() time.Time { return srv.Clock().Now().Add(-ahead) }
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: host, Inline: true, BackfillBudget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	srv.AdvanceClock(2 * time.Hour) // live traffic: payments fail in both hours
	ctx := context.Background()
	for _, tp := range []live.Topic{live.Payments, live.PaymentBalances, live.Ledger} {
		if s := p.Store.FetchNow(ctx, tp); s.Err != nil {
			t.Fatalf("%s: %v", tp, s.Err)
		}
	}
	plat := srv.Clock().Now()
	if got := p.Store.PlatformNow(apierr.Payments); got.Sub(plat).Abs() > 2*time.Second {
		t.Fatalf("the store reads the platform's now as %s, the sandbox's is %s", got, plat)
	}
	ps := live.Get(p.Store, live.PaymentsKey).Data
	failed := func(now time.Time) (n int, newest *payments.Payment) {
		for i := range ps.Len() {
			x := ps.At(i)
			if x.PaymentState == payments.Failed && !x.LastStateUpdatedAt.Before(now.Add(-platform.FailureWindow)) && !x.LastStateUpdatedAt.After(now) {
				if n++; newest == nil || x.LastStateUpdatedAt.After(newest.LastStateUpdatedAt) {
					newest = x
				}
			}
		}
		return n, newest
	}
	want, newest := failed(plat)
	onHost, _ := failed(host())
	if want == 0 || want == onHost {
		t.Fatalf("the test needs failures in the platform's last hour (%d) other than in the host's (%d)", want, onHost)
	}
	as := alertsOf(p, "FAILED")
	if len(as) != 1 {
		t.Fatalf("failure alerts %+v, want one of %d payments", as, want)
	}
	a := as[0]
	if a.Count != want || a.Ref != newest.PaymentID {
		t.Errorf("the alert counts %d failures, newest %s; the platform's last hour has %d, newest %s (the host's hour: %d)",
			a.Count, a.Ref, want, newest.PaymentID, onHost)
	}
	if d := a.Since.Sub(newest.LastStateUpdatedAt.Add(-ahead)); d.Abs() > 2*time.Second {
		t.Errorf("the alert's time %s is not on the dashboard's clock (the newest failure at %s on the platform's)", a.Since, newest.LastStateUpdatedAt)
	}
	if s := live.Get(p.Store, p.Runway).Data; s.At.Sub(plat).Abs() > 2*time.Second {
		t.Errorf("the runway is weighed up to %s, the platform's now is %s", s.At, plat)
	}
}
