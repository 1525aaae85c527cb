package apierr

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"
)

// Network builds the error of a request that got no HTTP answer. It names
// the interface, the method and the URL, and classes the failure: a DNS
// failure, a refused connection or a TLS failure is ClassUnreachable (the
// base URL or the network is wrong: retrying within the call will not help),
// no answer within the attempt's timeout is ClassTimeout (not retried
// within the call either), and a connection lost mid-request is ClassRetry.
// timedOut says the attempt's own deadline ended it (the caller's context is
// still alive).
func Network(iface Interface, method, path, url string, cause error, timedOut bool, timeout time.Duration) *Error {
	e := &Error{Interface: iface, Method: method, Path: path, URL: url, Cause: cause}
	var dns *net.DNSError
	var op *net.OpError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var certInvalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var header tls.RecordHeaderError
	var ne net.Error
	switch {
	case timedOut || errors.Is(cause, context.DeadlineExceeded) || (errors.As(cause, &ne) && ne.Timeout()):
		e.Class = ClassTimeout
		e.Message = "no answer"
		if timeout > 0 {
			e.Message = fmt.Sprintf("no answer within %s", timeout)
		}
	case errors.As(cause, &dns):
		e.Class = ClassUnreachable
		e.Message = fmt.Sprintf("DNS lookup of %s failed: %s", dns.Name, dns.Err)
	case errors.Is(cause, syscall.ECONNREFUSED):
		e.Class = ClassUnreachable
		e.Message = "connection refused"
	case errors.As(cause, &verify), errors.As(cause, &unknownCA), errors.As(cause, &hostname), errors.As(cause, &certInvalid):
		e.Class = ClassUnreachable
		e.Message = "TLS: the server's certificate is not trusted: " + cause.Error()
	case errors.As(cause, &header):
		e.Class = ClassUnreachable
		e.Message = "TLS: the server did not answer TLS (is the base URL http rather than https?)"
	case errors.As(cause, &op) && op.Op == "dial":
		e.Class = ClassUnreachable
		e.Message = "cannot connect: " + op.Err.Error()
	default:
		e.Class = ClassRetry
		e.Message = "connection lost: " + cause.Error()
	}
	return e
}
