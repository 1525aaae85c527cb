package sshserve

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"treasury/kit/ratelog"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// gate holds the limits OpenSSH puts on connections that have not
// authenticated yet, without which anyone who reaches the port can hold
// file descriptors until the idle timeout: LoginGraceTime (a connection
// that has not authenticated within the grace period is closed, whether
// it is silent or slow), MaxStartups start:rate:full (past start waiting
// connections a new one is refused at random, with a chance growing to
// certainty at full, so that silent clients slow logins down rather than
// lock operators out) and PerSourceMaxStartups (at most so many of them
// from one address, so that one source cannot take every slot). A
// connection refused is closed at once, before the SSH handshake.
//
// Every refusal is logged at Info: a connection refused, a grace period
// that ran out, a failed handshake, a refused key or authentication
// method, with the user and key fingerprint when the client sent them.
// The lines are rate-limited per event and source address (one per
// interval, then a line that counts those not logged), so that a client
// connecting and closing as fast as it can cannot fill the disk.
type gate struct {
	grace     time.Duration
	startups  Startups
	perSource int
	log       *slog.Logger
	// roll draws the random early drop: a number in [0, 100).
	roll  func() int
	limit *ratelog.Limiter
	stop  chan struct{}

	mu      sync.Mutex
	pending map[string]*pendingConn // by remote address
	sources map[string]int          // pending connections per source address
	closed  bool
}

// pendingConn is a connection that has not authenticated yet.
type pendingConn struct {
	remote, source string
	conn           net.Conn
	timer          *time.Timer
	started        time.Time
	// user and fingerprint are what the client offered last, if
	// anything; cert names it when it was a certificate, and reason says
	// why it was refused.
	user, fingerprint, reason string
	cert                      []any
}

// newGate is the gate of o's limits (defaults applied), logging to log.
func newGate(o Options, log *slog.Logger) *gate {
	roll := o.roll
	if roll == nil {
		roll = func() int { return rand.IntN(100) }
	}
	return &gate{grace: o.LoginGrace, startups: o.MaxStartups, perSource: o.MaxPerSource, log: log, roll: roll,
		limit: ratelog.New(o.RefusalLogEvery, o.clock), stop: make(chan struct{}),
		pending: map[string]*pendingConn{}, sources: map[string]int{}}
}

// note logs a refusal at Info unless one of the same event (msg, and
// kind for a connection refused) from the same source was logged within
// the interval; the line then says how many were not logged since the
// last.
func (g *gate) note(msg, source, kind string, attrs ...any) {
	ok, n := g.limit.Allow(msg + "\x00" + source + "\x00" + kind)
	if !ok {
		return
	}
	if n > 0 {
		attrs = append(attrs, "not_logged_since_last", n)
	}
	g.log.Info(msg, attrs...)
}

// flushLoop sums up, every interval, the refusals of each event and
// source that were not logged and then fell quiet, until close.
func (g *gate) flushLoop() {
	t := time.NewTicker(g.limit.Every())
	defer t.Stop()
	for {
		select {
		case <-g.stop:
			g.flush()
			return
		case <-t.C:
			g.flush()
		}
	}
}

func (g *gate) flush() {
	for _, q := range g.limit.Flush() {
		msg, rest, _ := strings.Cut(q.Key, "\x00")
		source, kind, _ := strings.Cut(rest, "\x00")
		attrs := []any{"source", source}
		if kind != "" {
			attrs = append(attrs, "kind", kind)
		}
		g.log.Info(msg, append(attrs, "not_logged_since_last", q.Count, "since_s", seconds(q.Over))...)
	}
}

// sourceOf is the address part of a remote address.
func sourceOf(remote string) string {
	if host, _, err := net.SplitHostPort(remote); err == nil {
		return host
	}
	return remote
}

// admit is the server's ConnCallback: a new connection is admitted, and
// its grace period starts, unless a cap is reached; nil closes it at once.
func (g *gate) admit(_ ssh.Context, c net.Conn) net.Conn {
	remote := c.RemoteAddr().String()
	source := sourceOf(remote)
	g.mu.Lock()
	var refusal, kind string
	waiting := len(g.pending)
	switch chance := g.startups.dropChance(waiting); {
	case g.closed:
		refusal, kind = "the server is shutting down", "shutdown"
	case g.sources[source] >= g.perSource:
		refusal, kind = fmt.Sprintf("%d connections from %s are already waiting to authenticate (--max-per-source)", g.sources[source], source), "per-source"
	case chance >= 100:
		refusal, kind = fmt.Sprintf("%d connections are already waiting to authenticate (--max-startups %s)", waiting, g.startups), "full"
	case chance > 0 && g.roll() < chance:
		refusal, kind = fmt.Sprintf("%d connections are waiting to authenticate: dropped at random, chance %d%% (--max-startups %s)",
			waiting, chance, g.startups), "early-drop"
	}
	if refusal != "" {
		g.mu.Unlock()
		g.note("ssh connection refused", source, kind, "remote", remote, "kind", kind, "reason", refusal)
		return nil
	}
	p := &pendingConn{remote: remote, source: source, conn: c, started: time.Now()}
	g.pending[remote] = p
	g.sources[source]++
	p.timer = time.AfterFunc(g.grace, func() { g.expire(p) })
	g.mu.Unlock()
	return c
}

// take removes p from the pending connections; false when it was no
// longer there (authenticated, failed or expired already).
func (g *gate) take(p *pendingConn) bool {
	if g.pending[p.remote] != p {
		return false
	}
	delete(g.pending, p.remote)
	if g.sources[p.source]--; g.sources[p.source] <= 0 {
		delete(g.sources, p.source)
	}
	p.timer.Stop()
	return true
}

// expire closes a connection that did not authenticate within the grace
// period; its handshake then fails, and that failure is not logged again.
func (g *gate) expire(p *pendingConn) {
	g.mu.Lock()
	ok := g.take(p)
	user, fp := p.user, p.fingerprint
	g.mu.Unlock()
	if !ok {
		return
	}
	g.note("ssh login grace time exceeded: connection closed", p.source, "", identityAttrs(user, fp, p.remote, "grace_s", seconds(g.grace))...)
	p.conn.Close()
}

// offered records the user and key a pending connection offered: a
// certificate's key's fingerprint, key id and serial.
func (g *gate) offered(remote, user string, key gossh.PublicKey) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if p := g.pending[remote]; p != nil {
		p.user, p.fingerprint, p.reason, p.cert = user, gossh.FingerprintSHA256(plainKey(key)), "", nil
		if c, ok := key.(*gossh.Certificate); ok {
			p.cert = certAttrs(c.KeyId, c.Serial)
		}
	}
}

// refused records why the key a pending connection offered was refused.
func (g *gate) refused(remote, reason string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if p := g.pending[remote]; p != nil {
		p.reason = reason
	}
}

// certAttrs are the log attributes of a certificate.
func certAttrs(keyID string, serial uint64) []any {
	return []any{"cert_key_id", keyID, "cert_serial", serial}
}

// authLog is gossh's AuthLogCallback: a success ends the connection's
// grace period and frees its slot; a refusal is logged (the "none" probe
// every client sends first is not a refusal worth a line).
func (g *gate) authLog(cm gossh.ConnMetadata, method string, err error) {
	remote := cm.RemoteAddr().String()
	g.mu.Lock()
	p := g.pending[remote]
	if err == nil {
		if p != nil {
			g.take(p)
		}
		g.mu.Unlock()
		return
	}
	fp, reason := "", ""
	var cert []any
	if p != nil && method == "publickey" {
		fp, reason, cert = p.fingerprint, p.reason, p.cert
	}
	g.mu.Unlock()
	switch method {
	case "none":
	case "publickey":
		extra := slices.Concat(cert, []any{"error", err.Error()})
		if reason != "" {
			extra = append(extra, "reason", reason)
		}
		g.note("ssh key refused", sourceOf(remote), "", identityAttrs(cm.User(), fp, remote, extra...)...)
	default:
		g.note("ssh authentication method refused", sourceOf(remote), "", identityAttrs(cm.User(), "", remote, "method", method)...)
	}
}

// failed is the server's ConnectionFailedCallback: the handshake or the
// authentication failed (the client gave up, spoke something else, or was
// refused every key). A connection the grace period closed was logged
// when it was closed.
func (g *gate) failed(c net.Conn, err error) {
	remote := c.RemoteAddr().String()
	g.mu.Lock()
	p := g.pending[remote]
	var user, fp string
	ok := p != nil && g.take(p)
	if ok {
		user, fp = p.user, p.fingerprint
	}
	g.mu.Unlock()
	if !ok {
		return
	}
	g.note("ssh handshake failed", p.source, "", identityAttrs(user, fp, remote, "error", err.Error(), "after_s", seconds(time.Since(p.started)))...)
}

// close refuses new connections and stops the grace timers; the server
// closes the connections.
func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return
	}
	g.closed = true
	close(g.stop)
	for _, p := range g.pending {
		p.timer.Stop()
	}
}

// waiting counts the connections not yet authenticated.
func (g *gate) waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.pending)
}

// identityAttrs are the log attributes of a client: user and key
// fingerprint when known, remote address, then extra.
// seconds is a duration for the log: seconds to the millisecond, as a
// number, under a key that ends in _s ("duration_s":43.71). A
// time.Duration given to slog as it is would be written as nanoseconds
// (43710000000), with nothing to say so.
func seconds(d time.Duration) float64 { return d.Round(time.Millisecond).Seconds() }

func identityAttrs(user, fingerprint, remote string, extra ...any) []any {
	var attrs []any
	if user != "" {
		attrs = append(attrs, "user", user)
	}
	if fingerprint != "" {
		attrs = append(attrs, "fingerprint", fingerprint)
	}
	return append(append(attrs, "remote", remote), extra...)
}
