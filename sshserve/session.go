package sshserve

import (
	"fmt"
	"io"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// endReason says why a session ended; it is logged and, for the reasons
// the server chose, told to the client.
type endReason string

const (
	endQuit       endReason = "quit"       // the program quit by itself
	endDisconnect endReason = "disconnect" // the client went away
	endIdle       endReason = "idle"       // no input for the idle timeout
	endShutdown   endReason = "shutdown"   // the server is stopping
	endFault      endReason = "fault"      // the session's screen could not be drawn
)

// notice is what the client is told when the server ends its session.
func (r endReason) notice(idle time.Duration) string {
	switch r {
	case endIdle:
		return fmt.Sprintf("treasury: no input for %s: session closed\r\n", idle)
	case endShutdown:
		return "treasury: the server is shutting down: session closed\r\n"
	case endFault:
		return "treasury: the screen could not be drawn (the server log says why): session closed\r\n"
	}
	return ""
}

// sessionState is one admitted session: its program, once built, and why
// it ends.
type sessionState struct {
	mu      sync.Mutex
	program *tea.Program
	reason  endReason
}

// end records why the session ends (the first reason wins) and asks the
// program to quit. Quit is sent from a goroutine: it blocks until the
// program's loop takes it, and returns when the program's context ends.
func (st *sessionState) end(r endReason) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.reason != "" {
		return
	}
	st.reason = r
	if st.program != nil {
		go st.program.Quit()
	}
}

// setProgram attaches p; when the session already ended, p quits at once.
func (st *sessionState) setProgram(p *tea.Program) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.program = p
	if st.reason != "" {
		go p.Quit()
	}
}

func (st *sessionState) why() endReason {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.reason == "" {
		return endQuit
	}
	return st.reason
}

// admit registers a session unless the server is closing or full.
func (s *Server) admit() (*sessionState, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return nil, "the server is shutting down"
	}
	if len(s.active) >= s.opts.MaxSessions {
		return nil, fmt.Sprintf("the server already has its maximum of %d sessions; try again later", s.opts.MaxSessions)
	}
	st := &sessionState{}
	s.active[st] = struct{}{}
	s.wg.Add(1)
	return st, ""
}

func (s *Server) release(st *sessionState) {
	s.mu.Lock()
	delete(s.active, st)
	s.mu.Unlock()
	s.wg.Done()
}

// session is the middleware that admits and accounts for a session:
// identify the key, admit it under the session cap, log its start, let the
// program middleware run it, then end it (the model's cleanup, the notice
// and exit status for the client, the log line with duration and reason).
func (s *Server) session(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		start := time.Now()
		key := sess.PublicKey()
		if key == nil {
			refuse(sess, "public key authentication is required")
			return
		}
		// Judged again for each session: a connection kept open
		// (OpenSSH's ControlMaster) starts no session with a key removed
		// or revoked since it logged in, and takes a role changed since.
		g, err := s.check(key, sess.RemoteAddr())
		if err != nil {
			id := identity{user: sess.User(), fingerprint: gossh.FingerprintSHA256(plainKey(key)), remote: sess.RemoteAddr().String()}
			s.log.Info("ssh session refused", append(id.attrs(), "reason", err.Error())...)
			refuse(sess, "this key is no longer authorized")
			return
		}
		id := identity{
			user: sess.User(), fingerprint: gossh.FingerprintSHA256(plainKey(key)), name: g.name,
			remote: sess.RemoteAddr().String(), role: g.role, cert: g.cert,
		}
		st, refusal := s.admit()
		if refusal != "" {
			s.log.Info("ssh session refused", append(id.attrs(), "reason", refusal)...)
			refuse(sess, refusal)
			return
		}
		s.log.Info("ssh session start", id.attrs()...)
		if s.opts.OnSession != nil {
			defer s.opts.OnSession(id.role)()
		}
		r := &run{id: id, st: st}
		s.setRun(sess, r)
		r.guard(func() { next(sess) })
		r.finish(sess)
		s.setRun(sess, nil) // its model is freed now, whether or not the connection stays
		err = r.error()
		reason := st.why()
		if msg := reason.notice(s.opts.IdleTimeout); msg != "" {
			_, _ = io.WriteString(sess.Stderr(), msg)
		}
		status := 0
		if err != nil {
			status = 1
		}
		// The exit status goes out before the session counts as ended, so
		// that shutdown, which then closes the connections, cannot cut it.
		_ = sess.Exit(status)
		s.release(st)
		attrs := append(id.attrs(), "duration_s", seconds(time.Since(start)), "reason", string(reason))
		if err != nil {
			s.log.Error("ssh session end", append(attrs, "error", err)...)
			return
		}
		s.log.Info("ssh session end", attrs...)
	}
}

// noTerminal logs a session without a terminal, with who asked, and tells
// the client how to connect; activeterm, next, refuses it.
func (s *Server) noTerminal(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if _, _, ok := sess.Pty(); !ok {
			id := identity{user: sess.User(), remote: sess.RemoteAddr().String()}
			if key := sess.PublicKey(); key != nil {
				id.fingerprint = gossh.FingerprintSHA256(plainKey(key))
				if g, err := s.check(key, sess.RemoteAddr()); err == nil {
					id.role, id.cert, id.name = g.role, g.cert, g.name
				}
			}
			s.log.Info("ssh session refused: no terminal", id.attrs()...)
			_, _ = io.WriteString(sess.Stderr(), "treasury: the dashboard needs a terminal: connect without -T (with a command, add -t)\r\n")
		}
		next(sess)
	}
}

// identity is who a session is, for the log.
type identity struct {
	user, fingerprint, name, remote string
	role                            Role
	cert                            *CertInfo // nil for a plain key
}

func (id identity) attrs() []any {
	a := []any{"user", id.user, "name", id.name, "fingerprint", id.fingerprint, "remote", id.remote, "role", string(id.role)}
	if c := id.cert; c != nil {
		a = append(a, certAttrs(c.KeyID, c.Serial)...)
		a = append(a, "cert_principal", c.Principal, "cert_ca", c.CA)
	}
	return a
}

// refuse tells the client why it cannot have a session and ends it.
func refuse(sess ssh.Session, msg string) {
	_, _ = io.WriteString(sess.Stderr(), "treasury: "+msg+"\r\n")
	_ = sess.Exit(1)
}

// setRun records the run of a session (nil: forgets it).
func (s *Server) setRun(sess ssh.Session, r *run) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r == nil {
		delete(s.runs, sess)
		return
	}
	s.runs[sess] = r
}

// runOf is the run of a session, nil when none.
func (s *Server) runOf(sess ssh.Session) *run {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runs[sess]
}
