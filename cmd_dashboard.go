package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/user"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"treasury/config"
	"treasury/data/audit"
	"treasury/data/platform"
	"treasury/data/sandbox"
	"treasury/data/transport"
	"treasury/data/webhook"
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
	cfg      *config.Config
	p        *platform.Platform
	audit    *audit.Log
	stateDir string
	sb       *sandbox.Server // the embedded sandbox, when the profile runs one
	// webhooks says whether a webhook receiver feeds the store.
	webhooks bool
	closers  []func()
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
	r := &runtime{cfg: cfg, stateDir: config.StateDir(e.getenv)}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	now := time.Now
	if cfg.Embedded != nil {
		if r.sb, err = sandbox.Listen("127.0.0.1:0", sandbox.Options{Seed: cfg.Embedded.Seed, Speed: cfg.Embedded.Speed}); err != nil {
			return nil, fmt.Errorf("embedded sandbox: %w", err)
		}
		r.closers = append(r.closers, func() { r.sb.Close() })
		r.cfg = r.sb.Profile(cfg)
		now = r.sb.Clock().Now
	}
	reqLog, err := transport.OpenLog(r.stateDir)
	if err != nil {
		return nil, fmt.Errorf("request log: %w", err)
	}
	r.closers = append(r.closers, func() { reqLog.Close() })
	if r.p, err = platform.Open(r.cfg, platform.Options{Now: now, Log: reqLog.Logger, UserAgent: userAgent(),
		HTTP: &http.Client{Transport: countingTransport{next: http.DefaultTransport, n: &r.requests}}}); err != nil {
		return nil, err
	}
	r.closers = append(r.closers, r.p.Close)
	return r, nil
}

// openRuntime starts everything the dashboard needs: openPlatform, the
// audit log, the webhook receiver, and polling.
func openRuntime(ctx context.Context, e *env, cfg *config.Config) (_ *runtime, err error) {
	r, err := openPlatform(e, cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	if r.audit, err = audit.Open(r.stateDir); err != nil {
		return nil, err
	}
	r.closers = append(r.closers, func() { r.audit.Close() })
	switch {
	case r.sb != nil:
		srv, err := sandbox.StartLocalReceiver(r.sb.Sandbox, webhook.ReceiverOptions{}, r.p.Store.ApplyPaymentEvent)
		if err != nil {
			return nil, fmt.Errorf("webhook receiver: %w", err)
		}
		r.closers = append(r.closers, func() { srv.Close() })
		r.webhooks = true
	case r.cfg.Webhooks != nil:
		srv, err := startReceiver(r.cfg.Webhooks, r.p)
		if err != nil {
			return nil, fmt.Errorf("webhook receiver (%s): %w", r.cfg.Webhooks.Listen, err)
		}
		r.closers = append(r.closers, func() { srv.Close() })
		r.webhooks = true
	}
	r.p.Start(ctx)
	return r, nil
}

// startReceiver serves the profile's PAYMENT_STATE_TRANSITION callback and
// feeds accepted notifications to the store.
func startReceiver(w *config.Webhooks, p *platform.Platform) (*webhook.Server, error) {
	cert, err := tls.LoadX509KeyPair(w.TLSCertFile, w.TLSKeyFile)
	if err != nil {
		return nil, err
	}
	rcv, err := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: w.PublicKey, HeaderPrefix: w.HeaderPrefix, Tolerance: w.Tolerance})
	if err != nil {
		return nil, err
	}
	srv, err := webhook.Serve(w.Listen, w.Path, cert, rcv)
	if err != nil {
		return nil, err
	}
	srv.Forward(p.Store.ApplyPaymentEvent)
	return srv, nil
}

// localOperator names the local user for the audit log.
func localOperator() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
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
	r := lipgloss.NewRenderer(out)
	if e.getenv("NO_COLOR") != "" {
		r.SetColorProfile(termenv.Ascii)
	}
	app := newApp(rt, session{renderer: r, output: out, operator: localOperator(), readOnly: rt.cfg.ReadOnly, saveDir: "."})
	defer app.Close()
	opts := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(ctx), tea.WithOutput(out)}
	if rt.cfg.Mouse {
		opts = append(opts, tea.WithMouseCellMotion())
	}
	_, err = tea.NewProgram(app, opts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// isTerminal reports whether r is a character device (a terminal).
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
