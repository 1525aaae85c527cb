package live

import (
	"context"
	"sort"
	"time"
	"treasury/wire/apierr"
)

// Archive is chart history kept beyond the process (desk/history): it
// answers the reads of HistorySince that reach further back than the
// store's memory (HistoryWindow).
type Archive interface {
	// Points are series' points from from to to, oldest first, at most
	// about max of them.
	Points(ctx context.Context, series string, from, to time.Time, max int) ([]Point, error)
}

// ArchivePoints is how many points a read of the archive asks for: more
// than a chart has cells, few enough to draw at every poll.
const ArchivePoints = 2000

// SetArchive makes HistorySince read spans longer than the memory from a.
func (s *Store) SetArchive(a Archive) {
	s.mu.Lock()
	s.archive = a
	s.mu.Unlock()
}

// Remember adds samples read back from the archive to the memory (after
// a start, the last HistoryWindow): charts read them as their own.
func (s *Store) Remember(samples []Sample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range samples {
		s.history.add(x)
	}
}

// HistorySince returns series' points since since, oldest first: from
// memory when it holds that span (HistoryWindow), else from the archive
// (at most about ArchivePoints, aggregated) followed by the points of the
// memory newer than the archive's last. Without an archive, or when it
// cannot be read, the memory's points are all there is.
func (s *Store) HistorySince(series string, since time.Time) []Point {
	return s.historyBetween(series, since, s.now())
}

// HistoryLast is HistorySince of the last win on iface's clock: a series'
// points are at the platform's times (a quote's, a balance's), so a
// chart of "the last hour" is the platform's last hour, whatever this
// host's clock says.
func (s *Store) HistoryLast(iface apierr.Interface, series string, win time.Duration) []Point {
	now := s.PlatformNow(iface)
	return s.historyBetween(series, now.Add(-win), now)
}

func (s *Store) historyBetween(series string, since, now time.Time) []Point {
	s.mu.Lock()
	a := s.archive
	s.mu.Unlock()
	if a == nil || !since.Before(now.Add(-s.history.window)) {
		return s.historyFrom(series, since, false)
	}
	old, err := a.Points(context.Background(), series, since, now, ArchivePoints)
	if err != nil || len(old) == 0 {
		return s.historyFrom(series, since, false)
	}
	// What the process holds from before the archive's first point (a
	// history file younger than the backfill read) goes first: a longer
	// window never holds less than a shorter one.
	mem := s.historyFrom(series, since, false)
	n := sort.Search(len(mem), func(i int) bool { return !mem[i].At.Before(old[0].At) })
	out := make([]Point, 0, n+len(old))
	out = append(append(out, mem[:n]...), old...)
	return append(out, s.historyFrom(series, old[len(old)-1].At, true)...)
}

// Archived reports whether the store has an archive (SetArchive): a
// chart of a series only the archive keeps is drawn from it, or, without
// one, from what the process counted itself.
func (s *Store) Archived() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.archive != nil
}

// ArchiveBetween returns the points from from to to of a series only the
// archive keeps (the payments initiated per minute in a state, a
// runway), oldest first, at most about points of them (at most
// ArchivePoints); nil without an archive or when it cannot be read.
func (s *Store) ArchiveBetween(series string, from, to time.Time, points int) []Point {
	s.mu.Lock()
	a := s.archive
	s.mu.Unlock()
	if a == nil {
		return nil
	}
	pts, err := a.Points(context.Background(), series, from, to, min(points, ArchivePoints))
	if err != nil {
		return nil
	}
	return pts
}

// Notice raises an alert that no feed clears (a history file that was
// damaged and replaced): the operator sees it with the others.
func (s *Store) Notice(a Alert) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at := s.now()
	s.alerts.raise(a, at)
	s.alerts.noted(at, "")
	s.notifyLocked("")
}

// Withdraw clears the alert Notice raised under key, once its condition is
// over (a history file that can be written again, an audit break an
// operator acknowledged); a key not open is a no-op.
func (s *Store) Withdraw(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.alerts.byKey[key]; !ok {
		return
	}
	delete(s.alerts.byKey, key)
	s.alerts.noted(s.now(), "")
	s.notifyLocked("")
}

// SetReading says that history is being read back into the store (a
// backfill: what, such as "the platform's past quotes"), or, with "",
// that it is done: a chart drawn meanwhile says it is reading. The
// sessions are told (with their next tick), so a chart does not go on
// saying it reads until something else changes.
func (s *Store) SetReading(what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reading == what {
		return
	}
	s.reading = what
	s.seq++
	s.notifyRoutineLocked("")
}

// Reading is what history is being read back; "" for none.
func (s *Store) Reading() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reading
}
