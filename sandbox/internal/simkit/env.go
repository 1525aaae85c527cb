package simkit

import (
	"fmt"
	"net/http"
	"sync/atomic"
)

// Env is what every simulator is built with: the seed, the shared clock and
// faults, and the host name the wallet simulator reports as its error domain.
type Env struct {
	Seed   uint64
	Clock  *Clock
	Faults *Faults
	Host   string
	// Logf reports background events (webhook deliveries, generator steps).
	// It may be nil.
	Logf func(format string, args ...any)
	// Gate, when set, may refuse requests the simulators would serve (the
	// variant face's stricter caps and parameters); see Refuse.
	Gate Gate

	requests atomic.Uint64
}

// Log calls Logf when it is set.
func (e *Env) Log(format string, args ...any) {
	if e.Logf != nil {
		e.Logf(format, args...)
	}
}

// RequestID returns a new request id for error details and logs. It is
// unique within the process and reproducible across runs with one seed and
// the same request order.
func (e *Env) RequestID() string {
	n := e.requests.Add(1)
	return UUIDOf(e.Seed, Key("request"), n)
}

// Sim is a simulator of one interface: an http.Handler mounted under the
// interface's prefix, and background work stopped by Close.
type Sim interface {
	Handler() http.Handler
	Close() error
}

// NotImplemented is a Sim that answers 501 to everything; it stands in for a
// simulator that is not built yet.
type NotImplemented string

// Handler answers 501 naming the interface.
func (n NotImplemented) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		PlainError(w, http.StatusNotImplemented, fmt.Sprintf("the %s simulator is not built yet", string(n)))
	})
}

// Close does nothing.
func (NotImplemented) Close() error { return nil }
