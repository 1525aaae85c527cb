// Package sshserve serves a bubbletea program per SSH session, for running the
// dashboard once on a bastion host (holding the platform credentials) and
// letting each operator connect with `ssh -p 2222 bastion`.
//
// Access is by public key only, from an OpenSSH authorized_keys file in
// which each key carries a role (viewer, the default, or operator, with the
// option role="operator"). Each session gets its own program in the
// alternate screen, its own lipgloss renderer (that client's colour profile,
// plain text for TERM=dumb or NO_COLOR) and the window size of its client,
// resizes included. A session ends when its client disconnects (its program
// quits and its cleanup runs at once), when it has had no input for the idle
// timeout, or when the server shuts down (each session is told, its program
// quits cleanly, then the connection closes). Sessions start and end in the
// log with user, key fingerprint, remote address, role and duration (every
// duration in the log is in seconds, its key ending in _s: duration_s).
//
// Before authentication the limits of OpenSSH apply (see gate): a login
// grace period, a cap on connections waiting to authenticate and a cap per
// source address; refused keys, failed handshakes, sessions without a
// terminal and every limit hit are logged at Info.
//
// Sessions run on wish's own middleware: activeterm refuses a session
// without a terminal, and the bubbletea middleware runs each program and
// sends it the window changes. The renderer is this package's, not the
// middleware's MakeRenderer: that one asks the client its background colour
// and waits up to a second for an answer some terminals never give, which
// would delay the first frame and could eat the first keys.
package sshserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"
	"treasury/ui/screen"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	bm "charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"
)

// Role is what a key may do: viewers are read-only, operators may act.
type Role string

// The roles a key can have.
const (
	RoleViewer   Role = "viewer"
	RoleOperator Role = "operator"
)

// Session is what a program learns of its SSH client.
type Session struct {
	// User is the SSH user name the client sent: untrusted, sanitize it
	// before showing it. Fingerprint (ssh.FingerprintSHA256 of the key)
	// identifies the person.
	User, Fingerprint, RemoteAddr string
	// Name is who the key is: the name= of its line in the authorized
	// keys, else its comment ("" when it has neither, and for a
	// certificate, which Cert names; from the file: sanitize it before
	// showing it).
	Name string
	Role Role
	// Cert names the certificate the person logged in with (nil for a
	// plain key; Fingerprint is then its key's).
	Cert *CertInfo
	// Colors is the colour profile of this client's terminal (from the
	// environment it sent: ui.ColorProfile; plain when TERM=dumb or when
	// the client sent NO_COLOR), the one its program writes with; Dark is
	// the guess of its background (COLORFGBG) until the terminal answers.
	Colors colorprofile.Profile
	Dark   bool
	// Term is the TERM of the client's PTY (tmux-256color inside tmux).
	Term          string
	Width, Height int
}

// Options configure a Server.
type Options struct {
	Listen      string // default ":2222"
	HostKeyFile string // created (ed25519, 0600) if missing
	// AuthorizedKeysFile is an OpenSSH authorized_keys file; the option
	// role="operator" (or role="viewer", the default) gives a key its
	// role. It is read again at each connection, so edits need no restart.
	AuthorizedKeysFile string
	// TrustedUserCAKeysFile lists the CA keys whose user certificates
	// are taken (OpenSSH's TrustedUserCAKeys); RolesFile gives each
	// principal its role (`principal role` a line). RevokedKeysFile lists
	// the keys, certificates (by serial, key id) and CAs refused. Each is
	// read again at each connection when it changed, and at Reload. One
	// of AuthorizedKeysFile and TrustedUserCAKeysFile is required.
	TrustedUserCAKeysFile, RolesFile, RevokedKeysFile string
	// OnSession, when set, is told each session that starts, with its
	// role; the function it returns is called when the session ends (the
	// process's metrics).
	OnSession   func(role Role) (end func())
	MaxSessions int // default 20; over it, the session is told and closed
	// IdleTimeout ends a session with no input from its client for that
	// long (default 30m).
	IdleTimeout time.Duration
	// LoginGrace closes a connection that has not authenticated within it
	// (OpenSSH's LoginGraceTime; default 30s). MaxStartups is OpenSSH's
	// start:rate:full random early drop of new connections while others
	// wait to authenticate (default 10:30:100) and MaxPerSource caps those
	// from one address (default 3); a connection refused is closed at
	// once.
	LoginGrace   time.Duration
	MaxStartups  Startups
	MaxPerSource int
	// RefusalLogEvery is how often at most a refusal before login (a
	// failed handshake, a refused key, a connection dropped) is logged per
	// event and source address, the next line counting those not logged
	// (default 10s).
	RefusalLogEvery time.Duration
	Log             *slog.Logger // default: discard
	// roll draws the random early drop, [0, 100), and clock is the time
	// of the refusals' rate limit (tests).
	roll  func() int
	clock func() time.Time
	// NewModel builds the program of one session; cleanup (may be nil) is
	// called when the session ends. ctx ends with the session.
	NewModel func(ctx context.Context, s Session) (tea.Model, func(), error)
}

// Defaults.
const (
	DefaultListen      = ":2222"
	DefaultMaxSessions = 20
	DefaultIdleTimeout = 30 * time.Minute
	DefaultLoginGrace  = 30 * time.Second
	// DefaultMaxPerSource: one source can hold at most 3 connections that
	// have not authenticated.
	DefaultMaxPerSource = 3
	// DefaultRefusalLogEvery bounds the refusals logged per event and
	// source.
	DefaultRefusalLogEvery = 10 * time.Second
	// shutdownGrace bounds how long Serve waits for programs to exit after
	// telling them to, and again after closing the connections.
	shutdownGrace = 10 * time.Second
	// clientCloseGrace is how long Serve waits, once the sessions ended,
	// for the clients to close their connections.
	clientCloseGrace = time.Second
)

// Server serves one program per SSH session.
type Server struct {
	opts   Options
	log    *slog.Logger
	access *access
	ssh    *ssh.Server
	gate   *gate
	// frames are the sessions' screen states: sessions at one size on
	// one view draw each change once between them.
	frames *screen.Frames

	mu     sync.Mutex
	active map[*sessionState]struct{}
	// runs are the sessions' runs, by session: not the session's
	// context, which is its connection's, shared by every session of a
	// connection (OpenSSH's ControlMaster) and kept until it closes.
	runs    map[ssh.Session]*run
	closing bool
	served  bool
	wg      sync.WaitGroup // one per admitted session
}

// New validates o, loads (or creates) the host key and loads the authorized
// keys; an error names the file and, for a bad key line, the line.
// CheckKeys loads (creating it when missing, mode 0600) the host key and
// reads the authorized keys with their roles, as New does, and says what
// is wrong, naming the file and line: what `treasury serve` checks before
// it opens any state or sends any request. It returns the host key's
// fingerprint (SHA256:…), which operators publish so that people can
// check it on first connect.
func CheckKeys(o Options) (string, error) {
	if o.HostKeyFile == "" {
		return "", errors.New("serve: a host key file is required")
	}
	signer, err := loadHostKey(o.HostKeyFile)
	if err != nil {
		return "", err
	}
	if _, err := newAccess(o); err != nil {
		return "", err
	}
	return gossh.FingerprintSHA256(signer.PublicKey()), nil
}

func New(o Options) (*Server, error) {
	if o.NewModel == nil {
		return nil, errors.New("serve: NewModel is required")
	}
	if o.HostKeyFile == "" {
		return nil, errors.New("serve: a host key file is required")
	}
	if o.Listen == "" {
		o.Listen = DefaultListen
	}
	if o.MaxSessions < 0 || o.IdleTimeout < 0 || o.LoginGrace < 0 || o.MaxPerSource < 0 || o.RefusalLogEvery < 0 {
		return nil, errors.New("serve: MaxSessions, IdleTimeout, LoginGrace, MaxPerSource and RefusalLogEvery cannot be negative")
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.LoginGrace == 0 {
		o.LoginGrace = DefaultLoginGrace
	}
	if o.MaxStartups == (Startups{}) {
		o.MaxStartups = DefaultMaxStartups()
	}
	if err := o.MaxStartups.validate(); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	if o.RefusalLogEvery == 0 {
		o.RefusalLogEvery = DefaultRefusalLogEvery
	}
	if o.MaxPerSource == 0 {
		o.MaxPerSource = DefaultMaxPerSource
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	signer, err := loadHostKey(o.HostKeyFile)
	if err != nil {
		return nil, err
	}
	acc, err := newAccess(o)
	if err != nil {
		return nil, err
	}
	s := &Server{opts: o, log: o.Log, access: acc, active: map[*sessionState]struct{}{}, runs: map[ssh.Session]*run{},
		gate: newGate(o, o.Log), frames: screen.NewFrames()}
	srv, err := wish.NewServer(
		func(srv *ssh.Server) error { srv.AddHostKey(signer); return nil },
		wish.WithAddress(o.Listen),
		wish.WithVersion("SSH-2.0-treasury"),
		wish.WithPublicKeyAuth(s.authorize),
		// The connection's own idle limit only catches connections that
		// never open a session; a session's idle limit counts its input.
		wish.WithIdleTimeout(o.IdleTimeout+time.Minute),
		// Composed first to last, the last runs first: a session without
		// a terminal is logged and refused (activeterm), then admitted
		// and accounted for, then its program runs (wish's bubbletea
		// middleware, with this package's renderer and program options).
		wish.WithMiddleware(bm.MiddlewareWithProgramHandler(s.program), s.session,
			activeterm.Middleware(), s.noTerminal),
	)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	srv.ConnCallback = s.gate.admit
	srv.ServerConfigCallback = func(ssh.Context) *gossh.ServerConfig {
		return &gossh.ServerConfig{AuthLogCallback: s.gate.authLog}
	}
	srv.ConnectionFailedCallback = s.gate.failed
	s.ssh = srv
	return s, nil
}

// authorize is the public key callback: the key must be in the
// authorized keys, or a certificate the CA keys, the roles and the
// revocation list let in. A refusal is logged by the gate, which hears
// how authentication ended, with the reason found here.
func (s *Server) authorize(ctx ssh.Context, key ssh.PublicKey) bool {
	remote := ctx.RemoteAddr().String()
	s.gate.offered(remote, ctx.User(), key)
	_, err := s.check(key, ctx.RemoteAddr())
	if reason, ok := asRefusal(err); ok {
		s.gate.refused(remote, reason)
	}
	return err == nil
}

// check lets key in from remote, or says why not, logging a fault of the
// files found on the way.
func (s *Server) check(key ssh.PublicKey, remote net.Addr) (grant, error) {
	g, err, faults := s.access.check(key, remote)
	for _, f := range faults {
		msg := "access file unusable"
		if u := (*unusable)(nil); errors.As(f, &u) {
			msg = u.Message()
		}
		s.log.Error(msg, "error", f)
	}
	return g, err
}

// Reload reads the access files again now (SIGHUP): the authorized keys,
// the trusted CA keys, the roles, the revocation list. Sessions already
// open keep running; the next connection is judged by what was read. A
// file that is unusable refuses what it governs until fixed (every key
// for authorized_keys and the revocation list, every certificate for the
// CA keys and the roles), and its fault is returned. Each outcome is
// logged.
func (s *Server) Reload() (Reloaded, error) {
	r, err := s.access.reload()
	if err != nil {
		s.log.Error("access files reloaded: some are unusable, and refuse what they govern until fixed", "read", r.String(), "error", err.Error())
		return r, err
	}
	s.log.Info("access files reloaded", "authorized_keys", r.Keys, "ca_keys", r.CAs, "principals", r.Principals, "revocations", r.Revoked)
	return r, nil
}

// ListenAndServe listens on Options.Listen and serves until ctx is done.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.opts.Listen)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	return s.Serve(ctx, ln)
}

// Serve accepts SSH connections on ln until ctx is done. Then it stops
// accepting, tells each session the server is shutting down, lets each
// program quit and its cleanup run, closes the connections and returns nil.
// It returns an error when ln fails first. A Server serves once.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	s.mu.Lock()
	if s.served {
		s.mu.Unlock()
		ln.Close()
		return errors.New("serve: Serve called twice")
	}
	s.served = true
	s.mu.Unlock()

	errc := make(chan error, 1)
	go func() { errc <- s.ssh.Serve(ln) }()
	go s.gate.flushLoop()
	s.log.Info("ssh server listening", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		s.shutdown()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	ln.Close()
	<-errc
	s.shutdown()
	s.log.Info("ssh server stopped")
	return nil
}

// shutdown ends every session cleanly, then closes what is left.
func (s *Server) shutdown() {
	s.gate.close()
	s.mu.Lock()
	s.closing = true
	for st := range s.active {
		st.end(endShutdown)
	}
	s.mu.Unlock()
	if !waitTimeout(&s.wg, shutdownGrace) {
		s.log.Warn("ssh sessions still running after the grace period: closing their connections")
	}
	// Clients close their connection once their session has ended; give
	// them a moment to do so before closing what is left.
	ctx, cancel := context.WithTimeout(context.Background(), clientCloseGrace)
	_ = s.ssh.Shutdown(ctx)
	cancel()
	s.ssh.Close()
	waitTimeout(&s.wg, shutdownGrace)
}

// waitTimeout waits for wg at most d; it reports whether wg finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

// Waiting counts the connections that have not authenticated yet.
func (s *Server) Waiting() int { return s.gate.waiting() }

// Sessions counts the sessions running a program.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.active)
}
