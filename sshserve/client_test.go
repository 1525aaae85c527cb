package sshserve

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/ui/uitest"

	gossh "golang.org/x/crypto/ssh"
)

// dial connects as user with key, checking the server's host key.
func (ts *testServer) dial(user string, k testKey) (*gossh.Client, error) {
	return gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{
		User:            user,
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(k.signer)},
		HostKeyCallback: gossh.FixedHostKey(ts.hostKey),
		Timeout:         waitLimit,
	})
}

// term is a client session with a PTY whose output is collected.
type term struct {
	client *gossh.Client
	sess   *gossh.Session
	stdin  io.WriteCloser

	mu  sync.Mutex
	out bytes.Buffer
	// stdout is what came on the session's standard output alone: the
	// client copies stdout and stderr on two goroutines, so their order in
	// out is not the order they were sent in.
	stdout  bytes.Buffer
	changed chan struct{}
	// scr is the screen the output draws (the PTY's 80x24): bubbletea
	// writes only the cells that change, so text shown need not be in
	// the output in one piece.
	scr *uitest.Scr
}

// openTerm dials and starts a shell session with a PTY of term type tty
// (80x24) and the environment env.
func (ts *testServer) openTerm(tb testing.TB, user string, k testKey, tty string, env ...string) *term {
	tb.Helper()
	c, err := ts.dial(user, k)
	if err != nil {
		tb.Fatalf("dial as %s: %v", user, err)
	}
	tb.Cleanup(func() { c.Close() })
	return openOn(tb, c, tty, env...)
}

func openOn(tb testing.TB, c *gossh.Client, tty string, env ...string) *term {
	tb.Helper()
	sess, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if err := sess.Setenv(name, value); err != nil {
			tb.Fatalf("setenv %s: %v", name, err)
		}
	}
	if err := sess.RequestPty(tty, 24, 80, gossh.TerminalModes{}); err != nil {
		tb.Fatal(err)
	}
	t := &term{client: c, sess: sess, changed: make(chan struct{}, 1), scr: uitest.NewScreen(80, 24)}
	sess.Stdout = writerFunc(func(p []byte) (int, error) {
		t.mu.Lock()
		t.stdout.Write(p)
		t.mu.Unlock()
		return t.write(p)
	})
	sess.Stderr = writerFunc(t.write)
	if t.stdin, err = sess.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		tb.Fatal(err)
	}
	return t
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func (t *term) write(p []byte) (int, error) {
	t.mu.Lock()
	t.out.Write(p)
	t.mu.Unlock()
	t.scr.Write(p)
	select {
	case t.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// programOutput is what came on standard output (the program's frames).
func (t *term) programOutput() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stdout.String()
}

func (t *term) output() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String()
}

// waitFor waits until the screen shows s, or the output holds it (a
// message written after the program left its screen).
func (t *term) waitFor(tb testing.TB, s string) {
	tb.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	for !strings.Contains(t.scr.String(), s) && !strings.Contains(t.output(), s) {
		select {
		case <-t.changed:
		case <-timer.C:
			tb.Fatalf("output never showed %q; the screen is:\n%s\noutput %q", s, t.scr.String(), t.output())
		}
	}
}

// wait waits for the session to end and returns its error (an
// *gossh.ExitError for a non-zero exit status).
func (t *term) wait(tb testing.TB) error {
	tb.Helper()
	done := make(chan error, 1)
	go func() { done <- t.sess.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(waitLimit):
		tb.Fatalf("session did not end; output %q", t.output())
	}
	return nil
}
