package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"golang.org/x/crypto/ssh"

	"treasury/commands/cli"
	"treasury/commands/cli/clitest"
	"treasury/commands/dashboard"
	sandboxcmd "treasury/commands/sandbox"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/kit/pubkey"
	"treasury/process"
	"treasury/sandbox/sandboxtest"
)

// TestSecondDashboardOnTheSameProfileRunsOnPolling: two dashboards and an
// SSH server on one profile whose receiver listens on a fixed port (what
// `treasury sandbox --write-profile` writes). The first takes the port;
// the others start anyway, on polling alone, and say which address is
// taken and by whom: on stderr, in the header, in their log.
func TestSecondDashboardOnTheSameProfileRunsOnPolling(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	pubPEM, err := pubkey.MarshalPEM(srv.WebhookPublicKey())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	path := filepath.Join(t.TempDir(), "sandbox.yaml")
	if _, err := sandboxcmd.WriteProfile(srv, path, "", addr, pubPEM); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	g := cli.DefaultGlobals()
	g.ConfigFile = path

	e1, _ := clitest.Env(t, io.Discard)
	cfg, err := g.LoadConfig(e1)
	if err != nil {
		t.Fatal(err)
	}
	first, err := process.Open(ctx, e1, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if st := first.WebhookStatus(); !st.Listening() || st.Addr != addr {
		t.Fatalf("first dashboard's receiver: %+v", st)
	}

	e2, stderr := clitest.Env(t, io.Discard)
	second, err := process.Open(ctx, e2, cfg)
	if err != nil {
		t.Fatalf("the second dashboard did not start: %v", err)
	}
	defer second.Close()
	st := second.WebhookStatus()
	holder := fmt.Sprintf("(pid %d)", os.Getpid())
	if !st.InUse() || st.Addr != addr || !strings.Contains(st.Holder, holder) {
		t.Fatalf("second dashboard's receiver: %+v, want %s in use by %s", st, addr, holder)
	}
	if want := addr + " is in use by"; !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), "polling alone") {
		t.Errorf("stderr %q lacks %q", stderr.String(), want)
	}
	reqLog, _ := os.ReadFile(filepath.Join(e2.Getenv("XDG_STATE_HOME"), "treasury", "requests.log"))
	if !strings.Contains(string(reqLog), `"msg":"webhook receiver not started: running on polling alone","addr":"`+addr+`"`) ||
		!strings.Contains(string(reqLog), holder) {
		t.Errorf("requests.log lacks the taken address and its holder:\n%s", reqLog)
	}
	r := colorprofile.NoTTY
	app := dashboard.NewApp(second, dashboard.Session{Colors: r, Dark: true, Who: audit.Who{Via: audit.ViaLocal, User: "tester"}, SaveDir: t.TempDir()})
	defer app.Close()
	app.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	if v := app.Frame(); !strings.Contains(v, "webhooks ✖ port in use: polling only") {
		t.Errorf("the header does not say the port is taken:\n%s", v)
	}
	// The second dashboard still reads payments: polling works.
	second.Platform.Store.FetchNow(ctx, live.Payments)
	if snap := second.Platform.Store.Snapshot(live.Payments); snap.Err != nil || snap.FetchedAt.IsZero() {
		t.Errorf("payments not polled: %+v", snap.Err)
	}

	// treasury serve on the same profile keeps serving and logs it.
	_, pub := newSigner(t)
	keys := filepath.Join(t.TempDir(), "authorized_keys")
	if err := os.WriteFile(keys, ssh.MarshalAuthorizedKey(pub), 0o600); err != nil {
		t.Fatal(err)
	}
	out := &screen{}
	e3, _ := clitest.Env(t, out)
	sctx, stop := context.WithCancel(ctx)
	done := make(chan int, 1)
	go func() {
		done <- clitest.Run(sctx, Command, e3, "--config", path, "--listen", "127.0.0.1:0", "--authorized-keys", keys)
	}()
	deadline := time.Now().Add(20 * time.Second) // a hang guard
	for !out.contains("serving the dashboard") {
		select {
		case code := <-done:
			t.Fatalf("treasury serve exited %d with the webhook port taken", code)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("treasury serve did not start")
		}
	}
	sessions, _ := os.ReadFile(filepath.Join(e3.Getenv("XDG_STATE_HOME"), "treasury", "sessions.log"))
	if !strings.Contains(string(sessions), `"level":"WARN","msg":"webhook receiver not started: running on polling alone","addr":"`+addr+`"`) {
		t.Errorf("sessions.log lacks the taken address:\n%s", sessions)
	}
	stop()
	if code := <-done; code != 0 {
		t.Errorf("treasury serve exited %d after its context ended", code)
	}
}
