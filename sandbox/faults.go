package sandbox

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
)

// faults wraps an interface's handler with the faults in force: latency,
// SYS_ 500s, 503s and malformed bodies, each in the error shape of iface.
func (s *Sandbox) faults(iface apierr.Interface, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := s.env.Faults.Get()
		if f.Path != "" && !strings.Contains(r.URL.Path, f.Path) {
			next.ServeHTTP(w, r)
			return
		}
		if d := time.Duration(f.Latency); d > 0 || f.LatencyJitter > 0 {
			if j := time.Duration(f.LatencyJitter); j > 0 {
				d += time.Duration(simkit.Unit(simkit.Mix(uint64(time.Now().UnixNano()))) * float64(j))
			}
			if !wait(r, d) {
				return
			}
		}
		if d := time.Duration(f.AnswerLatency); d > 0 {
			// Served now, answered late: the request takes effect whatever
			// becomes of its answer.
			rec := &recorder{header: http.Header{}, status: http.StatusOK}
			s.serveFaults(iface, f, rec, r, next)
			if !wait(r, d) {
				return
			}
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.status)
			w.Write(rec.body.Bytes())
			return
		}
		s.serveFaults(iface, f, w, r, next)
	})
}

// wait waits d, or until r's client goes away; it reports whether d
// passed.
func wait(r *http.Request, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.Context().Done():
		return false
	case <-t.C:
		return true
	}
}

// serveFaults serves r with the rate faults of f (500s, 503s, malformed
// bodies) or, when none is drawn, with next.
func (s *Sandbox) serveFaults(iface apierr.Interface, f simkit.FaultSettings, w http.ResponseWriter, r *http.Request, next http.Handler) {
	switch {
	case simkit.Roll(f.ErrorRate):
		s.writeFault(w, r, iface, http.StatusInternalServerError)
		return
	case simkit.Roll(f.UnavailableRate):
		s.writeFault(w, r, iface, http.StatusServiceUnavailable)
		return
	case simkit.Roll(f.MalformedRate):
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		body := rec.body.Bytes()
		if rec.status < 300 && len(body) > 1 {
			body = append(body[:len(body)/2:len(body)/2], "\x00<html>"...)
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.status)
		w.Write(body)
		return
	}
	next.ServeHTTP(w, r)
}

// unavailableReason is the ErrorInfo reason of a wallet 503. The spec shows
// no reason for UNAVAILABLE (7.2: reasons beyond those listed are not
// shown); ERR000.021, a common-service reason after the listed ERR000.020,
// is chosen.
const unavailableReason = "ERR000.021"

// writeFault answers an injected 500 or 503 in the error model of iface:
// the payments error (SYS_001 500, SYS_002 503, type SYSTEM_ERROR; OAuth's
// server_error and temporarily_unavailable on the token service) in the
// shape of the operation for payments, auth and reporting; the wallet
// error object (gRPC 13 with a RequestInfo, gRPC 14 with an ErrorInfo and
// a RequestInfo); the plain body for liquidity and custody. A 503 carries
// Retry-After.
func (s *Sandbox) writeFault(w http.ResponseWriter, r *http.Request, iface apierr.Interface, status int) {
	now := s.env.Clock.Now()
	unavailable := status == http.StatusServiceUnavailable
	if unavailable {
		w.Header().Set("Retry-After", "1")
	}
	switch iface {
	case apierr.Payments, apierr.Auth, apierr.Reporting:
		if unavailable {
			simkit.WriteFailure(w, r, now, simkit.Failure{Status: status, Code: "SYS_002", Type: apierr.TypeSystem,
				Title: "Service Unavailable", Description: "The service is temporarily unavailable; retry with backoff.",
				OAuth: "temporarily_unavailable"})
			return
		}
		simkit.WriteFailure(w, r, now, simkit.Failure{Status: status, Code: "SYS_001", Type: apierr.TypeSystem,
			Title: "Internal Server Error", Description: "Unable to process the request due to an internal server error.",
			OAuth: "server_error"})
	case apierr.Wallet:
		if unavailable {
			simkit.WalletError(w, apierr.GRPCUnavailable, unavailableReason, "service unavailable", s.env.Host, s.env.RequestID())
			return
		}
		simkit.WalletStatus(w, apierr.GRPCInternal, "internal error", s.env.RequestID())
	default:
		simkit.PlainError(w, status, http.StatusText(status))
	}
}

// recorder buffers a response so a fault can garble its body.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) WriteHeader(status int)      { r.status = status }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
