package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/muesli/termenv"

	"treasury/ui"
)

// run builds and runs the session's program until it quits, the client
// goes away, the session idles out or the server shuts down; the model's
// cleanup has run when it returns.
func (s *Server) run(sess ssh.Session, st *sessionState, id identity) error {
	pty, windows, ok := sess.Pty()
	if !ok { // handle lets only PTY sessions through
		return errors.New("no terminal")
	}
	// ctx ends when the connection closes (the session context is the
	// connection's) or when run returns.
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()

	model, cleanup, err := s.opts.NewModel(ctx, Session{
		User: id.user, Fingerprint: id.fingerprint, RemoteAddr: id.remote, Role: id.role,
		Renderer: newRenderer(sess, pty),
		Output:   sess,
		Term:     pty.Term,
		Width:    pty.Window.Width, Height: pty.Window.Height,
	})
	if cleanup != nil {
		defer cleanup()
	}
	if err == nil && model == nil {
		err = errors.New("no model")
	}
	if err != nil {
		_, _ = io.WriteString(sess.Stderr(), "treasury: the dashboard could not start (the server log says why)\r\n")
		return fmt.Errorf("new model: %w", err)
	}

	idle := time.AfterFunc(s.opts.IdleTimeout, func() { st.end(endIdle) })
	defer idle.Stop()
	in := &sessionInput{r: sess, touch: func() { idle.Reset(s.opts.IdleTimeout) }, gone: func() { st.end(endDisconnect) }}
	opts := []tea.ProgramOption{
		tea.WithContext(ctx),
		tea.WithInput(in),
		tea.WithOutput(sess),
		tea.WithAltScreen(),
		tea.WithoutSignalHandler(), // the server's context drives shutdown
	}
	if s.opts.Mouse {
		opts = append(opts, tea.WithMouseCellMotion())
	}
	p := tea.NewProgram(model, opts...)
	st.setProgram(p)

	// Window changes reach the program as tea.WindowSizeMsg; the first
	// value on the channel is the size the client asked its PTY with.
	go func() {
		for {
			select {
			case <-ctx.Done(): // the program is killed through its context
				return
			case w, ok := <-windows:
				if !ok {
					st.end(endDisconnect)
					return
				}
				p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			}
		}
	}()

	_, err = p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		st.end(endDisconnect)
		return nil // the connection closed under the program
	}
	return err
}

// runSafely is run with a panic (in NewModel or a cleanup; bubbletea
// recovers the model's own) turned into an error, so that one session's
// fault never stops the server.
func (s *Server) runSafely(sess ssh.Session, st *sessionState, id identity) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return s.run(sess, st, id)
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

// newRenderer is the session's lipgloss renderer: the colour profile of the
// client's TERM, COLORTERM and NO_COLOR (the environment it sent), Ascii for
// an empty or dumb TERM. Like wish's MakeRenderer, without its background
// colour query (the dark-background default stands).
func newRenderer(sess ssh.Session, pty ssh.Pty) *lipgloss.Renderer {
	env := sessionEnv(append([]string{"TERM=" + pty.Term}, sess.Environ()...))
	return ui.NewRenderer(sess, env.Getenv,
		termenv.WithEnvironment(env),
		termenv.WithUnsafe(), // the session is a terminal though not a file
		termenv.WithColorCache(true),
	)
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
