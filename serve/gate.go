package serve

import (
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// gate holds the limits OpenSSH puts on connections that have not
// authenticated yet, without which anyone who reaches the port can hold
// file descriptors until the idle timeout: LoginGraceTime (a connection
// that has not authenticated within the grace period is closed, whether
// it is silent or slow), MaxStartups (at most so many connections wait to
// authenticate at once) and PerSourceMaxStartups (at most so many of them
// from one address, so that one source cannot take every slot). A
// connection over a cap is closed at once, before the SSH handshake.
//
// Every refusal is logged at Info: a connection over a cap, a grace period
// that ran out, a failed handshake, a refused key or authentication method,
// with the user and key fingerprint when the client sent them.
type gate struct {
	grace       time.Duration
	maxStartups int
	perSource   int
	log         *slog.Logger

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
	// user and fingerprint are what the client offered last, if anything.
	user, fingerprint string
}

func newGate(grace time.Duration, maxStartups, perSource int, log *slog.Logger) *gate {
	return &gate{grace: grace, maxStartups: maxStartups, perSource: perSource, log: log,
		pending: map[string]*pendingConn{}, sources: map[string]int{}}
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
	var refusal string
	switch {
	case g.closed:
		refusal = "the server is shutting down"
	case len(g.pending) >= g.maxStartups:
		refusal = fmt.Sprintf("%d connections are already waiting to authenticate (--max-startups)", len(g.pending))
	case g.sources[source] >= g.perSource:
		refusal = fmt.Sprintf("%d connections from %s are already waiting to authenticate (--max-per-source)", g.sources[source], source)
	}
	if refusal != "" {
		g.mu.Unlock()
		g.log.Info("ssh connection refused", "remote", remote, "reason", refusal)
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
	g.log.Info("ssh login grace time exceeded: connection closed", identityAttrs(user, fp, p.remote, "grace_s", seconds(g.grace))...)
	p.conn.Close()
}

// offered records the user and key a pending connection offered.
func (g *gate) offered(remote, user string, key gossh.PublicKey) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if p := g.pending[remote]; p != nil {
		p.user, p.fingerprint = user, gossh.FingerprintSHA256(key)
	}
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
	fp := ""
	if p != nil && method == "publickey" {
		fp = p.fingerprint
	}
	g.mu.Unlock()
	switch method {
	case "none":
	case "publickey":
		g.log.Info("ssh key refused", identityAttrs(cm.User(), fp, remote, "error", err.Error())...)
	default:
		g.log.Info("ssh authentication method refused", identityAttrs(cm.User(), "", remote, "method", method)...)
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
	g.log.Info("ssh handshake failed", identityAttrs(user, fp, remote, "error", err.Error(), "after_s", seconds(time.Since(p.started)))...)
}

// close refuses new connections and stops the grace timers; the server
// closes the connections.
func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
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
