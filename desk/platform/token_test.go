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
)

// TestTokenExpiredOnThePlatformClockIsReplaced: the client counts its
// token's life on its own clock, from when it asked (expires_in, the JWT
// unread), as production does; the platform counts on its own. A sandbox
// whose clock runs ahead (here moved on two hours, what 30 s at 240 times
// real time do; a platform's clock off the host's does the same to the
// token's last minute) expires the token while the client still holds it:
// the call answered 401 AUTH_001 gets a new token and is sent again once,
// and succeeds; the token test then reads the new token.
func TestTokenExpiredOnThePlatformClockIsReplaced(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	// This host's clock, not the sandbox's: the two disagree.
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	ctx := context.Background()
	if s := p.Store.FetchNow(ctx, live.PaymentBalances); s.Err != nil {
		t.Fatal(s.Err)
	}
	first, _ := p.PaymentsToken()
	srv.AdvanceClock(2 * time.Hour)
	if s := p.Store.FetchNow(ctx, live.PaymentBalances); s.Err != nil {
		t.Fatalf("a call after the platform expired the token: %v", s.Err)
	}
	if again, _ := p.PaymentsToken(); !again.After(first) {
		t.Errorf("the token was not replaced after the platform's 401 (asked at %s, then %s)", first, again)
	}
	s := p.Store.FetchNow(ctx, live.TokenExpiry)
	if s.Err != nil {
		t.Fatalf("token test: %v", s.Err)
	}
	if left := time.Until(live.Get(p.Store, live.TokenExpiryKey).Data); left < 50*time.Minute {
		t.Errorf("the token test reads %s left, want the new token's hour", left)
	}
	for _, h := range p.Store.Health() {
		if h.LastError != nil {
			t.Errorf("%s: %v", h.Interface, h.LastError)
		}
	}
}
