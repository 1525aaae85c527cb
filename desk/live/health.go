package live

import (
	"errors"
	"sort"
	"time"

	"treasury/wire/apierr"
)

// Health is the state of one interface as the store saw it.
type Health struct {
	Interface   apierr.Interface
	LastSuccess time.Time
	LastAttempt time.Time
	Latency     time.Duration
	// ConsecutiveFailures counts the outcomes in a row that failed: every
	// call (after its retries) and every fetch of a feed, so one failed
	// poll may count several times. It says whether the interface is
	// failing now; FailedPolls is the count to show.
	ConsecutiveFailures int
	LastError           error
	// Failing counts the distinct failures of the interface's endpoints
	// whose last call failed: what the header shows, whatever the number
	// of attempts and polls behind them.
	Failing int
	// FailedPolls counts the polls in a row that failed, as a view counts
	// them for its topic (Snapshot.Failures): the most among the
	// interface's feeds, each poll once however many calls and retries it
	// made. Zero when no feed's last poll failed (a view's call did).
	FailedPolls int
	// PollError is the error of the interface's feed whose polls have
	// failed the most in a row (nil when none's last poll failed): what
	// it fails with while its other calls work.
	PollError error
	// Retrying is a call whose last attempt failed and that will be tried
	// again (the furthest along when several are): the interface is
	// failing now, before the call is over. Nil when none is.
	Retrying *Retry
	// ClockOffset is how far the interface's clock is ahead of the host's
	// (negative: behind), as its answers tell it; ClockKnown says whether
	// they told anything yet.
	ClockOffset time.Duration
	ClockKnown  bool
}

// Retry is a call being retried: its last attempt, of how many at most,
// and how that attempt failed.
type Retry struct {
	Endpoint    string
	Attempt, Of int
	// Status is the HTTP status of the failed attempt (0: no answer).
	Status int
	Err    error
}

// Up reports whether the interface serves what the dashboard reads of it:
// its last request succeeded, the last poll of each of its feeds did (a
// payments interface whose identities answer while its filter fails is
// not up), and no call is being retried (its mark turns at the first
// failed attempt, not when the retries are given up).
func (h Health) Up() bool {
	return !h.LastAttempt.IsZero() && h.ConsecutiveFailures == 0 && h.FailedPolls == 0 && h.Retrying == nil
}

// Health returns the health of each interface, in a fixed order.
func (s *Store) Health() []Health {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	polls := map[apierr.Interface]int{}
	pollErr := map[apierr.Interface]error{}
	for t, p := range s.feeds {
		if i := p.feed.Interface; i != "" {
			if f := s.snaps[t].Failures; f > polls[i] {
				polls[i], pollErr[i] = f, s.snaps[t].Err
			}
		}
	}
	out := make([]Health, 0, len(s.health))
	for _, h := range s.health {
		c := *h
		c.Failing = s.fails.distinct(h.Interface)
		c.FailedPolls, c.PollError = polls[h.Interface], pollErr[h.Interface]
		for _, r := range s.retrying[h.Interface] {
			if c.Retrying == nil || r.Attempt > c.Retrying.Attempt {
				cp := r
				c.Retrying = &cp
			}
		}
		c.ClockOffset, c.ClockKnown = s.offsetLocked(h.Interface, now)
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return ifaceOrder(out[i].Interface) < ifaceOrder(out[j].Interface) })
	return out
}

func ifaceOrder(i apierr.Interface) int {
	for n, x := range []apierr.Interface{apierr.Liquidity, apierr.Payments, apierr.Auth, apierr.Reporting, apierr.Wallet, apierr.Custody} {
		if x == i {
			return n
		}
	}
	return 99
}

// Retrying records a failed attempt of a call that will be tried again
// (transport's OnRetry): the interface's mark turns at once. Attempt 0
// says the call was given up by its caller.
func (s *Store) Retrying(iface apierr.Interface, path string, attempt, of int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.retrying[iface]
	if m == nil {
		m = map[string]Retry{}
		s.retrying[iface] = m
	}
	if attempt == 0 { // the caller gave the call up
		delete(m, Endpoint(path))
		s.seq++
		s.notifyLocked("")
		return
	}
	r := Retry{Endpoint: Endpoint(path), Attempt: attempt, Of: of, Err: err}
	if e, ok := apierr.As(err); ok {
		r.Status = e.HTTPStatus
	}
	m[r.Endpoint] = r
	s.seq++
	s.notifyLocked("")
}

// Observe records the outcome of a call (the transport reports each call
// once, after its retries; the feeds report each fetch), so health and
// alerts see it. endpoint names the operation or the path; its ids are
// generalized.
//
// Subscribers are told at once of what a header or a health panel shows
// as a change of state: a failure, a recovery, an alert raised or
// cleared, a retry over. A routine success (an interface that was up
// answering again) changes only its times and latency, which the next
// tick draws: it tells no one, or every session would build a frame for
// every call of every interface (several a second) that shows nothing
// new.
func (s *Store) Observe(iface apierr.Interface, endpoint string, latency time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	routine := err == nil && s.routineLocked(iface, endpoint)
	s.observeLocked(iface, endpoint, latency, err, s.now())
	s.seq++
	if !routine {
		s.notifyLocked("")
	}
}

// routineLocked reports whether a success of endpoint would change only
// the interface's times and latency: the interface answered before and
// was up, the endpoint is neither failing nor being retried, and no
// alert of it is open or counting.
func (s *Store) routineLocked(iface apierr.Interface, endpoint string) bool {
	h := s.health[iface]
	if h == nil || h.LastSuccess.IsZero() || h.ConsecutiveFailures != 0 {
		return false
	}
	ep := Endpoint(endpoint)
	if _, ok := s.retrying[iface][ep]; ok {
		return false
	}
	if _, ok := s.fails.failing[iface][ep]; ok {
		return false
	}
	return !s.alerts.open(iface, endpoint)
}

func (s *Store) observeLocked(iface apierr.Interface, endpoint string, latency time.Duration, err error, at time.Time) {
	if iface == "" {
		return
	}
	h := s.health[iface]
	if h == nil {
		h = &Health{Interface: iface}
		s.health[iface] = h
	}
	s.fails.outcome(iface, Endpoint(endpoint), err)
	delete(s.retrying[iface], Endpoint(endpoint)) // the call is over
	h.LastAttempt = at
	h.Latency = latency
	if err == nil {
		h.LastSuccess = at
		h.ConsecutiveFailures = 0
		h.LastError = nil
	} else {
		h.ConsecutiveFailures++
		h.LastError = err
	}
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		ae = nil
	}
	s.alerts.observe(iface, endpoint, ae, err, at)
}
