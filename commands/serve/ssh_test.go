package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/crypto/ssh"

	"treasury/commands/cli/clitest"
	"treasury/commands/dashboard"
	"treasury/config"
	"treasury/process"
	"treasury/sshserve"
)

// sshFixture serves the dashboard of one embedded-sandbox runtime over SSH
// on loopback, for the keys it wrote into its authorized keys file.
type sshFixture struct {
	rt       *process.Runtime
	addr     string
	operator ssh.Signer
	viewer   ssh.Signer
	stranger ssh.Signer
	// freed receives once per session model the garbage collector freed.
	freed chan struct{}
}

func newSigner(tb testing.TB) (ssh.Signer, ssh.PublicKey) {
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		tb.Fatal(err)
	}
	return s, s.PublicKey()
}

func startSSH(tb testing.TB) *sshFixture {
	tb.Helper()
	e, _ := clitest.Env(tb, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	rt, err := process.Open(ctx, e, config.Builtin())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(rt.Close)
	f := &sshFixture{rt: rt, freed: make(chan struct{}, 64)}
	var opPub, viewPub ssh.PublicKey
	f.operator, opPub = newSigner(tb)
	f.viewer, viewPub = newSigner(tb)
	f.stranger, _ = newSigner(tb)
	dir := tb.TempDir()
	keys := filepath.Join(dir, "authorized_keys")
	body := `role="operator" ` + string(ssh.MarshalAuthorizedKey(opPub)) + string(ssh.MarshalAuthorizedKey(viewPub))
	if err := os.WriteFile(keys, []byte(body), 0o600); err != nil {
		tb.Fatal(err)
	}
	rt.Metrics.Roles(string(sshserve.RoleViewer), string(sshserve.RoleOperator))
	srv, err := sshserve.New(sshserve.Options{HostKeyFile: filepath.Join(dir, "host_key"), AuthorizedKeysFile: keys, MaxSessions: 30,
		OnSession: func(r sshserve.Role) func() { return rt.Metrics.Session(string(r)) },
		NewModel: func(_ context.Context, s sshserve.Session) (tea.Model, func(), error) {
			app := dashboard.NewApp(rt, sshSession(rt.StateDir, s))
			freed := f.freed
			goruntime.AddCleanup(app, func(struct{}) { freed <- struct{}{} }, struct{}{})
			return app, app.Close, nil
		}})
	if err != nil {
		tb.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	f.addr = ln.Addr().String()
	done := make(chan struct{})
	go func() { srv.Serve(ctx, ln); close(done) }()
	tb.Cleanup(func() { cancel(); <-done })
	return f
}

// screen is an SSH session's output, safe to read while it grows.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) contains(want string) bool { return s.containsAfter(0, want) }

// containsAfter looks only at what was drawn after mark (a length).
func (s *screen) containsAfter(mark int, want string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Contains(s.buf.Bytes()[mark:], []byte(want))
}

// mark is how much has been drawn so far.
func (s *screen) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Len()
}

func (f *sshFixture) connect(tb testing.TB, signer ssh.Signer) (*ssh.Session, *screen, io.WriteCloser, error) {
	client, err := ssh.Dial("tcp", f.addr, &ssh.ClientConfig{User: "alice", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
		HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		return nil, nil, nil, err
	}
	tb.Cleanup(func() { client.Close() })
	sess, err := client.NewSession()
	if err != nil {
		return nil, nil, nil, err
	}
	out := &screen{}
	sess.Stdout = out
	in, err := sess.StdinPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := sess.RequestPty("xterm-256color", 40, 120, ssh.TerminalModes{}); err != nil {
		return nil, nil, nil, err
	}
	if err := sess.Shell(); err != nil {
		return nil, nil, nil, err
	}
	return sess, out, in, nil
}

// waitScreen waits for text on a session's screen; the deadline only
// catches a hang.
func waitScreen(tb testing.TB, s *screen, want string) { tb.Helper(); waitScreenAfter(tb, s, 0, want) }

// waitScreenAfter waits for text drawn after mark.
func waitScreenAfter(tb testing.TB, s *screen, mark int, want string) {
	tb.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !s.containsAfter(mark, want) {
		if time.Now().After(deadline) {
			s.mu.Lock()
			b := s.buf.Bytes()
			tail := string(b[max(0, len(b)-1500):])
			s.mu.Unlock()
			tb.Fatalf("%q never shown over SSH; last output: %q", want, tail)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestServeDashboardOverSSH(t *testing.T) {
	f := startSSH(t)
	_, viewer, vin, err := f.connect(t, f.viewer)
	if err != nil {
		t.Fatal(err)
	}
	_, operator, _, err := f.connect(t, f.operator)
	if err != nil {
		t.Fatal(err)
	}
	waitScreen(t, viewer, "READ-ONLY")
	waitScreen(t, viewer, "BTC/USD")
	waitScreen(t, operator, "BTC/USD")
	if operator.contains("READ-ONLY") {
		t.Fatal("an operator key got a read-only session")
	}
	// The viewer reaches the audit view; it holds nothing they did.
	fmt.Fprint(vin, "?")
	waitScreen(t, viewer, "Everywhere")
	// The palette to the audit view, which holds nothing this viewer did.
	// Each step waits for the screen, so keys never share a read with the
	// key that opens the palette.
	m := viewer.mark()
	fmt.Fprint(vin, "?") // closes the help (a lone ESC then ":" could read as alt+:)
	waitScreenAfter(t, viewer, m, "BTC/USD")
	m = viewer.mark()
	fmt.Fprint(vin, ":")
	waitScreenAfter(t, viewer, m, "identities") // the palette lists the commands
	m = viewer.mark()
	fmt.Fprint(vin, "audit")
	waitScreenAfter(t, viewer, m, "audit")
	m = viewer.mark()
	fmt.Fprint(vin, "\r")
	waitScreenAfter(t, viewer, m, "no action attempted yet")

	if _, _, _, err := f.connect(t, f.stranger); err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("a key not in the file: err = %v, want refused", err)
	}
}

// BenchmarkSSHSessionsRequestRate reports the platform requests per
// second with 1 and with 20 sessions on the dashboard: one store polls for
// all of them, so the rates should match.
func BenchmarkSSHSessionsRequestRate(b *testing.B) {
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			f := startSSH(b)
			for range n {
				_, out, _, err := f.connect(b, f.viewer)
				if err != nil {
					b.Fatal(err)
				}
				waitScreen(b, out, "BTC/USD")
			}
			const window = 20 * time.Second
			b.ResetTimer()
			for b.Loop() {
				before := f.rt.Requests.Load()
				time.Sleep(window)
				b.ReportMetric(float64(f.rt.Requests.Load()-before)/window.Seconds(), "req/s")
			}
		})
	}
}

// BenchmarkSSHSessionMemory reports the heap each added dashboard session
// costs the server (its shell, views and subscription; the store is
// shared), measured over ten sessions showing live quotes.
func BenchmarkSSHSessionMemory(b *testing.B) {
	for b.Loop() {
		f := startSSH(b)
		_, out, _, err := f.connect(b, f.viewer)
		if err != nil {
			b.Fatal(err)
		}
		waitScreen(b, out, "BTC/USD")
		before := heapInUse()
		const n = 10
		for range n {
			_, out, _, err := f.connect(b, f.viewer)
			if err != nil {
				b.Fatal(err)
			}
			waitScreen(b, out, "BTC/USD")
		}
		b.ReportMetric(float64(heapInUse()-before)/n, "B/session")
	}
}

func heapInUse() int64 {
	var m goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&m)
	return int64(m.HeapInuse) + int64(m.StackInuse)
}

// TestClosedSessionIsFreed: once an SSH session that walked every view
// has closed, nothing the process keeps holds its model: its views, their
// rows and its renderer's buffers are freed, and what it asked the store
// to build is paused when nobody else uses it.
// TestClosedSessionIsFreed: once an SSH session that walked every view
// has ended, nothing the process keeps holds its model (its views, their
// rows, its renderer's buffers): whether its connection closed, or only
// the session's channel on a connection that stays open (OpenSSH's
// ControlMaster shares one connection between sessions).
func TestClosedSessionIsFreed(t *testing.T) {
	f := startSSH(t)
	for _, c := range []struct {
		name  string
		whole bool
		keys  []string
	}{
		{"connection closed", true, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "4", "s", "/", "FAIL", "\r"}},
		{"channel closed", false, []string{"4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			client, err := ssh.Dial("tcp", f.addr, &ssh.ClientConfig{User: "alice", Auth: []ssh.AuthMethod{ssh.PublicKeys(f.operator)},
				HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			sess, err := client.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			out := &screen{}
			sess.Stdout = out
			in, err := sess.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := sess.RequestPty("xterm-256color", 40, 120, ssh.TerminalModes{}); err != nil {
				t.Fatal(err)
			}
			if err := sess.Shell(); err != nil {
				t.Fatal(err)
			}
			waitScreen(t, out, "BTC/USD")
			for _, k := range c.keys {
				fmt.Fprint(in, k)
				time.Sleep(200 * time.Millisecond)
			}
			if c.whole {
				client.Close() // as a user's ssh ends
			} else {
				sess.Close()
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				goruntime.GC()
				select {
				case <-f.freed:
					return
				default:
				}
				if time.Now().After(deadline) {
					t.Fatal("the model of an ended SSH session is still held 20 s after it ended")
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}
