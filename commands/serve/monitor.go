package serve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"treasury/process"
)

// monitor is what `serve --metrics-listen` answers, beside the SSH port,
// for the tools that watch a bastion's services: /metrics (Prometheus),
// /healthz (the process runs: its store answers) and /readyz (it serves
// as it should: listening, data of every interface, the record writable,
// the site reachable), each 200 or 503 with a short body saying why not.
// What the store says comes from its pulse: no probe waits on the
// store's lock, or leaves anything waiting on it.
type monitor struct {
	rt    *process.Runtime
	pulse *pulse
	// patience is how long the store may not answer before the process
	// is not healthy (probeTimeout; shorter in tests).
	patience time.Duration
	// listening is set once the SSH server listens; announced once
	// systemd was told READY=1.
	listening, announced atomic.Bool
}

// probeTimeout bounds what a health or readiness probe waits for (the
// site's answer), and how long the store may not answer before the
// process is not healthy.
const probeTimeout = 2 * time.Second

// newMonitor is rt's monitor, its pulse asking the store until ctx ends.
func newMonitor(ctx context.Context, rt *process.Runtime) *monitor {
	return &monitor{rt: rt, pulse: startPulse(ctx, rt), patience: probeTimeout}
}

func (m *monitor) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.whileStoreAnswers(m.rt.Metrics.Handler()))
	mux.HandleFunc("GET /healthz", m.healthz)
	mux.HandleFunc("GET /readyz", m.readyz)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "treasury serve: /metrics (Prometheus), /healthz, /readyz\n")
	})
	return mux
}

// stuck says, when the store has not answered for longer than the
// monitor's patience, for how long ("" when it answers).
func (m *monitor) stuck() string {
	if d := m.pulse.stalled(); d > m.patience {
		return "the store has not answered for " + d.Round(100*time.Millisecond).String()
	}
	return ""
}

// healthz answers 200 while the process runs: its store answers (a
// store stuck on its lock serves no session).
func (m *monitor) healthz(w http.ResponseWriter, r *http.Request) {
	if why := m.stuck(); why != "" {
		answer(w, http.StatusServiceUnavailable, "not healthy: "+why)
		return
	}
	answer(w, http.StatusOK, "ok")
}

// readyz answers 200 when the server serves as it should, else 503 with
// each reason a line.
func (m *monitor) readyz(w http.ResponseWriter, r *http.Request) {
	if why := m.notReady(r.Context()); len(why) > 0 {
		answer(w, http.StatusServiceUnavailable, "not ready: "+strings.Join(why, "\nnot ready: "))
		return
	}
	answer(w, http.StatusOK, "ready")
}

// notReady lists why the server is not ready (nil: it is).
func (m *monitor) notReady(ctx context.Context) []string {
	var why []string
	if !m.listening.Load() {
		why = append(why, "the SSH server is not listening yet")
	}
	if s := m.stuck(); s != "" {
		return append(why, s)
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	return append(why, m.rt.NotReady(ctx, m.pulse.unreadNow())...)
}

// whileStoreAnswers serves h (a scrape, which reads the store's state)
// while the store answers, else 503 at once: a scrape of a stuck store
// would wait on its lock for as long as it is stuck, one more at every
// scrape (Prometheus counts the target down either way).
func (m *monitor) whileStoreAnswers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if why := m.stuck(); why != "" {
			answer(w, http.StatusServiceUnavailable, "not scraped: "+why)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func answer(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	io.WriteString(w, body+"\n")
}

// startMonitor listens on addr and serves the monitor until ctx ends.
func startMonitor(ctx context.Context, addr string, m *monitor, log *slog.Logger) (net.Addr, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-listen: %w", err)
	}
	srv := &http.Server{Handler: m.handler(), ReadHeaderTimeout: 5 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() { _ = srv.Serve(l) }()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	return l.Addr(), nil
}
