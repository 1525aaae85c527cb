// Package metrics is what one process tells Prometheus: its own registry
// (never the client library's global one), the counters and histograms
// the rest of the process feeds as things happen (upstream requests and
// their latency, retries, token refreshes, audit appends, actions, SSH
// sessions), the gauges read from the process's state at each scrape
// (Watch: alerts open, notifications, payments held, derivations running,
// the site's role, record lag and poller), the Go runtime's and the
// process's own, and the HTTP handler that serves them.
//
// Every method of a nil *Metrics does nothing, so that a process without
// a metrics listener (the local dashboard, `treasury get`) and tests need
// not check.
//
// Names follow Prometheus's conventions: the treasury_ prefix, the unit
// in the name (_seconds, _lines), _total on counters. Label values are
// bounded by construction: an interface, an operation made of the path's
// literal words with every other segment written {id} (Operation), an
// HTTP status, an action's kind, an outcome, a role, a severity, a
// notification's refusal reason; never an id, a user, a key or an
// address.
package metrics

import (
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every metric of the process's own.
const Namespace = "treasury"

// Metrics is the process's registry and the metrics fed into it.
type Metrics struct {
	reg *prometheus.Registry

	requests       *prometheus.CounterVec
	requestSeconds *prometheus.HistogramVec
	retries        *prometheus.CounterVec
	tokens         *prometheus.CounterVec
	auditAppends   *prometheus.CounterVec
	auditSeconds   prometheus.Histogram
	actions        *prometheus.CounterVec
	sessions       *prometheus.GaugeVec
	sessionsTotal  *prometheus.CounterVec

	mu      sync.Mutex
	watched bool
}

// Build labels the treasury_build_info gauge: what the binary is.
type Build struct {
	Version, Commit string
	Modified        bool
}

// Results of a token refresh and of an audit append.
const (
	ResultOK    = "ok"
	ResultError = "error"
)

// New registers the process's metrics, the Go runtime's and the
// process's (CPU, memory, file descriptors) in a registry of its own.
func New(b Build) *Metrics {
	reg := prometheus.NewRegistry()
	f := func(c prometheus.Collector) { reg.MustRegister(c) }
	m := &Metrics{reg: reg}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "upstream_requests_total",
		Help: "HTTP requests sent to the platform, each attempt once, by interface, operation (the path's literal words, ids as {id}) and HTTP status (error: no answer)."},
		[]string{"interface", "operation", "status"})
	m.requestSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: "upstream_request_duration_seconds",
		Help:    "How long each attempt of a request to the platform took, from sending it to its answer read whole.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}},
		[]string{"interface", "operation"})
	m.retries = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "upstream_retries_total",
		Help: "Failed attempts of a request to the platform that were tried again (spec 7.1), by interface and operation."},
		[]string{"interface", "operation"})
	m.tokens = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "token_refreshes_total",
		Help: "Bearer tokens asked of an issuer (the first, each renewal before expiry, and after a 401), by interface and result."},
		[]string{"interface", "result"})
	m.auditAppends = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "audit_appends_total",
		Help: "Lines this process appended to the record of actions (audit.jsonl, and the site's stream in a site), by result."},
		[]string{"result"})
	m.auditSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: Namespace, Name: "audit_append_duration_seconds",
		Help:    "How long an append to the record took: the lock, reading other processes' lines, the site's stream, the write and its fsync.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}})
	m.actions = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "actions_total",
		Help: "Operator actions by kind (freeze, unfreeze, lock, unlock, sweep) and outcome (done, failed, refused, cancelled, unknown), as the record has them."},
		[]string{"action", "outcome"})
	m.sessions = prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: "ssh_sessions",
		Help: "SSH sessions running a dashboard now, by role."}, []string{"role"})
	m.sessionsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: "ssh_sessions_started_total",
		Help: "SSH sessions started, by role."}, []string{"role"})
	info := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: "build_info",
		Help: "Always 1: the module version, the commit and whether the tree was modified, as the binary recorded them."},
		[]string{"version", "commit", "modified"})
	info.WithLabelValues(b.Version, b.Commit, strconv.FormatBool(b.Modified)).Set(1)
	for _, c := range []prometheus.Collector{m.requests, m.requestSeconds, m.retries, m.tokens, m.auditAppends, m.auditSeconds,
		m.actions, m.sessions, m.sessionsTotal, info,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		f(c)
	}
	// The families exist from the start, at zero, for the values that
	// are always possible: a dashboard of rates then has a series to
	// start from.
	for _, r := range []string{ResultOK, ResultError} {
		m.auditAppends.WithLabelValues(r)
	}
	return m
}

// Registry is the process's registry (tests gather from it).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in Prometheus's exposition formats (text,
// or protobuf and OpenMetrics when the scraper asks).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg, EnableOpenMetrics: true})
}

// Attempt counts one attempt of a request to iface (method and path as
// sent, ids in it) that answered status (0: no answer) after d.
func (m *Metrics) Attempt(iface, method, path string, status int, d time.Duration) {
	if m == nil {
		return
	}
	op := Operation(method, path)
	m.requests.WithLabelValues(iface, op, statusLabel(status)).Inc()
	m.requestSeconds.WithLabelValues(iface, op).Observe(d.Seconds())
}

// statusLabel is an HTTP status as a label: its number, "error" when
// nothing answered (a refused connection, a timeout, a reset).
func statusLabel(status int) string {
	if status <= 0 || status > 999 {
		return "error"
	}
	return strconv.Itoa(status)
}

// Retry counts a failed attempt of a request that is tried again.
func (m *Metrics) Retry(iface, method, path string) {
	if m == nil {
		return
	}
	m.retries.WithLabelValues(iface, Operation(method, path)).Inc()
}

// TokenRefresh counts a token asked of iface's issuer, err its failure.
func (m *Metrics) TokenRefresh(iface string, err error) {
	if m == nil {
		return
	}
	m.tokens.WithLabelValues(iface, result(err)).Inc()
}

// AuditAppend counts an append to the record that took d, err its
// failure.
func (m *Metrics) AuditAppend(d time.Duration, err error) {
	if m == nil {
		return
	}
	m.auditAppends.WithLabelValues(result(err)).Inc()
	m.auditSeconds.Observe(d.Seconds())
}

// Action counts an action of kind that ended with outcome.
func (m *Metrics) Action(kind, outcome string) {
	if m == nil {
		return
	}
	m.actions.WithLabelValues(kind, outcome).Inc()
}

// Session counts a session of role starting; the function it returns
// counts it ending (once, however often it is called).
func (m *Metrics) Session(role string) (end func()) {
	if m == nil {
		return func() {}
	}
	m.sessionsTotal.WithLabelValues(role).Inc()
	g := m.sessions.WithLabelValues(role)
	g.Inc()
	var once sync.Once
	return func() { once.Do(g.Dec) }
}

// Roles makes the session families exist, at zero, for every role.
func (m *Metrics) Roles(roles ...string) {
	if m == nil {
		return
	}
	for _, r := range roles {
		m.sessions.WithLabelValues(r)
		m.sessionsTotal.WithLabelValues(r)
	}
}

func result(err error) string {
	if err != nil {
		return ResultError
	}
	return ResultOK
}

// ErrWatched is Watch's error for a second state function.
var ErrWatched = errors.New("metrics: the process's state is watched already")

// Watch registers the gauges read from the process's state: state is
// called at each scrape (keep it quick; it may run concurrently with
// itself when scrapes overlap). One state function per Metrics.
func (m *Metrics) Watch(state func() State) error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.watched {
		return ErrWatched
	}
	m.watched = true
	return m.reg.Register(newStateCollector(state))
}
