package live

import (
	"time"

	"treasury/wire/apierr"
)

// The platform's clock. Ages, windows and expiry are on the platform's
// clock, not the host's: a host a few seconds behind would show 30-second
// quotes as fresher than they are, and cut the quote window before the
// newest quotes. Each interface's clock is estimated from what its answers
// say of it:
//   - the Date header of every answer: the server's second at some instant
//     between the request and its answer (within half a second, plus
//     half the round trip);
//   - the newest record time it serves: the server's clock was at least
//     that when it answered (a record is never stamped ahead of its
//     server).
//
// The estimate is a line through the Date observations (so a sandbox whose
// clock runs ten times faster is followed, not lagged), raised until no
// record is ahead of it. A rate within 5 % of the host's is taken as the
// host's: real servers' clocks do not run fast, the observations are
// second-rounded.

// Bounds of the clock estimate.
const (
	clockObservations = 32
	clockRecords      = 8
	// clockSpan is the least span of observations a rate is fitted over.
	clockSpan = 20 * time.Second
	// clockSpacing is the least time between two Date observations kept.
	clockSpacing = time.Second
	// clockDateBlur is how far two Date observations may be off each
	// other: a second's rounding each, half a round trip.
	clockDateBlur = 2 * time.Second
	// clockTolerance is the offset the header does not mention.
	clockTolerance = time.Second
)

type clockObs struct{ local, server time.Time }

// platformClock estimates one interface's clock.
type platformClock struct {
	dates   []clockObs // oldest first
	records []clockObs // the newest record time seen in an answer, at its local time
}

// addDate takes a Date header: the server's second, read between sent and
// received.
func (c *platformClock) addDate(sent, received, date time.Time) {
	mid := sent.Add(received.Sub(sent) / 2)
	c.add(clockObs{local: mid, server: date.Add(500 * time.Millisecond)})
}

// addExact takes the platform's time at local as another process's
// estimate read it (Polled.Platform): an observation as a Date is.
func (c *platformClock) addExact(local, server time.Time) {
	c.add(clockObs{local: local, server: server})
}

func (c *platformClock) add(o clockObs) {
	mid := o.local
	// Kept a second apart (the newest replacing the last kept while it is
	// closer to the one before): a burst of answers (a poll's pages and
	// retries) would otherwise fill the observations within a second, too
	// short a span to fit a rate on, and the estimate would fall back to
	// the host's rate between bursts.
	if n := len(c.dates); n >= 2 && mid.Sub(c.dates[n-2].local) < clockSpacing {
		c.dates[n-1] = o
		return
	}
	c.dates = append(c.dates, o)
	if len(c.dates) > clockObservations {
		c.dates = c.dates[len(c.dates)-clockObservations:]
	}
}

// addRecord takes the newest record time of an answer received at local.
func (c *platformClock) addRecord(local, record time.Time) {
	c.records = append(c.records, clockObs{local: local, server: record})
	if len(c.records) > clockRecords {
		c.records = c.records[len(c.records)-clockRecords:]
	}
}

// line is the estimate: the server's time at local is a + rate*(local-t0).
type line struct {
	t0   time.Time
	a    time.Time
	rate float64
}

func (l line) at(local time.Time) time.Time {
	return l.a.Add(time.Duration(float64(local.Sub(l.t0)) * l.rate))
}

// local is the local time at which the server's clock read server: the
// inverse of at (rate is positive).
func (l line) local(server time.Time) time.Time {
	return l.t0.Add(time.Duration(float64(server.Sub(l.a)) / l.rate))
}

// estimate fits the line; ok is false before any observation.
func (c *platformClock) estimate() (line, bool) {
	if len(c.dates) == 0 && len(c.records) == 0 {
		return line{}, false
	}
	l := line{rate: 1}
	if n := len(c.dates); n > 0 {
		t0 := c.dates[0].local
		var sx, sy float64
		for _, o := range c.dates {
			sx += float64(o.local.Sub(t0))
			sy += float64(o.server.Sub(t0))
		}
		mx, my := sx/float64(n), sy/float64(n)
		if span := c.dates[n-1].local.Sub(t0); n >= 2 && span >= clockSpacing/10 {
			var sxy, sxx float64
			for _, o := range c.dates {
				dx := float64(o.local.Sub(t0)) - mx
				sxy += dx * (float64(o.server.Sub(t0)) - my)
				sxx += dx * dx
			}
			// Over clockSpan, a rate 5 % off the host's is the server's;
			// sooner, one further off than a Date's second over the span
			// can make it (a sandbox at 240x is followed from answers a
			// tenth of a second apart, not 20 s of them later).
			blur := float64(clockDateBlur) / float64(span)
			r := sxy / sxx
			fast := r > 1.05+blur || r > 0 && r < 0.95-blur
			if sxx > 0 && r > 0 && (fast || n >= 4 && span >= clockSpan && (r < 0.95 || r > 1.05)) {
				l.rate = r
			}
		}
		// Through the means: a = mean(server) at mean(local).
		l.t0 = t0.Add(time.Duration(mx))
		l.a = t0.Add(time.Duration(my))
	} else {
		l.t0, l.a = c.records[0].local, c.records[0].local
	}
	// No record is ahead of the server that served it.
	var raise time.Duration
	for _, r := range c.records {
		if d := r.server.Sub(l.at(r.local)); d > raise {
			raise = d
		}
	}
	l.a = l.a.Add(raise)
	return l, true
}

// knowsClock reports whether the store has observed iface's clock.
func (s *Store) knowsClock(iface apierr.Interface) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.clocks[iface]
	return c != nil && (len(c.dates) > 0 || len(c.records) > 0)
}

// ObserveDate takes the Date header of an answer of iface (transport's
// OnDate).
func (s *Store) ObserveDate(iface apierr.Interface, sent, received, date time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clockOf(iface).addDate(sent, received, date)
}

// ObserveRecord takes the newest record time of an answer of iface
// received at the store's now.
func (s *Store) ObserveRecord(iface apierr.Interface, record time.Time) {
	if record.IsZero() {
		return
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clockOf(iface).addRecord(now, record)
}

func (s *Store) clockOf(iface apierr.Interface) *platformClock {
	c := s.clocks[iface]
	if c == nil {
		c = &platformClock{}
		s.clocks[iface] = c
	}
	return c
}

// PlatformNow is the platform's time now as iface's answers tell it: the
// store's clock when they told nothing yet, or when the two agree within
// ClockTolerance (a Date header has a second's resolution: within it the
// host's clock is the better of the two).
func (s *Store) PlatformNow(iface apierr.Interface) time.Time {
	return s.PlatformTime(iface, s.now())
}

// PlatformTime is the platform's time, as iface's answers tell it, at the
// store's time local (a snapshot's FetchedAt): what is built from a fetch
// judges expiries and days by it, not by the host's clock.
func (s *Store) PlatformTime(iface apierr.Interface, local time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.platformTimeLocked(iface, local)
}

func (s *Store) platformTimeLocked(iface apierr.Interface, local time.Time) time.Time {
	if off, ok := s.offsetLocked(iface, local); ok && (off > clockTolerance || off < -clockTolerance) {
		return local.Add(off)
	}
	return local
}

// judgeLocked is feed f's data alerts on data at the store's time at. A
// feed's Alerts judge on the platform's clock of its interface, as the
// records' own times are (a payment failed "in the last hour" is in the
// platform's hour, whatever this host's clock says); the times they give
// back are moved onto the store's clock, which every alert's time is on.
func (s *Store) judgeLocked(f *Feed, data any, at time.Time) []Alert {
	pat := s.platformTimeLocked(f.Interface, at)
	out := f.alerts(data, pat)
	if pat.Equal(at) {
		return out // the platform's clock is the store's
	}
	// Through the clock's line, not by today's offset: a platform whose
	// clock runs faster (a sandbox at 20x) failed a payment 15 of its
	// minutes ago 45 s ago on this host's clock.
	l, _ := s.clocks[f.Interface].estimate()
	for i := range out {
		if !out[i].Since.IsZero() {
			out[i].Since = l.local(out[i].Since)
		}
		if !out[i].Last.IsZero() {
			out[i].Last = l.local(out[i].Last)
		}
	}
	return out
}

// PlatformRate is how fast iface's clock runs against the store's, as
// its answers tell it: 1 when they told nothing yet, or it runs at the
// host's rate (within 5 %); 240 for a sandbox at --speed 240.
func (s *Store) PlatformRate(iface apierr.Interface) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.clocks[iface]; c != nil {
		if l, ok := c.estimate(); ok {
			return l.rate
		}
	}
	return 1
}

// PlatformClock is PlatformNow of iface as a clock.
func (s *Store) PlatformClock(iface apierr.Interface) func() time.Time {
	return func() time.Time { return s.PlatformNow(iface) }
}

// ClockOffset is how far iface's clock is ahead of the store's now
// (negative when behind), and whether its answers told anything yet.
func (s *Store) ClockOffset(iface apierr.Interface) (time.Duration, bool) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offsetLocked(iface, now)
}

func (s *Store) offsetLocked(iface apierr.Interface, now time.Time) (time.Duration, bool) {
	c := s.clocks[iface]
	if c == nil {
		return 0, false
	}
	l, ok := c.estimate()
	if !ok {
		return 0, false
	}
	return l.at(now).Sub(now), true
}

// ClockTolerance is the offset under which the platform's clock is
// reported as the host's.
func ClockTolerance() time.Duration { return clockTolerance }
