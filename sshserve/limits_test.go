package sshserve

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// dialFrom dials the server from the loopback address local (127.0.0.2:
// another source than the silent connections' 127.0.0.1).
func (ts *testServer) dialFrom(local string, user string, k testKey) (*gossh.Client, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: waitLimit}
	c, err := d.Dial("tcp", ts.addr)
	if err != nil {
		return nil, err
	}
	cc, chans, reqs, err := gossh.NewClientConn(c, ts.addr, &gossh.ClientConfig{User: user,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(k.signer)}, HostKeyCallback: gossh.FixedHostKey(ts.hostKey), Timeout: waitLimit})
	if err != nil {
		c.Close()
		return nil, err
	}
	return gossh.NewClient(cc, chans, reqs), nil
}

// closedWithin reads c until it ends and reports after how long, and
// whether the server closed it (EOF or reset) rather than limit passing.
func closedWithin(c net.Conn, limit time.Duration) (time.Duration, bool) {
	start := time.Now()
	c.SetReadDeadline(start.Add(limit))
	_, err := io.Copy(io.Discard, c)
	return time.Since(start), !errors.Is(err, os.ErrDeadlineExceeded)
}

// TestSilentConnectionsAreClosed: 200 TCP connections that never start
// the handshake. Those over the caps (3 from one source, 10 in all) are
// closed at once; the others when the login grace period ends. While they
// are open, a real client from another address logs in and gets its
// dashboard. The refusals are logged at Info with the remote address, one
// line per event and source per interval, and the lines account for
// every one.
func TestSilentConnectionsAreClosed(t *testing.T) {
	const grace, silent = 1500 * time.Millisecond, 200
	alice := newTestKey(t, "alice")
	var later atomic.Int64 // moves the refusals' rate limit on
	ts := startServer(t, []string{alice.line}, Options{LoginGrace: grace, MaxStartups: HardCap(10), MaxPerSource: 3,
		clock: func() time.Time { return time.Now().Add(time.Duration(later.Load())) }})
	start := time.Now()
	conns := make([]net.Conn, silent)
	for i := range conns {
		c, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		defer c.Close()
		conns[i] = c
	}
	// A real client, from another source address, while they are open.
	c, err := ts.dialFrom("127.0.0.2", "alice", alice)
	if err != nil {
		t.Fatalf("a real client could not log in beside %d silent connections: %v", silent, err)
	}
	defer c.Close()
	tm := openOn(t, c, "xterm")
	tm.waitFor(t, "hello alice")
	if elapsed := time.Since(start); elapsed >= grace {
		t.Logf("the real client got in after %s, past the grace period (slow machine?)", elapsed)
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	open := 0
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, closed := closedWithin(c, grace+5*time.Second); !closed {
				mu.Lock()
				open++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if open != 0 {
		t.Fatalf("%d silent connections still open %s after the grace period", open, 5*time.Second)
	}
	if elapsed := time.Since(start); elapsed > grace+5*time.Second {
		t.Errorf("the silent connections took %s to close, grace %s", elapsed, grace)
	}
	later.Store(int64(DefaultRefusalLogEvery)) // the interval is longer than the test: sum up now
	ts.gate.flush()
	refused := ts.logs.all("ssh connection refused")
	expired := ts.logs.all("ssh login grace time exceeded: connection closed")
	rl, rn := ts.logs.counted(t, "ssh connection refused")
	el, en := ts.logs.counted(t, "ssh login grace time exceeded: connection closed")
	if rn != silent-3 || en != 3 || rl > 2 || el > 2 {
		t.Errorf("%d refused at once (%d lines) and %d closed at the grace period (%d lines), want %d and 3 in at most 2 lines each",
			rn, rl, en, el, silent-3)
	}
	for _, r := range append(refused[:1], expired[0]) {
		if r["level"] != "INFO" || !strings.HasPrefix(r["remote"], "127.0.0.1:") {
			t.Errorf("logged %v", r)
		}
	}
	for _, rec := range ts.logs.json(t, "ssh login grace time exceeded: connection closed") {
		if rec["since_s"] != nil {
			continue // a summary
		}
		if d := logSeconds(t, rec, "grace_s", 0, 10); d != grace.Seconds() {
			t.Errorf("grace_s %v, want %v", d, grace.Seconds())
		}
	}
	if !strings.Contains(refused[0]["reason"], "--max-per-source") {
		t.Errorf("refusal reason %q", refused[0]["reason"])
	}
	if n := ts.Waiting(); n != 0 {
		t.Errorf("%d connections still counted as waiting", n)
	}
	// The real client's session was unaffected.
	if _, err := tm.stdin.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if err := tm.wait(t); err != nil {
		t.Errorf("the real session: %v", err)
	}
}

// TestMaxStartupsClosesAtOnce: past the global cap, connections are closed
// before the handshake, long before the grace period.
func TestMaxStartupsClosesAtOnce(t *testing.T) {
	alice := newTestKey(t, "alice")
	ts := startServer(t, []string{alice.line}, Options{LoginGrace: time.Minute, MaxStartups: HardCap(4), MaxPerSource: 100})
	var kept []net.Conn
	for range 4 {
		c, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		kept = append(kept, c)
	}
	// The server sends its version once a connection is admitted: read it
	// so that the four are known to be admitted before the fifth.
	for _, c := range kept {
		c.SetReadDeadline(time.Now().Add(waitLimit))
		if _, err := c.Read(make([]byte, 64)); err != nil {
			t.Fatalf("an admitted connection: %v", err)
		}
	}
	over, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer over.Close()
	if took, closed := closedWithin(over, 5*time.Second); !closed {
		t.Fatalf("the fifth connection was not closed (after %s)", took)
	}
	if r := ts.logs.next(t, "ssh connection refused"); !strings.Contains(r["reason"], "4 connections are already waiting to authenticate (--max-startups 4)") {
		t.Errorf("refusal %v", r)
	}
	if n := ts.Waiting(); n != 4 {
		t.Errorf("Waiting() = %d, want 4", n)
	}
	// An authenticated connection frees its slot: close one silent
	// connection, log in, and the slot is free again.
	kept[0].Close()
	deadline := time.Now().Add(waitLimit)
	for ts.Waiting() != 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	c, err := ts.dial("alice", alice)
	if err != nil {
		t.Fatalf("login with a free slot: %v", err)
	}
	defer c.Close()
	if n := ts.Waiting(); n != 3 {
		t.Errorf("after a login Waiting() = %d, want 3", n)
	}
}

// TestFailedLoginsAreLoggedAtInfo: a refused key, a failed handshake and a
// session without a terminal each leave an Info line with the user and key
// fingerprint when known and the remote address. (A password attempt is
// logged too, but SSH clients, this one included, only try the methods
// the server offers: public keys.)
func TestFailedLoginsAreLoggedAtInfo(t *testing.T) {
	alice, mallory := newTestKey(t, "alice"), newTestKey(t, "mallory")
	ts := startServer(t, []string{alice.line}, Options{RefusalLogEvery: time.Nanosecond}) // every line, not one per 10 s

	if c, err := ts.dial("mallory", mallory); err == nil {
		c.Close()
		t.Fatal("a key not in the file was accepted")
	}
	r := ts.logs.next(t, "ssh key refused")
	if r["user"] != "mallory" || r["fingerprint"] != mallory.fingerprint() || !strings.HasPrefix(r["remote"], "127.0.0.1:") {
		t.Errorf("refused key logged %v", r)
	}
	if r := ts.logs.next(t, "ssh handshake failed"); r["user"] != "mallory" || r["fingerprint"] != mallory.fingerprint() {
		t.Errorf("the refused client's end logged %v", r)
	}

	raw, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	raw.Write([]byte("GET / HTTP/1.1\r\n\r\n")) // not SSH, then gone
	raw.Close()
	if r := ts.logs.next(t, "ssh handshake failed"); !strings.HasPrefix(r["remote"], "127.0.0.1:") || r["error"] == "" || r["user"] != "" {
		t.Errorf("a non-SSH client logged %v", r)
	}
	for _, rec := range ts.logs.json(t, "ssh handshake failed") {
		logSeconds(t, rec, "after_s", 0, 60)
	}

	c, err := ts.dial("alice", alice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := sess.CombinedOutput("") // ssh -T: no PTY
	if !strings.Contains(string(out), "needs a terminal") {
		t.Errorf("a session without a terminal was told %q", out)
	}
	r = ts.logs.next(t, "ssh session refused: no terminal")
	if r["user"] != "alice" || r["fingerprint"] != alice.fingerprint() || r["remote"] == "" {
		t.Errorf("no-PTY session logged %v", r)
	}
	for _, msg := range []string{"ssh key refused", "ssh handshake failed", "ssh authentication method refused", "ssh session refused: no terminal"} {
		for _, r := range ts.logs.all(msg) {
			if r["level"] != "INFO" {
				t.Errorf("%q logged at %s", msg, r["level"])
			}
		}
	}
}

// TestConnectAndCloseFloodIsRateLimited: one client that connects and
// closes as fast as it can writes a few lines, not one per connection:
// each event of a source is logged once per interval, and the lines
// count every connection.
func TestConnectAndCloseFloodIsRateLimited(t *testing.T) {
	alice := newTestKey(t, "alice")
	var later atomic.Int64 // moves the limiter's clock on
	ts := startServer(t, []string{alice.line}, Options{RefusalLogEvery: 10 * time.Second,
		clock: func() time.Time { return time.Now().Add(time.Duration(later.Load())) }})
	const n = 300
	for range n {
		c, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	// Every connection ended, each with its event (a failed handshake,
	// or a refusal over the per-source cap).
	deadline := time.Now().Add(waitLimit)
	for ts.gate.limit.Events() < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	ts.gate.flush() // nothing is an interval old: nothing to sum up yet
	lines, events := 0, 0
	for _, msg := range []string{"ssh handshake failed", "ssh connection refused"} {
		l, e := ts.logs.counted(t, msg)
		lines, events = lines+l, events+e
	}
	if lines > 2 || lines == 0 {
		t.Errorf("%d lines for %d connections, want 1 or 2", lines, n)
	}
	for _, r := range ts.logs.all("ssh handshake failed") {
		if r["level"] != "INFO" || !strings.HasPrefix(r["remote"], "127.0.0.1:") {
			t.Errorf("logged %v", r)
		}
	}
	// Once the interval is over, the flush line counts the rest.
	later.Store(int64(10 * time.Second))
	ts.gate.flush()
	lines, events = 0, 0
	for _, msg := range []string{"ssh handshake failed", "ssh connection refused"} {
		l, e := ts.logs.counted(t, msg)
		lines, events = lines+l, events+e
	}
	if events != n || lines > 4 {
		t.Errorf("the log accounts for %d of %d connections in %d lines", events, n, lines)
	}
}

// TestRandomEarlyDrop: past start, new connections are dropped at random
// with OpenSSH's chance (rate at start, growing to 100% at full); with
// ten silent connections held from ten addresses a real login gets in
// within three tries.
func TestRandomEarlyDrop(t *testing.T) {
	st := Startups{Start: 10, Rate: 30, Full: 100}
	for waiting, want := range map[int]int{0: 0, 9: 0, 10: 30, 55: 65, 99: 99, 100: 100, 150: 100} {
		if got := st.dropChance(waiting); got != want {
			t.Errorf("dropChance(%d) = %d, want %d", waiting, got, want)
		}
	}
	if HardCap(4).dropChance(3) != 0 || HardCap(4).dropChance(4) != 100 {
		t.Error("a hard cap is not one")
	}

	alice := newTestKey(t, "alice")
	// The rolls of the test: a drop on the first try (20 < 30), none on
	// the second (40 ≥ 30).
	rolls := make(chan int, 8)
	rolls <- 20
	rolls <- 40
	ts := startServer(t, []string{alice.line}, Options{LoginGrace: time.Minute, MaxStartups: st,
		roll: func() int {
			select {
			case r := <-rolls:
				return r
			default:
				return 99
			}
		}})
	for i := range 10 {
		local := fmt.Sprintf("127.0.0.%d", 10+i)
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
		c, err := d.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(waitLimit))
		if _, err := c.Read(make([]byte, 64)); err != nil {
			t.Fatalf("silent connection %d not admitted: %v", i, err)
		}
	}
	if n := ts.Waiting(); n != 10 {
		t.Fatalf("Waiting() = %d, want 10", n)
	}
	if c, err := ts.dialFrom("127.0.0.2", "alice", alice); err == nil {
		c.Close()
		t.Fatal("the first try got in: the roll of 20 is under the 30% chance")
	}
	if r := ts.logs.next(t, "ssh connection refused"); !strings.Contains(r["reason"], "dropped at random, chance 30% (--max-startups 10:30:100)") ||
		r["level"] != "" && r["level"] != "INFO" {
		t.Errorf("refusal %v", r)
	}
	c, err := ts.dialFrom("127.0.0.2", "alice", alice)
	if err != nil {
		t.Fatalf("the second try: %v", err)
	}
	c.Close()
}

// TestParseStartups reads sshd_config's forms.
func TestParseStartups(t *testing.T) {
	for in, want := range map[string]Startups{"10:30:100": {10, 30, 100}, "10": HardCap(10), " 5:50:20 ": {5, 50, 20}} {
		got, err := ParseStartups(in)
		if err != nil || got != want {
			t.Errorf("ParseStartups(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "a", "10:30", "10:0:100", "10:30:5", "0", "1:2:3:4", "10:101:100"} {
		if _, err := ParseStartups(in); err == nil {
			t.Errorf("ParseStartups(%q) took it", in)
		}
	}
	if s := (Startups{10, 30, 100}).String(); s != "10:30:100" {
		t.Errorf("String %q", s)
	}
}
