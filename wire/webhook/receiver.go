package webhook

import (
	"bytes"
	"crypto"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"treasury/wire/payments"
)

// Receiver defaults.
const (
	DefaultTolerance       = 5 * time.Minute
	DefaultMaxBody         = 64 << 10
	DefaultSeenIDs         = 100_000
	DefaultTrackedPayments = 100_000
	DefaultQueue           = 1024
)

// ReceiverOptions configure a Receiver.
type ReceiverOptions struct {
	// PublicKey verifies signatures; its type chooses the algorithm.
	// Required.
	PublicKey crypto.PublicKey
	// HeaderPrefix is the {service_prefix}; empty means DefaultHeaderPrefix.
	HeaderPrefix string
	// Tolerance is how far the signed timestamp may be from Now, either
	// way; zero means DefaultTolerance.
	Tolerance time.Duration
	// Now is the sender's clock as this host knows it: the platform signs
	// with its own time (6.1), so a receiver judges the timestamp against
	// the platform's time (live.Store.PlatformClock of the payments
	// interface), not the host's, or a host whose clock is off from the
	// platform's by more than Tolerance (or a sandbox running faster than
	// real time) refuses every notification. Nil means time.Now.
	Now func() time.Time
	// Rate is how fast the sender's clock runs against real time (a
	// sandbox at --speed 240: 240); nil or under 1 means 1. Tolerance is
	// of real time, as a replay's or a slow delivery's delay is: on a
	// clock running 240 times faster it is 240 times as many of its
	// minutes, or a notification a second late is four of them late.
	Rate func() float64
	// MaxBody bounds a request body in bytes; zero means DefaultMaxBody.
	MaxBody int64
	// SeenIDs bounds the notification ids remembered for deduplication, and
	// TrackedPayments the payments whose latest transition is remembered.
	SeenIDs, TrackedPayments int
	// Queue is the capacity of the Events channel; when it is full the
	// receiver answers 503 so that the sender retries later.
	Queue int
	// Log, when set, receives a Warn record per rejected request (reason,
	// status, remote address, method, path; never a body, a signature or
	// a header value) and, through a Server, its TLS handshake errors;
	// each reason is logged at most once per 10 s, with a count of those
	// not logged. Logf is the older form of the same: Log wins when both
	// are set. Both quote network strings; sanitize them before showing
	// them.
	Log  *slog.Logger
	Logf func(format string, args ...any)
}

// Delivery is an accepted notification.
type Delivery struct {
	Event      Event
	ReceivedAt time.Time
	// Stale is set when the payment already had a later transition: record
	// the event if useful, but do not move the payment back to its state.
	Stale bool
}

// ReceiverStats count what the receiver did.
type ReceiverStats struct {
	Accepted   int // delivered, Stale included
	Stale      int
	Duplicates int
	Rejected   int // bad signature, timestamp, size, body or method (Rejections has them per reason)
	Ignored    int // verified, but not a PAYMENT_STATE_TRANSITION
	Overloaded int // answered 503 because the queue was full
}

// Receiver is the http.Handler of PAYMENT_STATE_TRANSITION callbacks (6.1):
// it verifies the signature and the timestamp, answers 2xx at once, drops
// duplicate ids and flags notifications older than the payment's latest as
// Stale, then hands each accepted one to the Events channel. It is safe for
// concurrent use.
type Receiver struct {
	opts   ReceiverOptions
	events chan Delivery

	mu       sync.Mutex
	seen     *lru[struct{}]
	latest   *lru[transition]
	stats    ReceiverStats
	rejected *rejections
}

// transition is a payment's latest known state change.
type transition struct {
	at    time.Time
	state payments.State
}

// NewReceiver returns a receiver; it fails without a usable public key.
func NewReceiver(o ReceiverOptions) (*Receiver, error) {
	if o.PublicKey == nil {
		return nil, errors.New("webhook: receiver needs the operator's public key")
	}
	if err := Verify(o.PublicKey, "0", nil, ""); err != nil && !errors.Is(err, ErrBadSignature) {
		return nil, err
	}
	if o.HeaderPrefix == "" {
		o.HeaderPrefix = DefaultHeaderPrefix
	}
	if o.Tolerance <= 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.SeenIDs <= 0 {
		o.SeenIDs = DefaultSeenIDs
	}
	if o.TrackedPayments <= 0 {
		o.TrackedPayments = DefaultTrackedPayments
	}
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	return &Receiver{opts: o, events: make(chan Delivery, o.Queue), rejected: newRejections(o.Now),
		seen: newLRU[struct{}](o.SeenIDs), latest: newLRU[transition](o.TrackedPayments)}, nil
}

// Events delivers accepted notifications in the order they were accepted.
// Server.Forward drains it into a callback such as the live store's
// ApplyPaymentEvent; read it directly only without Forward.
func (r *Receiver) Events() <-chan Delivery { return r.events }

// Stats returns the counters.
func (r *Receiver) Stats() ReceiverStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// reject answers status with why, counts the refusal under reason and
// logs it (rate-limited); detail adds what the log may say beyond why.
func (r *Receiver) reject(w http.ResponseWriter, req *http.Request, status int, reason, why, detail string) {
	r.mu.Lock()
	r.stats.Rejected++
	r.mu.Unlock()
	r.refused(reason, status, req.RemoteAddr, req.Method, req.URL.Path, detail)
	http.Error(w, why, status)
}

// refused counts and logs a refusal.
func (r *Receiver) refused(reason string, status int, remote, method, path, detail string) {
	if log, suppressed := r.rejected.add(reason); log {
		r.logReject(reason, status, remote, method, path, detail, suppressed)
	}
}

// ServeHTTP handles one callback.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		r.reject(w, req, http.StatusMethodNotAllowed, RejectMethod, "notifications are POSTed", "")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, r.opts.MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			r.reject(w, req, http.StatusRequestEntityTooLarge, RejectTooLarge, "body too large", fmt.Sprintf("limit %d bytes", r.opts.MaxBody))
			return
		}
		r.reject(w, req, http.StatusBadRequest, RejectUnreadable, "cannot read body", "")
		return
	}
	ts := req.Header.Get(TimestampHeader(r.opts.HeaderPrefix))
	sig := req.Header.Get(SignatureHeader(r.opts.HeaderPrefix))
	if ts == "" || sig == "" {
		r.reject(w, req, http.StatusUnauthorized, RejectMissingSignature, "missing signature headers",
			"expected "+SignatureHeader(r.opts.HeaderPrefix)+" and "+TimestampHeader(r.opts.HeaderPrefix))
		return
	}
	if err := Verify(r.opts.PublicKey, ts, body, sig); err != nil {
		reason, detail := r.signatureFault(sig)
		r.reject(w, req, http.StatusUnauthorized, reason, "signature does not verify", detail)
		return
	}
	// Checked after the signature, so the timestamp is the signed one.
	at, err := ParseTimestamp(ts)
	if err != nil {
		r.reject(w, req, http.StatusUnauthorized, RejectBadTimestamp, "bad signature timestamp", "")
		return
	}
	now, tol := r.opts.Now(), r.tolerance()
	if skew := now.Sub(at); skew > tol || skew < -tol {
		reason, detail := RejectStale, fmt.Sprintf("signed %s ago, tolerance %s", skew.Round(time.Second), tol)
		if skew < 0 {
			reason, detail = RejectFuture, fmt.Sprintf("signed %s ahead of this clock, tolerance %s", (-skew).Round(time.Second), tol)
		}
		r.reject(w, req, http.StatusUnauthorized, reason, "signature timestamp outside tolerance", detail)
		return
	}
	var ev Event
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&ev); err != nil {
		r.reject(w, req, http.StatusBadRequest, RejectBadBody, "body is not a notification", "")
		return
	}
	if ev.EventType != EventPaymentStateTransition {
		r.mu.Lock()
		r.stats.Ignored++
		r.mu.Unlock()
		w.WriteHeader(http.StatusNoContent) // verified: do not make the sender retry
		return
	}
	if ev.ID == "" || ev.EventData.PaymentID == "" || ev.EventData.PaymentState == "" {
		r.reject(w, req, http.StatusBadRequest, RejectIncomplete, "notification lacks id, paymentId or paymentState", "")
		return
	}
	if !r.accept(ev, now) {
		r.refused(RejectOverloaded, http.StatusServiceUnavailable, req.RemoteAddr, req.Method, req.URL.Path,
			fmt.Sprintf("queue of %d full: the store is not keeping up", r.opts.Queue))
		w.Header().Set("Retry-After", "30")
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// signatureFault says why a signature that did not verify failed: not
// base64, not of the configured key's form (the wrong key), or a
// signature of the right form that does not match.
func (r *Receiver) signatureFault(sig string) (reason, detail string) {
	raw, err := base64.StdEncoding.DecodeString(sig)
	switch {
	case err != nil:
		return RejectMalformedSignature, "the signature header is not base64"
	case !signatureFits(r.opts.PublicKey, raw):
		return RejectWrongKey, fmt.Sprintf("a %d-byte signature is not of the configured %s key's form: check the profile's webhooks public_key_file", len(raw), keyKind(r.opts.PublicKey))
	}
	return RejectBadSignature, "the body or timestamp was altered, or the sender signs with another " + keyKind(r.opts.PublicKey) + " key"
}

// accept dedupes, orders and queues ev; false means the queue is full.
func (r *Receiver) accept(ev Event, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.seen.get(ev.ID); dup {
		r.stats.Duplicates++
		return true
	}
	d := Delivery{Event: ev, ReceivedAt: now}
	pid := ev.EventData.PaymentID
	prev, known := r.latest.get(pid)
	next := transition{at: ev.CreateDate, state: ev.EventData.PaymentState}
	d.Stale = known && !later(next, prev)
	select {
	case r.events <- d:
	default:
		r.stats.Overloaded++
		return false // neither seen nor latest changes: the retry will be accepted
	}
	r.seen.put(ev.ID, struct{}{})
	if !d.Stale {
		r.latest.put(pid, next)
	}
	r.stats.Accepted++
	if d.Stale {
		r.stats.Stale++
	}
	return true
}

// later reports whether a is a later transition than b: by time, and at the
// same time by the order of states.
func later(a, b transition) bool {
	if !a.at.Equal(b.at) {
		return a.at.After(b.at)
	}
	return rank(a.state) > rank(b.state)
}

func rank(s payments.State) int {
	switch s {
	case payments.Quoted:
		return 0
	case payments.AwaitingFunding:
		return 1
	case payments.Initiated:
		return 2
	case payments.Validating:
		return 3
	case payments.Transferring:
		return 4
	case payments.Completed, payments.Failed, payments.Declined:
		return 5
	case payments.Returned:
		return 6
	}
	return 0
}

// tolerance is Tolerance on the sender's clock: of real time, so as
// many times longer as that clock runs faster.
func (r *Receiver) tolerance() time.Duration {
	if r.opts.Rate == nil {
		return r.opts.Tolerance
	}
	if k := r.opts.Rate(); k > 1 {
		return time.Duration(float64(r.opts.Tolerance) * k)
	}
	return r.opts.Tolerance
}
