package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/user"
	"strconv"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"treasury/config"
	"treasury/data/actions"
	"treasury/data/audit"
	"treasury/data/diskfree"
	"treasury/data/live"
	"treasury/data/platform"
	"treasury/data/transport"
	"treasury/data/webhook"
	"treasury/kit/words"
	"treasury/sandbox"
	"treasury/ui"
	"treasury/ui/sanitize"
)

func cmdDashboard(ctx context.Context, e *env, g globals, args []string) error {
	fs := flag.NewFlagSet("dashboard", flag.ContinueOnError)
	if err := parseFlags(fs, e, &g, args); err != nil {
		return err
	}
	cfg, err := g.loadConfig(e)
	if err != nil {
		return err
	}
	return runDashboard(ctx, e, cfg)
}

// runtime is what one process opens for the dashboard or the SSH server:
// the embedded sandbox when the profile asks for it, the platform (clients
// and the one live store), the webhook receiver, the request and audit
// logs. Close releases it all.
type runtime struct {
	cfg   *config.Config
	p     *platform.Platform
	audit *audit.Log
	// pending are the keys of actions whose outcome is unknown: one set
	// for every session, so a retry from any of them reuses the key.
	pending  *actions.Pending
	stateDir string
	sb       *sandbox.Server // the embedded sandbox, when the profile runs one
	hooks    *hooks          // the webhook receiver; nil when none is configured
	log      *slog.Logger    // the request log: what a runtime logs beyond requests
	// requestLog is the request log (requests.log) whatever log is: the
	// outgoing alert webhook's posts are requests too.
	requestLog *slog.Logger
	drawings   *ui.Drawings // the charts drawn for every session
	// alerts are the thresholds the alerts editor of every session
	// shows and writes.
	alerts  *alertSettings
	closers []func()
	// requests counts the HTTP requests sent to the platform (the cost
	// of the sessions to it: one store for all of them).
	requests atomic.Int64
}

// countingTransport counts requests on their way out.
type countingTransport struct {
	next http.RoundTripper
	n    *atomic.Int64
}

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

func (r *runtime) Close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// openPlatform starts what reading the platform needs: the embedded
// sandbox when the profile asks for it, the request log and the clients
// with their store, not yet polling. `treasury get` stops here.
func openPlatform(e *env, cfg *config.Config) (_ *runtime, err error) {
	r := &runtime{cfg: cfg, stateDir: config.StateDir(e.getenv), drawings: ui.NewDrawings(),
		pending: actions.NewPending()}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	now, rate := time.Now, (func() float64)(nil)
	if cfg.Embedded != nil {
		if r.sb, r.cfg, err = startEmbedded(cfg, e.sandboxObserve); err != nil {
			return nil, err
		}
		r.closers = append(r.closers, func() { r.sb.Close() })
		now, rate = r.sb.Clock().Now, r.sb.Clock().Speed
	}
	reqLog, err := transport.OpenLog(r.stateDir, e.logs)
	if err != nil {
		return nil, fmt.Errorf("request log: %w", err)
	}
	r.closers = append(r.closers, func() { reqLog.Close() })
	r.log, r.requestLog = reqLog.Logger, reqLog.Logger
	// What a server was learnt to take is remembered per profile, but not
	// for the embedded sandbox: it listens on another port every run.
	memory := r.stateDir
	if r.sb != nil {
		memory = ""
	}
	if r.p, err = platform.Open(r.cfg, platform.Options{Now: now, ClockRate: rate, Log: reqLog.Logger, UserAgent: userAgent(), StateDir: memory,
		HTTP: &http.Client{Transport: countingTransport{next: http.DefaultTransport, n: &r.requests}}}); err != nil {
		return nil, err
	}
	r.closers = append(r.closers, r.p.Close)
	r.alerts = newAlertSettings(r, e.getenv)
	return r, nil
}

// startEmbedded starts the embedded sandbox that cfg asks for on a free
// loopback port and returns it with cfg pointed at it; observe (tests)
// sees its payments exchanges.
func startEmbedded(cfg *config.Config, observe func(sandbox.Exchange)) (*sandbox.Server, *config.Config, error) {
	sb, err := sandbox.Listen("127.0.0.1:0", sandbox.Options{Seed: cfg.Embedded.Seed, Speed: cfg.Embedded.Speed, Variant: cfg.Embedded.Variant, Observe: observe,
		HistoryPayments: cfg.Embedded.HistoryPayments, LivePaymentsPerMinute: cfg.Embedded.LiveRate})
	if err != nil {
		return nil, nil, fmt.Errorf("embedded sandbox: %w", err)
	}
	return sb, sb.Profile(cfg), nil
}

// openRuntime starts everything the dashboard needs: openPlatform, the
// audit log, the webhook receiver, and polling.
func openRuntime(ctx context.Context, e *env, cfg *config.Config) (*runtime, error) {
	return openRuntimeLog(ctx, e, cfg, nil)
}

// openRuntimeLog is openRuntime with the receiver's log (refusals, a port
// in use) going to log; nil means the request log.
func openRuntimeLog(ctx context.Context, e *env, cfg *config.Config, log *slog.Logger) (_ *runtime, err error) {
	r, err := openPlatform(e, cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	if log != nil {
		r.log = log
	}
	checkStateRoom(e, r.stateDir, r.log)
	if r.audit, err = audit.Open(r.stateDir, audit.Options{}); err != nil {
		return nil, err
	}
	r.closers = append(r.closers, func() { r.audit.Close() })
	// The keys of attempts a process ended before their answer (killed,
	// out of memory) and of unknown outcomes are read back: a retry
	// reuses them.
	n, err := r.pending.Restore(r.audit)
	if err != nil {
		return nil, fmt.Errorf("audit: reading back the keys of unfinished actions: %w", err)
	}
	if n > 0 {
		r.log.Info("audit: actions whose outcome is unknown, read back from the log: their next attempt reuses their key",
			"count", n, "file", r.audit.Path())
	}
	if err = live.FollowAudit(r.p.Store, r.audit); err != nil {
		return nil, err
	}
	if r.hooks, err = startWebhooks(r, r.log); err != nil {
		if r.cfg.Webhooks != nil {
			return nil, fmt.Errorf("webhook receiver (%s): %w", r.cfg.Webhooks.Listen, err)
		}
		return nil, fmt.Errorf("webhook receiver: %w", err)
	}
	if r.hooks != nil && r.hooks.srv != nil {
		r.closers = append(r.closers, func() { r.hooks.srv.Close() })
	}
	if p := r.webhookStatus().Problem(); p != "" {
		fmt.Fprintln(e.stderr, "treasury: warning: webhook receiver:", sanitize.Line(p))
	}
	r.p.Start(ctx)
	return r, nil
}

// checkStateRoom warns, on stderr and in the log, when the state
// directory cannot be written or its file system has little room left:
// the audit log is written before every action, which is refused when it
// cannot be.
func checkStateRoom(e *env, dir string, log *slog.Logger) {
	var warn string
	if err := diskfree.Probe(dir, nil); err != nil {
		warn = fmt.Sprintf("the state directory %s cannot be written (%v): every action will be refused until it can", dir, err)
	} else if free, err := diskfree.Avail(dir); err == nil && free < diskfree.Low {
		warn = fmt.Sprintf("the state directory %s has %s free: when the audit log cannot be written every action is refused (treasury doctor checks it)",
			dir, words.Bytes(free))
	}
	if warn != "" {
		fmt.Fprintln(e.stderr, "treasury: warning:", warn)
		log.Warn("state directory", "problem", warn)
	}
}

// webhookStatus is the receiver's status; a zero Status when there is none.
func (r *runtime) webhookStatus() webhook.Status {
	if r.hooks == nil {
		return webhook.Status{}
	}
	return r.hooks.Status()
}

// localOperator is the local user, for the audit log.
func localOperator() audit.Who {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return audit.Who{Via: audit.ViaLocal, User: u.Username}
	}
	return audit.Who{Via: audit.ViaLocal, User: "uid " + strconv.Itoa(os.Getuid())}
}

// runDashboard runs the dashboard in this terminal until the user quits or
// ctx ends.
func runDashboard(ctx context.Context, e *env, cfg *config.Config) error {
	if !isTerminal(e.stdin) || !isTerminal(e.stdout) {
		return errors.New("the dashboard needs a terminal (stdin and stdout); for scripts use `treasury get`")
	}
	rt, err := openRuntime(ctx, e, cfg)
	if err != nil {
		return err
	}
	defer rt.Close()
	out := e.stdout
	colors := ui.ColorProfile(e.getenv) // from the environment: the first frame waits for no answer
	app := newApp(rt, session{colors: colors, dark: ui.DarkBackground(e.getenv("COLORFGBG")), terminal: true,
		who: localOperator(), readOnly: rt.cfg.ReadOnly, saveDir: ".", term: e.getenv("TERM"), localTmux: e.getenv("TMUX") != ""})
	defer app.Close()
	// The alternate screen and the mouse are the app's view's (tea.View).
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(out), tea.WithColorProfile(colors)}
	_, err = tea.NewProgram(app, opts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// isTerminal reports whether r is a terminal (not merely a character
// device: /dev/null is one too).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
