package sshserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	bm "charm.land/wish/v2/bubbletea"

	"treasury/ui"
	"treasury/ui/screen"
)

// run is what the session middleware and the program handler share about
// one session: who it is, its state, the program's context, the model's
// cleanup and the first fault (a failed or panicking model).
type run struct {
	id identity
	st *sessionState

	mu      sync.Mutex
	err     error
	cancel  context.CancelFunc
	cleanup func()
	idle    *time.Timer
	screen  *screen.Screen
}

// screenOf is the session's screen.
func (r *run) screenOf() *screen.Screen {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.screen
}

func (r *run) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

func (r *run) error() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// guard runs f with a panic turned into the session's error, so that one
// session's fault never stops the server.
func (r *run) guard(f func()) {
	defer func() {
		if v := recover(); v != nil {
			r.fail(fmt.Errorf("panic: %v", v))
		}
	}()
	f()
}

// finish ends what the program handler started: a connection that closed
// under the program is a disconnect; the program's context ends and the
// model's cleanup runs.
func (r *run) finish(sess ssh.Session) {
	if sess.Context().Err() != nil {
		r.st.end(endDisconnect)
	}
	r.mu.Lock()
	cancel, cleanup, idle, scr := r.cancel, r.cleanup, r.idle, r.screen
	r.mu.Unlock()
	if idle != nil {
		idle.Stop()
	}
	if scr != nil {
		_ = scr.Close() // the terminal as it was, before the notice and the exit status
	}
	if cancel != nil {
		cancel()
	}
	if cleanup != nil {
		r.guard(cleanup)
	}
}

// program is the handler of wish's bubbletea middleware: it builds the
// session's model and program (input, output, alternate screen, the
// session's renderer, mouse when asked). Nil when the model cannot be
// built: the client is told and the session ends with status 1. The
// middleware runs the program and sends it the window changes.
func (s *Server) program(sess ssh.Session) *tea.Program {
	r := s.runOf(sess)
	if r == nil {
		return nil
	}
	var p *tea.Program
	r.guard(func() { p = s.newProgram(sess, r) })
	if p == nil {
		if r.error() == nil {
			r.fail(errors.New("no model"))
		}
		_, _ = io.WriteString(sess.Stderr(), "treasury: the dashboard could not start (the server log says why)\r\n")
	}
	return p
}

func (s *Server) newProgram(sess ssh.Session, r *run) *tea.Program {
	pty, _, ok := sess.Pty()
	if !ok { // activeterm lets only PTY sessions through
		r.fail(errors.New("no terminal"))
		return nil
	}
	// ctx ends when the connection closes (the session context is the
	// connection's) or when the session ends. The program's own context
	// ends killGrace later: a disconnect quits the program (its input
	// ends, and wish's middleware quits it), and only a program that has
	// not quit by then is killed (bubbletea returns a kill as an error,
	// which wish logs as one, for what is a client going away).
	ctx, cancel := context.WithCancel(sess.Context())
	progCtx, kill := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(killGrace, kill) })
	r.mu.Lock()
	r.cancel = func() { cancel(); stop(); kill() }
	r.mu.Unlock()
	id := r.id
	env := sessionEnv(append([]string{"TERM=" + pty.Term}, sess.Environ()...))
	colors := ui.ColorProfile(env.Getenv)
	model, cleanup, err := s.opts.NewModel(ctx, Session{
		User: id.user, Fingerprint: id.fingerprint, Name: id.name, RemoteAddr: id.remote, Role: id.role, Cert: id.cert,
		Colors: colors, Dark: ui.DarkBackground(env.Getenv("COLORFGBG")),
		Term:  pty.Term,
		Width: pty.Window.Width, Height: pty.Window.Height,
	})
	r.mu.Lock()
	r.cleanup = cleanup
	r.mu.Unlock()
	if err == nil && model == nil {
		err = errors.New("no model")
	}
	if err != nil {
		r.fail(fmt.Errorf("new model: %w", err))
		return nil
	}
	st := r.st
	idle := time.AfterFunc(s.opts.IdleTimeout, func() { st.end(endIdle) })
	r.mu.Lock()
	r.idle = idle
	r.mu.Unlock()
	in := &sessionInput{r: sess, touch: func() { idle.Reset(s.opts.IdleTimeout) }, gone: func() { st.end(endDisconnect) }}
	// The session's screen draws the model's frames (the lines that
	// changed, off the UI goroutine) and sets the terminal's modes the
	// view asks for; the program writes through it what it writes itself
	// (clipboard, bell, queries). The colour profile is the session's
	// own, never the server's terminal's.
	scr := screen.New(sess, env, colors, pty.Window.Width, pty.Window.Height, s.frames)
	scr.OnFault(func(err error) { // drawn on the screen's goroutine: this session ends, the server goes on
		r.fail(err)
		st.end(endFault)
	})
	r.mu.Lock()
	r.screen = scr
	r.mu.Unlock()
	opts := append(bm.MakeOptions(sess),
		tea.WithContext(progCtx),
		tea.WithInput(in), // the session's input, counting activity for the idle timeout
		tea.WithOutput(scr.Writer()),
		tea.WithoutRenderer(),
		tea.WithEnvironment(env),
		tea.WithColorProfile(colors),
		tea.WithoutSignalHandler(), // the server's context drives shutdown
		tea.WithFPS(sessionFPS),
	)
	p := tea.NewProgram(watched{model, r}, opts...)
	st.setProgram(p)
	return p
}

// killGrace is how long a program whose session ended may take to quit
// before it is killed.
const killGrace = 5 * time.Second

// sessionFPS is how often a session's program writes what it wrote
// itself (a clipboard, a bell, a query to the terminal; bubbletea's
// default is 60): each look wakes the server, for every session, idle or
// not, and with twenty sessions at 10 a second the scheduler's search
// for work after each wakeup cost more than the sessions' own frames.
// Frames are the screen's, drawn when there is one; what waits here is
// rare and waits half a second at most.
const sessionFPS = 2

// watched is the session's model, noting a panic of its Update or View
// as the session's error before bubbletea recovers it and ends the
// program (wish's middleware only logs the program's error).
type watched struct {
	tea.Model
	r *run
}

func (w watched) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer w.note()
	w.r.screenOf().Update(msg)
	m, cmd := w.Model.Update(msg)
	return watched{m, w.r}, cmd
}

func (w watched) View() tea.View {
	defer w.note()
	v := w.Model.View()
	w.r.screenOf().Show(v)
	return v
}

func (w watched) note() {
	if v := recover(); v != nil {
		w.r.fail(fmt.Errorf("panic: %v", v))
		panic(v)
	}
}

// sessionInput is the program's input: each read counts as activity for the
// idle timeout, and the end of input (the client closed the session or the
// connection) ends the program at once, since bubbletea itself does not
// quit on the end of its input.
type sessionInput struct {
	r     io.Reader
	touch func()
	gone  func()
	once  sync.Once
}

func (in *sessionInput) Read(p []byte) (int, error) {
	n, err := in.r.Read(p)
	if n > 0 {
		in.touch()
	}
	if err != nil {
		in.once.Do(in.gone)
	}
	return n, err
}

// sessionEnv is the environment a client sent; the first value of a name
// wins, so the PTY's TERM comes first.
type sessionEnv []string

func (e sessionEnv) Environ() []string { return e }

func (e sessionEnv) Getenv(k string) string {
	for _, v := range e {
		if name, value, ok := strings.Cut(v, "="); ok && name == k {
			return value
		}
	}
	return ""
}
