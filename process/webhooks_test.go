package process_test

import (
	"context"
	"crypto/x509"
	"io"
	"path/filepath"
	"testing"
	"time"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/kit/pubkey"
	"treasury/process"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
)

// TestReceiverJudgesTimestampsOnThePlatformClock runs the dashboard's
// runtime on a profile with its own receiver (what `treasury sandbox
// --write-profile` writes) against a sandbox whose clock is days off this
// host's, as a production platform's may be minutes off: the sandbox signs
// its notifications with its own time, as a platform does, and the
// receiver accepts them, judging the timestamp on the platform's clock as
// the payments interface's answers tell it, not on the host's.
func TestReceiverJudgesTimestampsOnThePlatformClock(t *testing.T) {
	// A running clock (a production platform's does not jump), days
	// behind this host's, and payments changing state every few seconds.
	o := sandboxtest.Options()
	o.Frozen, o.Start, o.LivePaymentsPerMinute = false, time.Now().Add(-72*time.Hour), 600
	srv := sandboxtest.Listen(t, o)
	if skew := time.Since(srv.Clock().Now()); skew < time.Hour && skew > -time.Hour {
		t.Skipf("the sandbox's clock is only %s from this host's: no skew to judge", skew)
	}
	receiveFrom(t, srv, 10)
}

// TestReceiverFollowsASpedUpSandbox: a sandbox at --speed 240 (four of
// its minutes a second) signs each notification with its time; a
// notification that takes a second to come is four of its minutes old,
// and the platform's clock as the dashboard estimates it between two
// answers may be minutes off it. The receiver's tolerance is the
// platform's: five minutes of real time, 240 times five minutes of the
// sandbox's, so the notifications are accepted, none refused as
// future_timestamp or stale_timestamp.
func TestReceiverFollowsASpedUpSandbox(t *testing.T) {
	o := sandboxtest.Options()
	o.Frozen, o.Speed, o.LivePaymentsPerMinute = false, 240, 2
	srv := sandboxtest.Listen(t, o)
	receiveFrom(t, srv, 20)
}

// receiveFrom runs the dashboard's runtime with its own receiver
// against srv, has srv notify it, and wants want notifications accepted
// and none refused.
func receiveFrom(t *testing.T, srv *sandbox.Server, want int) {
	t.Helper()
	ep, c := srv.Endpoints(), srv.Credentials()
	pubPEM, err := pubkey.MarshalPEM(srv.WebhookPublicKey())
	if err != nil {
		t.Fatal(err)
	}
	written, err := config.WriteSandboxProfile(filepath.Join(t.TempDir(), "sandbox.yaml"),
		config.SandboxEndpoints{Liquidity: ep.Liquidity, Auth: ep.Auth, Payments: ep.Payments, Reporting: ep.Reporting, Wallet: ep.Wallet, Custody: ep.Custody},
		config.SandboxCredentials{PaymentsClientID: c.PaymentsClientID, PaymentsClientSecret: c.PaymentsClientSecret, PaymentsAudience: c.PaymentsAudience,
			WalletClientID: "monitoring", WalletClientSecret: "monitoring-secret", LiquidityToken: c.LiquidityToken,
			CustodyToken: c.CustodyToken, CustodyDomainID: c.CustodyDomainID},
		config.SandboxProfileOptions{WebhookPublicKeyPEM: pubPEM, WebhookListen: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := config.Load(config.Options{ConfigFile: written.Path, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := clitest.Env(t, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, err := process.Open(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	st := rt.WebhookStatus()
	if !st.Listening() {
		t.Fatalf("receiver not listening: %v", st.Err)
	}
	// The first answers of the payments interface tell its clock.
	wait(t, "the payments interface's clock", func() bool {
		_, ok := rt.Platform.Store.ClockOffset(apierr.Payments)
		return ok
	})
	if srv.Clock().Speed() > 1 {
		// A clock running faster is known for one once two answers a
		// tenth of a second apart tell it (a poll's pages, or the next
		// poll); until then notifications the receiver refuses are
		// delivered again by the platform (6.1's retries).
		start := time.Now()
		wait(t, "the payments interface's rate", func() bool { return rt.Platform.Store.PlatformRate(apierr.Payments) > 1 })
		t.Logf("the payments interface's clock known to run %.0fx after %s", rt.Platform.Store.PlatformRate(apierr.Payments), time.Since(start).Round(time.Millisecond))
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(written.CertPEM)
	if err := srv.SetWebhooks(sandbox.WebhookOptions{URL: "https://" + st.Addr + cfg.Webhooks.Path, RootCAs: pool}); err != nil {
		t.Fatal(err)
	}
	// The live payments change state and are notified, signed at the
	// sandbox's time.
	wait(t, "notifications", func() bool {
		s := rt.WebhookStatus()
		return s.Stats.Accepted >= want || s.Rejected() >= want
	})
	s := rt.WebhookStatus()
	if s.Rejected() > 0 || s.Stats.Accepted < want {
		t.Fatalf("accepted %d, rejected %v: the signed timestamps were judged on this host's clock, %s from the platform's",
			s.Stats.Accepted, s.Rejections, time.Since(srv.Clock().Now()).Round(time.Hour))
	}
}

// wait polls ok until it holds; the limit guards against a hang, it is not
// a speed assertion.
func wait(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 20 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
