package sandbox

import (
	"bytes"
	"net/http"
	"time"

	"treasury/data/apierr"
	"treasury/data/sandbox/internal/simkit"
)

// faults wraps an interface's handler with the faults in force: latency,
// SYS_ 500s, 503s and malformed bodies, each in the error shape of iface.
func (s *Sandbox) faults(iface apierr.Interface, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := s.env.Faults.Get()
		if d := time.Duration(f.Latency); d > 0 || f.LatencyJitter > 0 {
			if j := time.Duration(f.LatencyJitter); j > 0 {
				d += time.Duration(simkit.Unit(simkit.Mix(uint64(time.Now().UnixNano()))) * float64(j))
			}
			t := time.NewTimer(d)
			select {
			case <-r.Context().Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
		switch {
		case simkit.Roll(f.ErrorRate):
			s.writeFault(w, iface, http.StatusInternalServerError)
			return
		case simkit.Roll(f.UnavailableRate):
			s.writeFault(w, iface, http.StatusServiceUnavailable)
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
	})
}

func (s *Sandbox) writeFault(w http.ResponseWriter, iface apierr.Interface, status int) {
	now := s.env.Clock.Now()
	switch iface {
	case apierr.Payments, apierr.Auth, apierr.Reporting:
		if status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", "1")
			simkit.PlainError(w, status, "Service temporarily unavailable.")
			return
		}
		simkit.PaymentsError(w, now, status, "SYS_001", apierr.TypeSystem, "Internal Server Error",
			"Unable to process the request due to an internal server error.")
	case apierr.Wallet:
		code := apierr.GRPCInternal
		msg := "internal error"
		if status == http.StatusServiceUnavailable {
			code, msg = apierr.GRPCUnavailable, "service unavailable"
		}
		simkit.WalletStatus(w, code, msg, s.env.RequestID())
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
