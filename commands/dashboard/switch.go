package dashboard

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/config"
	"treasury/desk/audit"
	"treasury/process"
	"treasury/ui"
	"treasury/ui/sanitize"
)

// Contexts opens the runtimes of the profiles a session may switch to
// (:ctx): the local dashboard's opens another and closes the one it
// leaves; serve's shares one per profile among its sessions, and lets a
// session open only the profiles its role may (ssh_roles).
type Contexts interface {
	// Names are the profiles of the configuration file, sorted.
	Names() []string
	// Open opens the runtime of profile name for who (or shares one
	// open), or says why it may not or could not; release gives it back.
	Open(who audit.Who, name string) (rt *process.Runtime, release func(), err error)
	// Record notes a switch of who from one profile to another, or its
	// refusal (err).
	Record(who audit.Who, from, to string, err error)
}

// Shell is one session's program: the shell (ui.App) on a profile's
// runtime, which :ctx replaces with a shell on another profile's. What
// the shell it leaves showed goes with it and with its runtime's
// release: nothing of the previous profile stays on screen.
type Shell struct {
	s       Session
	ctxs    Contexts
	app     *ui.App
	rt      *process.Runtime
	release func()
	// width and height are the terminal's, given to each new shell.
	width, height int
	// switching names the profile being opened ("" when none).
	switching string
	// lastTick is the second of the last tick passed on: the shell left
	// behind still has a tick on its way, which must not become a second
	// clock of the new one.
	lastTick time.Time
	mu       sync.Mutex // guards release at Close
}

// NewShell runs a session on rt (release gives it back when the session
// leaves it), switching profiles through ctxs (nil: no :ctx).
func NewShell(rt *process.Runtime, release func(), s Session, ctxs Contexts) *Shell {
	sh := &Shell{s: s, ctxs: ctxs, rt: rt, release: release}
	sh.app = sh.newApp(rt)
	return sh
}

// newApp is a shell of the session on rt.
func (sh *Shell) newApp(rt *process.Runtime) *ui.App {
	app, ctx := newApp(rt, sh.s)
	if sh.ctxs != nil {
		ctx.Profiles = sh.ctxs.Names
	}
	return app
}

// App is the shell shown now.
func (sh *Shell) App() *ui.App { return sh.app }

// Init starts the shell.
func (sh *Shell) Init() tea.Cmd { return sh.app.Init() }

// switched is a profile's runtime opened for the session, or why not.
type switched struct {
	name    string
	rt      *process.Runtime
	release func()
	err     error
}

// Update passes everything to the shell shown, but :ctx's switch and its
// answer, the terminal's size (kept for the next shell) and the ticks of
// a shell left behind.
func (sh *Shell) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		sh.width, sh.height = msg.Width, msg.Height
	case ui.Tick:
		sec := msg.Now.Truncate(time.Second)
		if !sec.After(sh.lastTick) {
			return sh, nil // a second clock: let it stop
		}
		sh.lastTick = sec
	case ui.SwitchProfile:
		return sh, sh.open(msg.Name)
	case switched:
		return sh, sh.take(msg)
	}
	_, cmd := sh.app.Update(msg)
	return sh, cmd
}

// open opens profile name's runtime off the UI goroutine.
func (sh *Shell) open(name string) tea.Cmd {
	if sh.ctxs == nil {
		return ui.ErrorCmd(fmt.Errorf(":ctx: this session cannot switch profile"))
	}
	if sh.switching != "" {
		return ui.ErrorCmd(fmt.Errorf(":ctx %s: profile %s is being opened", sanitize.Line(name), sanitize.Line(sh.switching)))
	}
	sh.switching = name
	// Said before the answer can come: what it says replaces this.
	sh.app.Update(ui.Flash{Text: "opening profile " + sanitize.Line(name) + "…"})
	ctxs, who := sh.ctxs, sh.s.Who
	return func() tea.Msg {
		rt, release, err := ctxs.Open(who, name)
		return switched{name: name, rt: rt, release: release, err: err}
	}
}

// take puts the session on the runtime opened: the shell shown closes
// (its subscription ends), the runtime it was on is given back (the
// local one closed, its data dropped), and a shell on the new one starts
// at the terminal's size.
func (sh *Shell) take(m switched) tea.Cmd {
	sh.switching = ""
	from := sh.rt.Config.Profile
	if m.err != nil {
		sh.ctxs.Record(sh.s.Who, from, m.name, m.err)
		_, cmd := sh.app.Update(ui.Flash{Err: fmt.Errorf(":ctx %s: %w", sanitize.Line(m.name), m.err)})
		return cmd
	}
	if busy := sh.app.Busy(); busy != "" { // an action began while it opened
		m.release()
		_, cmd := sh.app.Update(ui.Flash{Err: fmt.Errorf(":ctx %s: not while %s", sanitize.Line(m.name), busy)})
		return cmd
	}
	sh.ctxs.Record(sh.s.Who, from, m.name, nil)
	old, release := sh.app, sh.release
	sh.mu.Lock()
	sh.app, sh.rt, sh.release = sh.newApp(m.rt), m.rt, m.release
	sh.mu.Unlock()
	old.Close()
	if release != nil {
		release()
	}
	cmds := []tea.Cmd{sh.app.Init()}
	if sh.width > 0 {
		sh.app.Update(tea.WindowSizeMsg{Width: sh.width, Height: sh.height})
	}
	// The same view, of the other profile (a saved tab only this profile
	// has: the overview).
	shown := old.Active().Name()
	for _, v := range sh.app.Views() {
		if v.Name() == shown {
			_, cmd := sh.app.Update(ui.Jump{View: shown})
			cmds = append(cmds, cmd)
			break
		}
	}
	cfg := sh.rt.Config
	sh.app.Update(ui.Flash{Text: "profile " + sanitize.Line(cfg.Profile) + " (" + sanitize.Line(cfg.Environment) + "): the data of " +
		sanitize.Line(from) + " dropped"})
	return tea.Batch(cmds...)
}

// View is the shell's.
func (sh *Shell) View() tea.View { return sh.app.View() }

// Close closes the shell shown and gives its runtime back (serve calls it
// when the client leaves; the local dashboard when it quits).
func (sh *Shell) Close() {
	sh.mu.Lock()
	app, release := sh.app, sh.release
	sh.release = nil
	sh.mu.Unlock()
	app.Close()
	if release != nil {
		release()
	}
}

// localContexts are the local dashboard's profiles: each opened when
// switched to, the one left closed.
type localContexts struct {
	ctx context.Context // the program's
	e   *process.Env
	o   config.Options
	// log records the switches (the request log of the runtime open).
	log func() *slog.Logger
}

// Names are the profiles of the file.
func (l *localContexts) Names() []string { return config.ProfileNames(l.o) }

// Open loads profile name and opens its runtime, as the dashboard's start
// does (a profile its views refuse is refused); what the opening would
// have said on stderr (the screen is the dashboard's) is said in the
// error or dropped with the warnings, which the new runtime raises as
// alerts.
func (l *localContexts) Open(_ audit.Who, name string) (*process.Runtime, func(), error) {
	return openProfile(l.ctx, l.e, l.o, name)
}

// openProfile loads profile name of o's file and opens its runtime as the
// dashboard does (process.Open, CheckProfile), nothing written to the
// terminal, its polls ending with ctx or at its release; log, when set,
// is the receiver's log (serve's).
func openProfile(ctx context.Context, e *process.Env, o config.Options, name string, log ...*slog.Logger) (*process.Runtime, func(), error) {
	o.Profile = name
	cfg, _, err := config.Load(o)
	if err != nil {
		return nil, nil, err
	}
	return OpenConfig(ctx, e, cfg, log...)
}

// OpenConfig opens cfg's runtime as the dashboard does (process.Open,
// CheckProfile), nothing written to the terminal, its polls ending with
// ctx or at its release; log, when set, is the receiver's log (serve's).
func OpenConfig(ctx context.Context, e *process.Env, cfg *config.Config, log ...*slog.Logger) (*process.Runtime, func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	var said bytes.Buffer
	quiet := *e
	quiet.Stderr = &said
	var rt *process.Runtime
	var err error
	if len(log) > 0 && log[0] != nil {
		rt, err = process.OpenLog(ctx, &quiet, cfg, log[0])
	} else {
		rt, err = process.Open(ctx, &quiet, cfg)
	}
	if err != nil {
		cancel()
		if s := strings.TrimSpace(said.String()); s != "" {
			err = fmt.Errorf("%w (%s)", err, sanitize.Line(s))
		}
		return nil, nil, err
	}
	if err := CheckProfile(rt); err != nil {
		rt.Close()
		cancel()
		return nil, nil, err
	}
	return rt, func() { rt.Close(); cancel() }, nil
}

// Record writes the switch in the request log of the profile switched to
// (or of the one left, when it failed).
func (l *localContexts) Record(who audit.Who, from, to string, err error) {
	lg := l.log()
	if lg == nil {
		return
	}
	if err != nil {
		lg.Warn("profile switch failed", "who", who.String(), "from", from, "to", to, "error", err.Error())
		return
	}
	lg.Info("profile switch", "who", who.String(), "from", from, "to", to)
}
