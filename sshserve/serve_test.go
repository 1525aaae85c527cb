package sshserve

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"
)

func TestKeyInFileAcceptedKeyNotInFileRefused(t *testing.T) {
	alice, mallory := newTestKey(t, "alice@laptop"), newTestKey(t, "mallory")
	ts := startServer(t, []string{alice.line}, Options{})

	tm := ts.openTerm(t, "alice", alice, "xterm-256color")
	tm.waitFor(t, "hello alice role=viewer")
	if !strings.Contains(tm.output(), "\x1b[?1049h") {
		t.Errorf("program did not enter the alternate screen: %q", tm.output())
	}
	start := ts.logs.next(t, "ssh session start")
	if start["user"] != "alice" || start["fingerprint"] != alice.fingerprint() || start["role"] != "viewer" || !strings.HasPrefix(start["remote"], "127.0.0.1:") {
		t.Errorf("session start logged %v", start)
	}

	if c, err := ts.dial("mallory", mallory); err == nil {
		c.Close()
		t.Fatal("a key not in the file was accepted")
	}
	// Password and keyboard-interactive are not offered at all.
	_, err := gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{
		User:            "alice",
		Auth:            []gossh.AuthMethod{gossh.Password("alice")},
		HostKeyCallback: gossh.FixedHostKey(ts.hostKey),
	})
	if err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("password auth: got %v, want refused", err)
	}

	// The user quits; the session ends with status 0 and is logged.
	if _, err := tm.stdin.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if err := tm.wait(t); err != nil {
		t.Fatalf("session after q: %v", err)
	}
	end := ts.logs.next(t, "ssh session end")
	if end["reason"] != "quit" || end["fingerprint"] != alice.fingerprint() {
		t.Errorf("session end logged %v", end)
	}
	// In sessions.log the duration is in seconds, the unit in its key
	// ("duration_s":43.71), not nanoseconds under "duration".
	for _, rec := range ts.logs.json(t, "ssh session end") {
		logSeconds(t, rec, "duration_s", 0, 120)
		if _, ok := rec["duration"]; ok {
			t.Errorf("a duration without its unit: %v", rec)
		}
	}
}

// startAliceAndBob starts a server with the default test model and opens a
// session for each of two keys, both showing their model; alice is the
// first key.
func startAliceAndBob(t *testing.T) (ts *testServer, alice testKey, a, b *term) {
	t.Helper()
	alice, bob := newTestKey(t, "alice"), newTestKey(t, "bob")
	ts = startServer(t, []string{alice.line, bob.line}, Options{})
	a = ts.openTerm(t, "alice", alice, "xterm")
	b = ts.openTerm(t, "bob", bob, "xterm")
	a.waitFor(t, "hello alice")
	b.waitFor(t, "hello bob")
	return ts, alice, a, b
}

func TestTwoSessionsAtOnceEachSeeTheirModel(t *testing.T) {
	ts, _, a, b := startAliceAndBob(t)
	if ts.Sessions() != 2 {
		t.Errorf("Sessions() = %d, want 2", ts.Sessions())
	}
	if strings.Contains(a.output(), "bob") || strings.Contains(b.output(), "alice") {
		t.Error("a session saw the other's program")
	}
}

func TestResizeReachesTheProgram(t *testing.T) {
	alice := newTestKey(t, "alice")
	ts := startServer(t, []string{alice.line}, Options{})
	tm := ts.openTerm(t, "alice", alice, "xterm")
	if got := ts.ev.next(t, "alice", "size").size; got.Width != 80 || got.Height != 24 {
		t.Fatalf("first size %dx%d, want the PTY's 80x24", got.Width, got.Height)
	}
	if err := tm.sess.WindowChange(40, 132); err != nil {
		t.Fatal(err)
	}
	got := ts.ev.next(t, "alice", "size").size
	for got.Width == 80 && got.Height == 24 { // the first size may come twice (the PTY's, the program's)
		got = ts.ev.next(t, "alice", "size").size
	}
	if got.Width != 132 || got.Height != 40 {
		t.Fatalf("after resize %dx%d, want 132x40", got.Width, got.Height)
	}
	tm.waitFor(t, "size=132x40")
}

func TestRolePerKey(t *testing.T) {
	op, viewer, plain := newTestKey(t, "op"), newTestKey(t, "viewer"), newTestKey(t, "plain")
	ts := startServer(t, []string{
		`role="operator" ` + op.line,
		`role=viewer,no-port-forwarding ` + viewer.line,
		plain.line,
	}, Options{})
	for _, c := range []struct {
		user string
		key  testKey
		want Role
	}{{"op", op, RoleOperator}, {"viewer", viewer, RoleViewer}, {"plain", plain, RoleViewer}} {
		tm := ts.openTerm(t, c.user, c.key, "xterm")
		s := ts.ev.next(t, c.user, "start").s
		// The key is named for people by its comment: two operators
		// sharing a Unix user are told apart.
		if s.Role != c.want || s.Fingerprint != c.key.fingerprint() || s.User != c.user || s.Name != c.user {
			t.Errorf("%s: session %+v, want role %s, named %s", c.user, s, c.want, c.user)
		}
		tm.waitFor(t, "role="+string(c.want))
	}

	// Promoting a key in the file takes effect at the next connection.
	writeFile(t, ts.keyFile, `role="operator" `+plain.line+"\n")
	ts.openTerm(t, "plain2", plain, "xterm")
	if s := ts.ev.next(t, "plain2", "start").s; s.Role != RoleOperator {
		t.Errorf("after the edit, role %s, want operator", s.Role)
	}
	if c, err := ts.dial("op", op); err == nil {
		c.Close()
		t.Error("a key removed from the file was still accepted")
	}
	// A broken file refuses everyone (fail closed) and says why in the log.
	writeFile(t, ts.keyFile, "ssh-ed25519 not-base64!\n")
	if c, err := ts.dial("plain", plain); err == nil {
		c.Close()
		t.Error("a broken keys file still let a key in")
	}
	if rec := ts.logs.next(t, "authorized keys unusable: refusing every key until fixed"); !strings.Contains(rec["error"], "authorized_keys:1") {
		t.Errorf("fault logged as %v", rec)
	}
}

func TestMaxSessionsEnforced(t *testing.T) {
	alice := newTestKey(t, "alice")
	ts := startServer(t, []string{alice.line}, Options{MaxSessions: 1})
	first := ts.openTerm(t, "alice", alice, "xterm")
	first.waitFor(t, "hello alice")

	second := ts.openTerm(t, "alice2", alice, "xterm")
	err := second.wait(t)
	var exit *gossh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 1 {
		t.Fatalf("second session ended with %v, want exit status 1", err)
	}
	if !strings.Contains(second.output(), "maximum of 1 sessions") {
		t.Errorf("second session was told %q", second.output())
	}
	if ts.Sessions() != 1 {
		t.Errorf("Sessions() = %d, want 1", ts.Sessions())
	}
	// Logged at Info, as every refusal is.
	if r := ts.logs.all("ssh session refused"); len(r) != 1 || r[0]["level"] != "INFO" || r[0]["user"] != "alice2" ||
		!strings.Contains(r[0]["reason"], "maximum of 1 sessions") {
		t.Errorf("the refusal logged %v", r)
	}

	// Once the first leaves, there is room again.
	first.client.Close()
	ts.logs.next(t, "ssh session end")
	third := ts.openTerm(t, "alice3", alice, "xterm")
	third.waitFor(t, "hello alice3")
}

// TestDisconnectQuitsProgramAndRunsCleanup: a client that goes away
// ends its session as a disconnect, its program quit (not killed: wish
// logs a killed program as an error) and its model cleaned up.
func TestDisconnectQuitsProgramAndRunsCleanup(t *testing.T) {
	wishLog, err := os.CreateTemp(t.TempDir(), "wish.log") // written from wish's goroutines
	if err != nil {
		t.Fatal(err)
	}
	prev := log.Default()
	log.SetDefault(log.New(wishLog))
	t.Cleanup(func() { log.SetDefault(prev) })
	alice := newTestKey(t, "alice")
	ts := startServer(t, []string{alice.line}, Options{})
	tm := ts.openTerm(t, "alice", alice, "xterm")
	tm.waitFor(t, "hello alice")
	if ts.Sessions() != 1 {
		t.Fatalf("Sessions() = %d, want 1", ts.Sessions())
	}
	tm.client.Close()
	ts.ev.next(t, "alice", "cleanup")
	end := ts.logs.next(t, "ssh session end")
	if end["reason"] != "disconnect" {
		t.Errorf("end reason %q, want disconnect", end["reason"])
	}
	if ts.Sessions() != 0 {
		t.Errorf("Sessions() = %d after disconnect, want 0", ts.Sessions())
	}
	if l, err := os.ReadFile(wishLog.Name()); err != nil || len(l) > 0 {
		t.Errorf("a disconnect was logged by wish: %s%v", l, err)
	}
}

func TestClosingTheSessionChannelQuitsProgram(t *testing.T) {
	alice := newTestKey(t, "alice")
	ts := startServer(t, []string{alice.line}, Options{})
	tm := ts.openTerm(t, "alice", alice, "xterm")
	tm.waitFor(t, "hello alice")
	// The connection stays open; only the session's input ends.
	tm.stdin.Close()
	ts.ev.next(t, "alice", "cleanup")
	if end := ts.logs.next(t, "ssh session end"); end["reason"] != "disconnect" {
		t.Errorf("end reason %q, want disconnect", end["reason"])
	}
}

func TestIdleSessionIsToldAndClosed(t *testing.T) {
	alice := newTestKey(t, "alice")
	ts := startServer(t, []string{alice.line}, Options{IdleTimeout: 300 * time.Millisecond})
	tm := ts.openTerm(t, "alice", alice, "xterm")
	tm.waitFor(t, "hello alice")
	if err := tm.wait(t); err != nil {
		t.Fatalf("idle session ended with %v", err)
	}
	if !strings.Contains(tm.output(), "no input for 300ms") {
		t.Errorf("idle session was told %q", tm.output())
	}
	ts.ev.next(t, "alice", "cleanup")
	if end := ts.logs.next(t, "ssh session end"); end["reason"] != "idle" {
		t.Errorf("end reason %q, want idle", end["reason"])
	}
}

func TestShutdownTellsSessionsAndReturns(t *testing.T) {
	ts, alice, a, b := startAliceAndBob(t)

	if err := ts.stop(t); err != nil {
		t.Fatalf("Serve returned %v after shutdown, want nil", err)
	}
	for _, tm := range []*term{a, b} {
		if err := tm.wait(t); err != nil {
			t.Errorf("session ended with %v, want a clean exit", err)
		}
		out := tm.output()
		if !strings.Contains(out, "the server is shutting down") {
			t.Errorf("session was not told: %q", out)
		}
		// The program left the alternate screen (the notice, written on
		// stderr once the program has returned, stays on the screen). The
		// client copies stdout and stderr on two goroutines: their order
		// in out says nothing, so stdout is read alone.
		if prog := tm.programOutput(); !strings.Contains(prog[max(0, len(prog)-64):], "\x1b[?1049l") {
			t.Errorf("program did not leave the alternate screen at its end: %q", prog)
		}
	}
	ts.ev.next(t, "alice", "cleanup")
	ts.ev.next(t, "bob", "cleanup")
	if ts.Sessions() != 0 {
		t.Errorf("Sessions() = %d after shutdown", ts.Sessions())
	}
	if c, err := ts.dial("alice", alice); err == nil {
		c.Close()
		t.Error("server still accepts connections after shutdown")
	}
}

func TestColoursFollowTheClient(t *testing.T) {
	alice := newTestKey(t, "alice")
	ts := startServer(t, []string{alice.line}, Options{})
	for _, c := range []struct {
		name string
		tty  string
		env  []string
		want colorprofile.Profile
		dark bool
	}{
		{"dumb", "dumb", nil, colorprofile.NoTTY, true},
		{"nocolor", "xterm-256color", []string{"NO_COLOR=1"}, colorprofile.NoTTY, true},
		{"colour", "xterm-256color", nil, colorprofile.ANSI256, true},
		{"truecolor", "xterm-256color", []string{"COLORTERM=truecolor"}, colorprofile.TrueColor, true},
		{"light", "xterm-256color", []string{"COLORFGBG=0;15"}, colorprofile.ANSI256, false},
	} {
		ts.openTerm(t, c.name, alice, c.tty, c.env...)
		s := ts.ev.next(t, c.name, "start").s
		if s.Dark != c.dark { // the guess until the terminal answers: no query waited for
			t.Errorf("%s: dark %v, want %v", c.name, s.Dark, c.dark)
		}
		if s.Colors != c.want {
			t.Errorf("%s: profile %v, want %v", c.name, s.Colors, c.want)
		}
		if s.Width != 80 || s.Height != 24 {
			t.Errorf("%s: session %dx%d", c.name, s.Width, s.Height)
		}
	}
}
