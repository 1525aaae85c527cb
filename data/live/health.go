package live

import (
	"errors"
	"sort"
	"time"

	"treasury/data/apierr"
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
}

// Up reports whether the interface serves what the dashboard reads of it:
// its last request succeeded and the last poll of each of its feeds did
// (a payments interface whose identities answer while its filter fails is
// not up).
func (h Health) Up() bool {
	return !h.LastAttempt.IsZero() && h.ConsecutiveFailures == 0 && h.FailedPolls == 0
}

// Health returns the health of each interface, in a fixed order.
func (s *Store) Health() []Health {
	s.mu.Lock()
	defer s.mu.Unlock()
	polls := map[apierr.Interface]int{}
	for t, p := range s.feeds {
		if i := p.feed.Interface; i != "" {
			polls[i] = max(polls[i], s.snaps[t].Failures)
		}
	}
	out := make([]Health, 0, len(s.health))
	for _, h := range s.health {
		c := *h
		c.Failing = s.fails.distinct(h.Interface)
		c.FailedPolls = polls[h.Interface]
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

// Observe records the outcome of a call (the transport reports each call
// once, after its retries; the feeds report each fetch), so health and
// alerts see it. endpoint names the operation or the path; its ids are
// generalized.
func (s *Store) Observe(iface apierr.Interface, endpoint string, latency time.Duration, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observeLocked(iface, endpoint, latency, err, s.now())
	s.seq++
	s.notifyLocked("")
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
