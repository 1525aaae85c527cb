package webhook

import (
	"errors"
	"fmt"
	"net"
	"syscall"
)

// ListenError is Serve's failure to listen on its address: in use by
// another process (a second dashboard on the same profile), not permitted,
// or not a local address. A dashboard can run without its receiver, on
// polling alone, so callers may carry on and say so.
type ListenError struct {
	Addr string
	Err  error
}

func (e *ListenError) Error() string { return fmt.Sprintf("listen on %s: %v", e.Addr, e.Err) }

func (e *ListenError) Unwrap() error { return e.Err }

// InUse reports whether another socket holds the address.
func (e *ListenError) InUse() bool { return errors.Is(e.Err, syscall.EADDRINUSE) }

// Status is what the dashboard shows of its receiver: listening or why
// not, and what it refused.
type Status struct {
	// Addr is the address the receiver listens on, or could not listen on.
	Addr string
	// Err says why the receiver does not listen; nil when it does.
	Err error
	// Holder names the process holding Addr (portowner) when Err is an
	// address in use and it could tell; "" otherwise.
	Holder string
	Stats  ReceiverStats
	// Rejections are the refusals per reason (Reject constants), the
	// busy answers (RejectOverloaded) among them.
	Rejections map[string]int
}

// Listening reports whether the receiver serves.
func (s Status) Listening() bool { return s.Err == nil }

// InUse reports whether the receiver does not listen because another
// process holds its address.
func (s Status) InUse() bool {
	var le *ListenError
	return errors.As(s.Err, &le) && le.InUse()
}

// Rejected is the number of notifications refused, of every reason but
// RejectOverloaded: a notification answered busy is not refused, the
// platform delivers it again (6.1) and it is accepted then (Busy).
func (s Status) Rejected() int {
	n := 0
	for r, c := range s.Rejections {
		if r != RejectOverloaded {
			n += c
		}
	}
	return n
}

// Busy is how many times a notification was answered 503 because the
// queue to the store was full: each is delivered again by the platform's
// retries, none is lost, but the payment's state waited for it (or for the
// next poll).
func (s Status) Busy() int { return s.Rejections[RejectOverloaded] }

// Problem says in one sentence why the receiver does not listen and what
// that means: "0.0.0.0:8443 is in use by treasury (pid 4242): payment
// states come from polling alone"; "" when it listens.
func (s Status) Problem() string {
	switch {
	case s.Err == nil:
		return ""
	case s.InUse() && s.Holder != "":
		return fmt.Sprintf("%s is in use by %s: payment states come from polling alone", s.Addr, s.Holder)
	case s.InUse():
		return fmt.Sprintf("%s is in use by another process: payment states come from polling alone", s.Addr)
	}
	cause := s.Err
	var le *ListenError
	if errors.As(s.Err, &le) {
		cause = le.Err
	}
	return fmt.Sprintf("cannot listen on %s (%v): payment states come from polling alone", s.Addr, cause)
}

// listen is net.Listen with its failure as a *ListenError.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, &ListenError{Addr: addr, Err: err}
	}
	return ln, nil
}
