package dashboard

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/process"
	"treasury/ui"
)

// TestHeaderTokenAtASandboxSpedUp runs the dashboard over an embedded
// sandbox 240 times faster than real time, where a token's hour is 15
// real seconds and the token test's 30-second interval two sandbox hours.
// Once the hour of the token the test read has passed, the client has
// replaced it and every call works: the header shows the time left of the
// token held, never "token expired" of the one replaced.
func TestHeaderTokenAtASandboxSpedUp(t *testing.T) {
	e, _ := clitest.Env(t, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := config.Builtin()
	cfg.Embedded.Speed = 240
	cfg.Embedded.HistoryPayments = 300
	rt, err := process.Open(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	st, clock := rt.Platform.Store, rt.Sandbox.Clock()
	// The token test's first reading, at the start of polling.
	deadline := time.Now().Add(20 * time.Second) // a hang guard
	for !live.Get(st, live.TokenExpiryKey).Loaded() {
		if time.Now().After(deadline) {
			t.Fatalf("no token test reading: %v", live.Get(st, live.TokenExpiryKey).Err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The tested token's hour passes (the clock is moved on besides its
	// run: what 22 real seconds do; the test's next reading is 30 real
	// seconds after the first).
	clock.Advance(90 * time.Minute)
	read := live.Get(st, live.TokenExpiryKey)
	if !read.Data.Before(clock.Now()) {
		t.Fatalf("the token test's reading (expiry %s) was taken again after the advance: the case is not set up", read.Data)
	}
	// A call of the payments interface: the client replaces its token.
	if snap := st.FetchNow(ctx, live.PaymentBalances); snap.Err != nil {
		t.Fatalf("payments balances after the token's hour: %v", snap.Err)
	}
	app := NewApp(rt, Session{Colors: colorprofile.NoTTY, Dark: true, Who: audit.Who{Via: audit.ViaLocal, User: "tester"}})
	app.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	app.Update(ui.StoreChanged{})
	header := strings.SplitN(app.Frame(), "\n", 2)[0]
	t.Logf("header %q", header)
	if strings.Contains(header, "token expired") || strings.Contains(header, "token ✖") || !strings.Contains(header, "token ") {
		t.Fatalf("header %q at %s: every call works with the token held; the expiry the test read, %s, is of the token replaced",
			header, clock.Now().Format(time.TimeOnly), read.Data.Format(time.TimeOnly))
	}
}
