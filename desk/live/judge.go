package live

import (
	"fmt"
	"time"
)

// Judgements the store makes on demand: the data alerts again on the data
// held (new thresholds), and the staleness of the feeds polled now.

// Rejudge judges every data alert again on the data held: each feed's
// alerts on its latest data, and each combination that raises alerts
// built again. The thresholds changed (the alerts editor): what they
// raise changes now, not at the next change of the data.
func (s *Store) Rejudge() {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for t, p := range s.feeds {
		if sn := s.snaps[t]; p.feed.alerts != nil && sn.Loaded() {
			s.alerts.replaceData(t, s.judgeLocked(&p.feed, sn.data, now), now)
		}
	}
	var combos []*deriver
	for _, d := range s.derivedBy {
		if d.combine != nil && d.alerts != nil {
			combos = append(combos, d)
		}
	}
	for _, d := range combos {
		d.dirty = true
		if s.opts.Inline {
			s.buildLocked(d) // releases the lock while it builds
			continue
		}
		select {
		case d.signal <- struct{}{}:
			s.pending++
		default:
		}
	}
	s.seq++
	s.notifyLocked("")
}

// StaleFeeds is the pseudo-topic of the stale-feed alerts.
const StaleFeeds Topic = "stale"

// JudgeStale raises an alert for each feed polled now (always, or watched)
// whose data is older than warning (critical: older than critical), or
// that has been loading that long; never before three of its intervals.
// It replaces the stale alerts of the last judgement, and tells the
// subscribers only when they changed.
func (s *Store) JudgeStale(warning, critical time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var out []Alert
	for t, p := range s.feeds {
		if !p.feed.Always && s.watch[t] == 0 {
			continue
		}
		sn := s.snaps[t]
		last, what := sn.FetchedAt, "no good answer since "
		if last.IsZero() {
			last, what = sn.Since, "loading since "
		}
		if last.IsZero() {
			continue // not asked yet
		}
		w := max(warning, 3*sn.Interval)
		c := max(critical, w)
		age := now.Sub(last)
		if age < w {
			continue
		}
		isCritical, limit, sev := age >= c, w, Medium
		if isCritical {
			limit, sev = c, High
		}
		level := "warning"
		if isCritical {
			level = "critical"
		}
		a := Alert{Key: "stale:" + string(t), Severity: sev, Interface: p.feed.Interface, Code: "STALE", Topic: t,
			Title:    fmt.Sprintf("%s: %s%s UTC (%s after %s)", t, what, last.UTC().Format("15:04:05"), level, limit.Round(time.Second)),
			Guidance: "What is shown of it is old: the errors view (:errors) says why its reads fail; r reads it again now.",
			Since:    last}
		if sn.Err != nil {
			a.Title += ": " + sn.Err.Error()
		}
		out = append(out, a)
	}
	before := len(s.alerts.data[StaleFeeds])
	same := before == len(out)
	if same {
		prev := map[string]Severity{}
		for _, a := range s.alerts.data[StaleFeeds] {
			prev[a.Key] = a.Severity
		}
		for _, a := range out {
			if sev, ok := prev[a.Key]; !ok || sev != a.Severity {
				same = false
			}
		}
	}
	s.alerts.replaceData(StaleFeeds, out, now)
	if !same {
		s.seq++
		s.notifyLocked("")
	}
}
