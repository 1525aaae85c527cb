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
type monitor struct {
	rt *process.Runtime
	// listening is set once the SSH server listens; announced once
	// systemd was told READY=1.
	listening, announced atomic.Bool
}

// probeTimeout bounds what a health or readiness probe waits for (the
// store's lock, the site's answer).
const probeTimeout = 2 * time.Second

func (m *monitor) handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.rt.Metrics.Handler())
	mux.HandleFunc("GET /healthz", m.healthz)
	mux.HandleFunc("GET /readyz", m.readyz)
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "treasury serve: /metrics (Prometheus), /healthz, /readyz\n")
	})
	return mux
}

// healthz answers 200 while the process runs: its store answers within
// probeTimeout (a store stuck on its lock serves no session).
func (m *monitor) healthz(w http.ResponseWriter, r *http.Request) {
	if !storeAnswers(r.Context(), m.rt, probeTimeout) {
		answer(w, http.StatusServiceUnavailable, "not healthy: the store does not answer within "+probeTimeout.String())
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
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	return append(why, m.rt.NotReady(ctx)...)
}

func answer(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	io.WriteString(w, body+"\n")
}

// storeAnswers reports whether the store's lock is taken within d.
func storeAnswers(ctx context.Context, rt *process.Runtime, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		rt.Platform.Store.Seq()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
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
