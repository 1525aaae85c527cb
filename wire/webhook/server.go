package webhook

import (
	"context"
	"crypto/tls"
	"errors"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultPath is the callback path when none is configured.
const DefaultPath = "/webhooks/payments"

// Server serves a Receiver over HTTPS (6.1: the callback must be https with
// a certificate).
type Server struct {
	// URL is the callback address, such as https://127.0.0.1:8788/webhooks/payments.
	URL string
	rcv *Receiver
	srv *http.Server
	ln  net.Listener
	err chan error

	forwardOnce sync.Once
	forwarding  chan struct{} // closed when the forwarder has drained and stopped
	stop        chan struct{}
	closeOnce   sync.Once
	closeErr    error
}

// Listen serves r at path on addr ("127.0.0.1:0" picks a port) with the
// certificate and key in certFile and keyFile (PEM); every other path is 404.
func Listen(addr, path, certFile, keyFile string, r *Receiver) (*Server, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	return Serve(addr, path, cert, r)
}

// Serve serves r at path (empty means DefaultPath) on addr ("127.0.0.1:0"
// picks a port) over HTTPS with cert; every other path is 404. A failure
// to listen is a *ListenError.
func Serve(addr, path string, cert tls.Certificate, r *Receiver) (*Server, error) {
	if r == nil {
		return nil, errors.New("webhook: Serve needs a receiver")
	}
	if path == "" {
		path = DefaultPath
	}
	mux := http.NewServeMux()
	mux.Handle(path, r)
	ln, err := listen(addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{
		Handler:           mux,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		MaxHeaderBytes:    16 << 10,
		// Never the standard logger: it would write over the terminal UI.
		ErrorLog: log.New(serverLog{r}, "", 0),
	}
	s := &Server{URL: "https://" + ln.Addr().String() + path, rcv: r, srv: srv, ln: ln,
		err: make(chan error, 1), stop: make(chan struct{})}
	go func() { s.err <- srv.ServeTLS(ln, "", "") }()
	return s, nil
}

// serverLog counts and logs the HTTP server's own messages (TLS handshake
// failures: a sender that does not trust the certificate, a scanner) as
// refusals of the receiver, rate-limited like the others.
type serverLog struct{ r *Receiver }

func (w serverLog) Write(p []byte) (int, error) {
	line := strings.TrimRight(string(p), "\n")
	reason, remote := RejectHTTP, ""
	if rest, ok := strings.CutPrefix(line, "http: TLS handshake error from "); ok {
		reason = RejectTLSHandshake
		if i := strings.Index(rest, ": "); i > 0 {
			remote = rest[:i]
		}
	}
	w.r.refused(reason, 0, remote, "", "", line)
	return len(p), nil
}

// Addr is the address the server listens on ("127.0.0.1:8788").
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Receiver is the receiver the server serves (for its Stats).
func (s *Server) Receiver() *Receiver { return s.rcv }

// Forward hands every accepted notification, in the order accepted, to
// apply (live.Store.ApplyPaymentEvent) from one goroutine, until Close;
// stale ones are handed on too, since the store records them without
// moving the payment back. Only the first call of Forward or ForwardBatch
// has an effect. The HTTP answer never waits for apply: a slow apply fills
// the receiver's queue, and the receiver then answers 503 so that the
// sender retries.
func (s *Server) Forward(apply func(Event)) {
	if apply == nil {
		return
	}
	s.ForwardBatch(func(evs []Event) {
		for _, ev := range evs {
			apply(ev)
		}
	})
}

// MaxBatch bounds the notifications ForwardBatch hands on at once.
const MaxBatch = 256

// ForwardBatch is Forward handing on, at once, every notification waiting
// in the queue (up to MaxBatch) when apply is ready for more
// (live.Store.ApplyPaymentEvents, which folds a batch into one new set of
// payments): a burst costs one fold, not one per notification. apply must
// not keep the slice: it is reused for the next batch.
func (s *Server) ForwardBatch(apply func([]Event)) {
	if apply == nil {
		return
	}
	s.forwardOnce.Do(func() {
		s.forwarding = make(chan struct{})
		go func() {
			defer close(s.forwarding)
			batch := make([]Event, 0, MaxBatch)
			// more adds what else waits, without waiting for it.
			more := func() {
				for len(batch) < MaxBatch {
					select {
					case d := <-s.rcv.Events():
						batch = append(batch, d.Event)
					default:
						return
					}
				}
			}
			for {
				select {
				case d := <-s.rcv.Events():
					batch = append(batch[:0], d.Event)
					more()
					apply(batch)
				case <-s.stop:
					for { // the server no longer accepts: drain what was accepted
						batch = batch[:0]
						more()
						if len(batch) == 0 {
							return
						}
						apply(batch)
					}
				}
			}
		}()
	})
}

// Close stops serving, waiting briefly for requests in flight, then stops
// forwarding once what was accepted has been handed on.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		err := s.srv.Shutdown(ctx)
		if serr := <-s.err; !errors.Is(serr, http.ErrServerClosed) {
			err = errors.Join(err, serr)
		}
		s.forwardOnce.Do(func() {}) // no forwarder may start after Close
		close(s.stop)
		if s.forwarding != nil {
			<-s.forwarding
		}
		s.closeErr = err
	})
	return s.closeErr
}
