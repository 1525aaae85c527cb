package live

import (
	"context"
	"errors"
	"fmt"
	"time"

	"treasury/wire/apierr"
)

// Read declares a family of one-off reads: a payment by id, its states, a
// wallet's limits, a report's rows. Each argument names one read, a topic
// of the store like any feed's (Ask gives its key): a page reads it with
// Get, as it reads a table, and every session that asks for the same
// argument shares one answer. A read is made when a page asks for it
// (ReadNow), not polled; the `r` key reads it again.
type Read[A, T any] struct {
	// Name prefixes the reads' topics ("payment", "wallet-limits").
	Name      string
	Interface apierr.Interface
	Fetch     func(ctx context.Context, arg A) (T, error)
	// ID, when set, names an argument in its topic (a report by its id,
	// a filter by its JSON); otherwise the argument's printed value does.
	// Two arguments with one name are one read.
	ID func(arg A) string
}

// reading is one read of the store: how to make it, and the fetch in
// flight if any.
type reading struct {
	fetch func(ctx context.Context) (any, error)
	// inflight is closed when the fetch in flight ends; nil when none.
	inflight chan struct{}
	// used is when a page last asked for it: the reads kept beyond
	// maxReads are the least recently asked.
	used time.Time
}

// maxReads bounds the reads a store keeps: beyond it, the least recently
// asked that no session watches are dropped.
const maxReads = 256

// Ask returns the key of r's read of arg, declaring it in s on first use.
// The key's data is the zero T, loading, until ReadNow answers.
func Ask[A, T any](s *Store, r Read[A, T], arg A) Key[T] {
	id := fmt.Sprint(arg)
	if r.ID != nil {
		id = r.ID(arg)
	}
	t := Topic(r.Name + ":" + id)
	s.mu.Lock()
	defer s.mu.Unlock()
	if rd, ok := s.reads[t]; ok {
		rd.used = s.now()
		return Key[T]{topic: t}
	}
	s.evictReadsLocked()
	fetch := r.Fetch
	s.reads[t] = &reading{used: s.now(), fetch: func(ctx context.Context) (any, error) {
		if fetch == nil {
			return nil, fmt.Errorf("%w: %s declares no fetch", ErrNoRead, t)
		}
		return fetch(ctx, arg)
	}}
	s.snaps[t] = Snapshot{Topic: t}
	return Key[T]{topic: t}
}

// evictReadsLocked drops the least recently asked read that nobody
// watches and none fetches while the store holds maxReads or more.
func (s *Store) evictReadsLocked() {
	for len(s.reads) >= maxReads {
		var oldest Topic
		var at time.Time
		for t, rd := range s.reads {
			if s.watch[t] > 0 || rd.inflight != nil {
				continue
			}
			if oldest == "" || rd.used.Before(at) {
				oldest, at = t, rd.used
			}
		}
		if oldest == "" {
			return // every read is in use: the bound gives way
		}
		delete(s.reads, oldest)
		delete(s.snaps, oldest)
	}
}

// ErrNoRead is ReadNow's error for a topic that is not a read of the
// store (never asked, or dropped since).
var ErrNoRead = errors.New("live: no such read")

// ReadNow makes the read of topic t (a key of Ask) and publishes its
// answer as a poll's: the subscribers watching t are told. A read of t in
// flight is not made twice: ReadNow waits for it. Data held that was
// fetched after `after` (on the store's clock) is kept, not read again: every session that saw one change asks with the same time and
// one read serves them all; a zero after keeps any data held, so that a
// read is made once (a read that failed is made again). A read cut short
// by ctx (the session that asked ended) leaves the snapshot as it was.
func (s *Store) ReadNow(ctx context.Context, t Topic, after time.Time) Snapshot {
	s.mu.Lock()
	rd, ok := s.reads[t]
	if !ok {
		s.mu.Unlock()
		return Snapshot{Topic: t, Err: fmt.Errorf("%w: %s", ErrNoRead, t)}
	}
	now := s.now()
	rd.used = now
	if ch := rd.inflight; ch != nil {
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
		}
		return s.Snapshot(t)
	}
	snap := s.snaps[t]
	if snap.Loaded() && snap.Err == nil && snap.FetchedAt.After(after) {
		s.mu.Unlock()
		return snap
	}
	done := make(chan struct{})
	rd.inflight = done
	if snap.Since.IsZero() {
		snap.Since = now
		s.snaps[t] = snap
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		rd.inflight = nil
		s.mu.Unlock()
		close(done)
	}()

	v, err := rd.fetch(ctx)
	at := s.now()
	switch {
	case ctx.Err() != nil && err != nil:
		// The asker went away: nobody else's answer is this error.
	case err != nil:
		s.mu.Lock()
		snap := s.snaps[t]
		snap.Err, snap.NextTry = err, time.Time{}
		snap.Failures++
		s.seq++
		snap.Seq = s.seq
		s.snaps[t] = snap
		s.notifyLocked(t)
		s.mu.Unlock()
	default:
		s.update(t, v, at, ownRead, func(snap *Snapshot) { snap.NextTry = time.Time{} })
	}
	return s.Snapshot(t)
}

// isRead reports whether t is a read of the store.
func (s *Store) isRead(t Topic) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.reads[t]
	return ok
}

// refreshRead reads t again in the background (the `r` key): what watches
// it is told when the answer is in.
func (s *Store) refreshRead(t Topic) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.life, s.opts.FetchTimeout)
		defer cancel()
		s.ReadNow(ctx, t, s.now())
	}()
}
