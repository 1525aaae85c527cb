package webhook

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"strings"
	"sync"
	"time"

	"treasury/kit/ratelog"
)

// Reasons a receiver refuses a request, the keys of Receiver.Rejections.
// A duplicate is not among them: it is answered 2xx so that the sender
// stops (6.1: duplicates can occur) and counted in ReceiverStats.
const (
	RejectMethod             = "method"              // not a POST
	RejectTooLarge           = "too_large"           // body over MaxBody
	RejectUnreadable         = "unreadable_body"     // the body could not be read
	RejectMissingSignature   = "missing_signature"   // no signature or timestamp header
	RejectMalformedSignature = "malformed_signature" // the signature is not base64
	// RejectWrongKey: the signature is not of the configured key's
	// algorithm (an ECDSA signature for an Ed25519 key, an RSA signature
	// of another size): the profile's public_key_file is most likely not
	// the operator's key.
	RejectWrongKey = "wrong_key"
	// RejectBadSignature: a signature of the right form that does not
	// verify: the body or timestamp was altered, or the sender signs with
	// another key of the same type.
	RejectBadSignature = "bad_signature"
	RejectBadTimestamp = "bad_timestamp"    // the signed timestamp is not Unix seconds
	RejectStale        = "stale_timestamp"  // older than the tolerance: a replay, or a slow sender
	RejectFuture       = "future_timestamp" // ahead by more than the tolerance: a clock is wrong
	RejectBadBody      = "bad_body"         // verified, but not a notification's JSON
	RejectIncomplete   = "missing_fields"   // verified, but without id, paymentId or paymentState
	RejectOverloaded   = "overloaded"       // the queue was full: 503, the sender retries
	// RejectTLSHandshake: a connection failed its TLS handshake (a sender
	// that does not trust the certificate, a scanner); RejectHTTP: another
	// fault the HTTP server reported (a malformed request).
	RejectTLSHandshake = "tls_handshake"
	RejectHTTP         = "http_error"
)

// rejectLogEvery bounds the log a flood of bad requests can write: the
// first rejection of each reason is logged, then at most one line per
// reason per interval, saying how many were not logged since.
const rejectLogEvery = 10 * time.Second

// rejections counts refusals per reason and logs them, rate-limited.
type rejections struct {
	mu     sync.Mutex
	counts map[string]int
	limit  *ratelog.Limiter
}

func newRejections(now func() time.Time) *rejections {
	return &rejections{counts: map[string]int{}, limit: ratelog.New(rejectLogEvery, now)}
}

// add counts one refusal; it reports whether to log it and, if so, how
// many of the reason went unlogged before it.
func (r *rejections) add(reason string) (log bool, suppressed int) {
	r.mu.Lock()
	r.counts[reason]++
	r.mu.Unlock()
	return r.limit.Allow(reason)
}

func (r *rejections) snapshot() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.counts)
}

// Rejections returns how many requests were refused, per reason (the
// Reject constants); reasons never seen are absent.
func (r *Receiver) Rejections() map[string]int { return r.rejected.snapshot() }

// logReject writes one refusal: reason, HTTP status, remote address,
// method, path and a detail of ours. Never the body, a signature or a
// header value: the remote address and the path are the only network
// strings, and a JSON log handler escapes them.
func (r *Receiver) logReject(reason string, status int, remote, method, path, detail string, suppressed int) {
	attrs := []slog.Attr{slog.String("reason", reason), slog.Int("status", status), slog.String("remote", remote),
		slog.String("method", method), slog.String("path", path)}
	if detail != "" {
		attrs = append(attrs, slog.String("detail", detail))
	}
	if suppressed > 0 {
		attrs = append(attrs, slog.Int("not_logged_since_last", suppressed))
	}
	msg := "webhook rejected"
	if reason == RejectOverloaded {
		msg = "webhook answered busy" // not refused: the platform sends it again
	}
	switch {
	case r.opts.Log != nil:
		r.opts.Log.LogAttrs(context.Background(), slog.LevelWarn, msg, attrs...)
	case r.opts.Logf != nil:
		line := "webhook: " + strings.TrimPrefix(msg, "webhook ")
		for _, a := range attrs {
			line += fmt.Sprintf(" %s=%q", a.Key, a.Value.String())
		}
		r.opts.Logf("%s", line)
	}
}
