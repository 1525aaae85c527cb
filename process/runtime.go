// Package process assembles what the commands of treasury open in one
// process: the configuration and the state directory, the embedded
// sandbox when the profile asks for it, the request log, the platform's
// clients and its one live store, the audit log, the webhook receiver and
// the alert thresholds every session shares. The dashboard, `serve` and
// `get` open it here and nowhere else.
package process

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"treasury/config"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/desk/metrics"
	"treasury/desk/platform"
	"treasury/desk/site"
	"treasury/kit/diskfree"
	"treasury/kit/keep"
	"treasury/kit/words"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/wire/transport"
	"treasury/wire/webhook"
)

// Runtime is what one process opens for the dashboard or the SSH server:
// the embedded sandbox when the profile asks for it, the platform (clients
// and the one live store), the webhook receiver, the request and audit
// logs. Close releases it all.
type Runtime struct {
	Config   *config.Config
	Platform *platform.Platform
	Audit    *audit.Log
	// Pending are the keys of actions whose outcome is unknown: one set
	// for every session, so a retry from any of them reuses the key.
	Pending  *actions.Pending
	StateDir string
	Sandbox  *sandbox.Server // the embedded sandbox, when the profile runs one
	hooks    *hooks          // the webhook receiver; nil when none is configured
	Log      *slog.Logger    // the request log: what a runtime logs beyond requests
	// RequestLog is the request log (requests.log) whatever Log is: the
	// outgoing alert webhook's posts are requests too.
	RequestLog *slog.Logger
	// Site is this host's membership of its site (cluster:); nil
	// without one. Polling is the store's part of the site's one poller
	// (nil without a site, or with an embedded sandbox: each process
	// then has its own platform).
	Site    *site.Site
	Polling *site.Polling
	// Kept is what is made for display once for every session (charts,
	// panels, table rows, fitted lines: kit/keep).
	Kept *keep.Registry
	// shared is what every session's views share (UIShared), built once.
	shared     *ui.Shared
	sharedOnce sync.Once
	// Alerts are the thresholds the alerts editor of every session
	// shows and writes.
	Alerts  *AlertSettings
	closers []func()
	// Requests counts the HTTP requests sent to the platform (the cost
	// of the sessions to it: one store for all of them).
	Requests atomic.Int64
	// Metrics is the process's Prometheus registry (serve
	// --metrics-listen serves it): the platform's requests, the record's
	// appends, the actions, and the state read at each scrape.
	Metrics *metrics.Metrics
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

// Close releases what the runtime opened, the last first.
func (r *Runtime) Close() {
	for i := len(r.closers) - 1; i >= 0; i-- {
		r.closers[i]()
	}
}

// OpenPlatform starts what reading the platform needs: the embedded
// sandbox when the profile asks for it, the request log and the clients
// with their store, not yet polling. `treasury get` stops here.
func OpenPlatform(e *Env, cfg *config.Config) (_ *Runtime, err error) {
	r := &Runtime{Config: cfg, StateDir: config.StateDir(e.Getenv), Kept: ui.NewKept(),
		Pending: actions.NewPending(), Metrics: newMetrics()}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	now, rate := time.Now, (func() float64)(nil)
	if cfg.Embedded != nil {
		if r.Sandbox, r.Config, err = StartEmbedded(cfg, e.SandboxObserve); err != nil {
			return nil, err
		}
		r.closers = append(r.closers, func() { r.Sandbox.Close() })
		now, rate = r.Sandbox.Clock().Now, r.Sandbox.Clock().Speed
	}
	// A request log that cannot be opened (a read-only state directory)
	// does not stop the dashboard: it is said on stderr and as an alert,
	// and nothing is logged.
	var unlogged error
	reqLog, err := transport.OpenLog(r.StateDir, e.Logs)
	if err != nil {
		unlogged = err
		fmt.Fprintln(e.Stderr, "treasury: warning: the request log cannot be written, nothing will be logged:", err)
		r.Log = slog.New(slog.DiscardHandler)
	} else {
		r.closers = append(r.closers, func() { reqLog.Close() })
		r.Log = reqLog.Logger
	}
	r.RequestLog = r.Log
	// What a server was learnt to take is remembered per profile, but not
	// for the embedded sandbox: it listens on another port every run.
	memory := r.StateDir
	if r.Sandbox != nil {
		memory = ""
	}
	if r.Platform, err = platform.Open(r.Config, platform.Options{Now: now, ClockRate: rate, Log: r.Log, UserAgent: UserAgent(), StateDir: memory, HistoryDir: r.StateDir, Metrics: r.Metrics,
		HTTP: &http.Client{Transport: countingTransport{next: http.DefaultTransport, n: &r.Requests}}}); err != nil {
		return nil, err
	}
	r.closers = append(r.closers, r.Platform.Close)
	r.configWarnings()
	if unlogged != nil {
		r.Platform.Store.Notice(live.Alert{Key: "requests-log", Severity: live.Medium, Code: "LOG",
			Title:    "The request log cannot be written: " + unlogged.Error(),
			Guidance: "Requests, refusals and warnings are not logged while it cannot be: make the state directory writable by this user and start again."})
	}
	r.Alerts = newAlertSettings(r, e.Getenv)
	return r, nil
}

// configWarnings says each of the configuration's warnings (a secret file
// others can read) in the log and as an alert, besides stderr (where
// LoadConfig put it, and where the dashboard's screen covers it at once).
// Secrets are never in them: only paths, keys and modes.
func (r *Runtime) configWarnings() {
	for _, w := range r.Config.Warnings {
		r.Log.Warn("configuration: "+w.Msg, "file", w.File, "key", w.Key)
		sev := live.Medium
		if r.Config.Environment == "prod" {
			sev = live.High // a production credential others may read
		}
		r.Platform.Store.Notice(live.Alert{Key: "config:" + w.Key + ":" + w.Msg, Severity: sev, Code: "CONFIG",
			Title:    sanitize.Line(w.String()),
			Guidance: "Fix it in the configuration (for a file: chmod 600 it); the warning goes once the dashboard starts without it."})
	}
}

// StartEmbedded starts the embedded sandbox that cfg asks for on a free
// loopback port and returns it with cfg pointed at it; observe (tests)
// sees its payments exchanges.
func StartEmbedded(cfg *config.Config, observe func(sandbox.Exchange)) (*sandbox.Server, *config.Config, error) {
	sb, err := sandbox.Listen("127.0.0.1:0", sandbox.Options{Seed: cfg.Embedded.Seed, Speed: cfg.Embedded.Speed, Variant: cfg.Embedded.Variant, Observe: observe,
		HistoryPayments: cfg.Embedded.HistoryPayments, LivePaymentsPerMinute: cfg.Embedded.LiveRate, Retain: cfg.Embedded.Retain,
		Accounts: cfg.Embedded.Accounts})
	if err != nil {
		return nil, nil, fmt.Errorf("embedded sandbox: %w", err)
	}
	return sb, sandboxprofile.Of(sb, cfg), nil
}

// Open starts everything the dashboard needs: OpenPlatform, the audit
// log, the webhook receiver, and polling.
func Open(ctx context.Context, e *Env, cfg *config.Config) (*Runtime, error) {
	return OpenLog(ctx, e, cfg, nil)
}

// OpenLog is Open with the receiver's log (refusals, a port in use) going
// to log; nil means the request log.
func OpenLog(ctx context.Context, e *Env, cfg *config.Config, log *slog.Logger) (_ *Runtime, err error) {
	r, err := OpenPlatform(e, cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	if log != nil {
		r.Log = log
	}
	if !cfg.ReadOnly { // --read-only raises nothing about a state directory it may not write
		checkStateRoom(e, r.StateDir, r.Log)
	}
	r.sweepKept(ctx)
	if err := r.openSite(ctx, e.Command); err != nil {
		return nil, err
	}
	if err := r.openAudit(ctx, e.Command); err != nil {
		return nil, err
	}
	if r.hooks, err = startWebhooks(r, r.Log); err != nil {
		if r.Config.Webhooks != nil {
			return nil, fmt.Errorf("webhook receiver (%s): %w", r.Config.Webhooks.Listen, err)
		}
		return nil, fmt.Errorf("webhook receiver: %w", err)
	}
	if r.hooks != nil && r.hooks.srv != nil {
		r.closers = append(r.closers, func() { r.hooks.srv.Close() })
	}
	if p := r.WebhookStatus().Problem(); p != "" {
		fmt.Fprintln(e.Stderr, "treasury: warning: webhook receiver:", sanitize.Line(p))
	}
	r.Platform.Start(ctx)
	if err := r.Metrics.Watch(r.metricsState); err != nil {
		return nil, err
	}
	return r, nil
}

// checkStateRoom warns, on stderr and in the log, when the state
// directory cannot be written or its file system has little room left:
// the audit log is written before every action, which is refused when it
// cannot be.
func checkStateRoom(e *Env, dir string, log *slog.Logger) {
	var warn string
	if err := diskfree.Probe(dir, nil); err != nil {
		warn = fmt.Sprintf("the state directory %s cannot be written (%v): every action will be refused until it can", dir, err)
	} else if free, err := diskfree.Avail(dir); err == nil && free < diskfree.Low {
		warn = fmt.Sprintf("the state directory %s has %s free: when the audit log cannot be written every action is refused (treasury doctor checks it)",
			dir, words.Bytes(free))
	}
	if warn != "" {
		fmt.Fprintln(e.Stderr, "treasury: warning:", warn)
		log.Warn("state directory", "problem", warn)
	}
}

// HasWebhooks says whether the profile (or the embedded sandbox) has a
// webhook receiver, listening or not.
func (r *Runtime) HasWebhooks() bool { return r.hooks != nil }

// UIShared is what every session's views share: the store, what is kept for display,
// the profile and the process's hooks; built once, the same for every
// session.
func (r *Runtime) UIShared() *ui.Shared {
	r.sharedOnce.Do(func() {
		p := r.Platform
		r.shared = &ui.Shared{Store: p.Store, Profile: r.Config.Profile, Environment: r.Config.Environment, Now: p.Now, Kept: r.Kept, Keys: r.Config.Keys}
		if r.HasWebhooks() {
			r.shared.Webhooks = r.WebhookStatus
		}
		if p.Payments != nil {
			r.shared.Token = p.PaymentsToken
		}
	})
	return r.shared
}

// WebhookStatus is the receiver's status; a zero Status when there is none.
func (r *Runtime) WebhookStatus() webhook.Status {
	if r.hooks == nil {
		return webhook.Status{}
	}
	return r.hooks.Status()
}

// UserAgent names the binary in requests: treasury/<version>.
func UserAgent() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return "treasury/" + bi.Main.Version
	}
	return "treasury/devel"
}

// KeptIdle is how long what was made for display (charts, panels, table
// lines, fitted lines) is kept once no session asks for it: the
// derivations' idle time (live.DefaultIdle).
const KeptIdle = live.DefaultIdle

// sweepKept drops, every KeptIdle/3 until ctx ends, what was made for
// display for sessions that have left (keep.Registry.Sweep).
func (r *Runtime) sweepKept(ctx context.Context) {
	d := r.Kept
	go func() {
		t := time.NewTicker(KeptIdle / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				d.Sweep(now, KeptIdle)
			}
		}
	}()
}
