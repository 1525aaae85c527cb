package live

import (
	"context"
	"fmt"
	"time"

	"treasury/desk/audit"
)

// AuditInterval is how often the Audit topic is read again while watched:
// what another process (a second dashboard, `treasury serve`) appended to
// the same file appears within it. This process's appends appear at once.
const AuditInterval = 5 * time.Second

// AddFeed adds a feed to a store that has not started (a topic whose
// source opens after the platform's clients: the audit log).
func (s *Store) AddFeed(f Feed) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return fmt.Errorf("live: feed %s added after Start", f.Topic)
	}
	if _, ok := s.feeds[f.Topic]; ok {
		return fmt.Errorf("live: feed %s added twice", f.Topic)
	}
	s.feeds[f.Topic] = newPoller(f)
	s.snaps[f.Topic] = Snapshot{Topic: f.Topic, Interval: s.onClock(f.Interval)}
	return nil
}

// FollowAudit makes the Audit topic the last records of l, newest first:
// read when a session watches it, again every AuditInterval while one
// does, and at once after each append of this process (and each read that
// found another process's lines), before the append returns, so every
// session sees an action as soon as the one that did it shows its result.
// Call it before Start.
func FollowAudit(s *Store, l *audit.Log) error {
	if err := s.AddFeed(ListFeed(AuditKey, audit.ID,
		func(context.Context) ([]audit.Record, error) { return l.Recent() },
		FeedOptions[[]audit.Record, []audit.Record]{Interval: AuditInterval})); err != nil {
		return err
	}
	l.OnChange(func() { s.FetchNow(s.life, Audit) })
	return nil
}
