package serve

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/kit/nonroot"
	"treasury/process"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/sshserve/sshservetest"
)

// served is a `treasury serve` run by a test, as main runs it.
type served struct {
	e             *process.Env
	out           *screen
	ssh, monitor  string // the addresses it printed
	stop          func()
	done          chan struct{} // closed when it returned, with code
	code          int
	stateDir, log string
}

// runServe runs the serve command with args (and --listen and
// --metrics-listen on free loopback ports) in env e, its stdout to a
// screen of its own, until the test ends, and waits until it printed
// where it serves.
func runServe(t *testing.T, e *process.Env, args ...string) *served {
	t.Helper()
	out := &screen{}
	e.Stdout = out
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{e: e, out: out, done: make(chan struct{}), stop: cancel,
		stateDir: filepath.Join(e.Getenv("XDG_STATE_HOME"), "treasury")}
	s.log = filepath.Join(s.stateDir, "sessions.log")
	args = append([]string{"--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--stats-every", "0"}, args...)
	go func() {
		s.code = clitest.Run(ctx, Command, e, args...)
		close(s.done)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			t.Error("treasury serve did not stop")
		}
	})
	ssh := regexp.MustCompile(`over SSH on (\S+);`)
	mon := regexp.MustCompile(`metrics on http://(\S+)/metrics`)
	deadline := time.Now().Add(30 * time.Second) // a hang guard
	for {
		out.mu.Lock()
		text := out.buf.String()
		out.mu.Unlock()
		if m := ssh.FindStringSubmatch(text); m != nil {
			s.ssh = m[1]
			s.monitor = "http://" + mon.FindStringSubmatch(text)[1]
			return s
		}
		select {
		case <-s.done:
			t.Fatalf("treasury serve exited %d: %s", s.code, text)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			var errs string
			if b, ok := e.Stderr.(interface{ String() string }); ok {
				errs = b.String()
			}
			t.Fatalf("treasury serve did not start: %s\nstderr: %s", text, errs)
		}
	}
}

// get answers a GET of the monitor: its status and body.
func (s *served) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(s.monitor + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// waitGet waits until GET path answers status with a body holding want.
func (s *served) waitGet(t *testing.T, path string, status int, want string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, body := s.get(t, path)
		if code == status && strings.Contains(body, want) {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %d %q, want %d with %q", path, code, body, status, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// logHas waits until sessions.log holds want.
func (s *served) logHas(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(s.log)
		if strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("sessions.log lacks %q:\n%s", want, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// slowSandbox is a sandbox whose every answer takes d, until the test
// clears its faults: the server's first data comes that late.
func slowSandbox(t *testing.T, d time.Duration) (*sandbox.Server, string) {
	t.Helper()
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	if err := srv.SetFaults(sandbox.FaultSettings{Latency: sandbox.Duration(d)}); err != nil {
		t.Fatal(err)
	}
	return srv, profiletest.Write(t, srv, clitest.FreeAddr(t), nil)
}

// /readyz answers 503 with its reason before the first data, 200 once
// every interface answered; 503 again while the record cannot be written
// (the state directory made read-only under it), 200 once it can.
// /healthz answers 200 throughout.
func TestReadyzSaysWhyNot(t *testing.T) {
	if nonroot.Run(t) {
		return
	}
	srv, profile := slowSandbox(t, 1500*time.Millisecond)
	_, pub := newSigner(t)
	keys := filepath.Join(t.TempDir(), "authorized_keys")
	if err := os.WriteFile(keys, ssh.MarshalAuthorizedKey(pub), 0o600); err != nil {
		t.Fatal(err)
	}
	e, _ := clitest.Env(t, io.Discard)
	s := runServe(t, e, "--config", profile, "--authorized-keys", keys)
	code, body := s.get(t, "/readyz")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "not ready: no data yet from liquidity, payments") {
		t.Errorf("before the first data: %d %q", code, body)
	}
	if code, body := s.get(t, "/healthz"); code != http.StatusOK || body != "ok\n" {
		t.Errorf("healthz: %d %q", code, body)
	}
	if err := srv.SetFaults(sandbox.FaultSettings{}); err != nil {
		t.Fatal(err)
	}
	s.waitGet(t, "/readyz", http.StatusOK, "ready\n")

	if err := os.Chmod(s.stateDir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(s.stateDir, 0o700) })
	s.waitGet(t, "/readyz", http.StatusServiceUnavailable, "not ready: the record cannot be written: ")
	if code, _ := s.get(t, "/healthz"); code != http.StatusOK {
		t.Errorf("healthz with the record unwritable: %d", code)
	}
	os.Chmod(s.stateDir, 0o700)
	s.waitGet(t, "/readyz", http.StatusOK, "ready\n")
}

// notifySocket is a fake systemd: the datagrams a service sends to
// NOTIFY_SOCKET, in order.
type notifySocket struct {
	path string
	conn *net.UnixConn
	mu   sync.Mutex
	got  []string
}

func newNotifySocket(t *testing.T) *notifySocket {
	t.Helper()
	n := &notifySocket{path: filepath.Join(t.TempDir(), "notify")}
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: n.path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	n.conn = c
	t.Cleanup(func() { c.Close() })
	go func() {
		b := make([]byte, 4096)
		for {
			k, err := c.Read(b)
			if err != nil {
				return
			}
			n.mu.Lock()
			n.got = append(n.got, string(b[:k]))
			n.mu.Unlock()
		}
	}()
	return n
}

// wait waits for a datagram after the from'th holding want; it returns
// its index.
func (n *notifySocket) wait(t *testing.T, from int, want string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		n.mu.Lock()
		for i := from; i < len(n.got); i++ {
			if strings.Contains(n.got[i], want) {
				n.mu.Unlock()
				return i
			}
		}
		got := append([]string(nil), n.got...)
		n.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("systemd never told %q; told %q", want, got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (n *notifySocket) count(want string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, g := range n.got {
		if strings.Contains(g, want) {
			c++
		}
	}
	return c
}

// Under systemd (a fake NOTIFY_SOCKET and WATCHDOG_USEC), with operators
// let in by certificates: READY=1 comes once the SSH server listens and
// has data (STATUS= says what it waits for before), WATCHDOG=1 as often
// as asked; SIGHUP with a changed roles file gives a new session of the
// same certificate its new role (RELOADING=1, then READY=1, and the log
// says what it read), while the open session keeps running; the stop is
// STOPPING=1.
func TestServeUnderSystemd(t *testing.T) {
	srv, profile := slowSandbox(t, time.Second)
	ca := sshservetest.NewCA(t)
	cas, roles := filepath.Join(ca.Dir, "trusted_ca"), filepath.Join(ca.Dir, "roles")
	for f, body := range map[string]string{cas: sshservetest.PublicLine(t, ca.Key), roles: "treasury-ops viewer\n"} {
		if err := os.WriteFile(f, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ben := ca.Sign(t, sshservetest.Cert{KeyID: "ben@corp", Principals: "treasury-ops", Serial: "4711"})
	notify := newNotifySocket(t)
	e, _ := clitest.Env(t, io.Discard)
	getenv := e.Getenv
	e.Getenv = func(k string) string {
		switch k {
		case "NOTIFY_SOCKET":
			return notify.path
		case "WATCHDOG_USEC":
			return "200000"
		}
		return getenv(k)
	}
	s := runServe(t, e, "--config", profile, "--trusted-user-ca-keys", cas, "--roles", roles)

	waiting := notify.wait(t, 0, "STATUS=listening on "+s.ssh+"; waiting for the first data from liquidity, payments")
	ready := notify.wait(t, waiting, "READY=1")
	if code, body := s.get(t, "/readyz"); code != http.StatusOK {
		t.Errorf("READY=1 sent while /readyz says %d %q", code, body)
	}
	if c, err := net.Dial("tcp", s.ssh); err != nil {
		t.Errorf("READY=1 sent before the SSH server listens: %v", err)
	} else {
		c.Close()
	}
	if err := srv.SetFaults(sandbox.FaultSettings{}); err != nil {
		t.Fatal(err)
	}
	w := notify.wait(t, ready, "WATCHDOG=1")
	notify.wait(t, w+1, "WATCHDOG=1")

	dial := func() *terminal {
		client, err := ssh.Dial("tcp", s.ssh, &ssh.ClientConfig{User: "ben", Auth: []ssh.AuthMethod{ssh.PublicKeys(ben)},
			HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { client.Close() })
		return openTerminal(t, client)
	}
	first := dial()
	first.shows(t, "READ-ONLY")
	s.logHas(t, `"msg":"ssh session start","user":"ben"`)
	s.logHas(t, `"role":"viewer","cert_key_id":"ben@corp","cert_serial":4711,"cert_principal":"treasury-ops"`)

	if err := os.WriteFile(roles, []byte("treasury-ops operator\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	notify.mu.Lock()
	mark := len(notify.got)
	notify.mu.Unlock()
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	rl := notify.wait(t, mark, "RELOADING=1")
	notify.wait(t, rl, "READY=1")
	s.logHas(t, `"msg":"access files reloaded","authorized_keys":0,"ca_keys":1,"principals":1,"revocations":0`)
	second := dial()
	second.shows(t, "BTC/USD")
	if strings.Contains(second.scr.String(), "READ-ONLY") {
		t.Errorf("after the reload, a new session is still read-only:\n%s", second.scr.String())
	}
	// The first session runs on, with the role it had.
	first.keys(t, "?")
	first.shows(t, "Everywhere")
	if b, _ := os.ReadFile(s.log); strings.Contains(string(b), `"msg":"ssh session end"`) {
		t.Errorf("a session ended at the reload:\n%s", b)
	}
	s.stop()
	<-s.done
	if s.code != 0 {
		t.Errorf("treasury serve exited %d", s.code)
	}
	notify.wait(t, 0, "STOPPING=1")
	if n := notify.count("WATCHDOG=1"); n < 2 {
		t.Errorf("%d WATCHDOG=1, want them every 100 ms", n)
	}
}
