package live

import (
	"strings"
	"time"

	"treasury/wire/apierr"
)

// Subscription is one subscriber of the store: a program that watches some
// topics. Its channel receives a signal (coalesced: at most one pending)
// whenever a watched topic, the health or the alerts change; the subscriber
// then reads the snapshots it needs. Sending never blocks, so a slow
// subscriber only misses intermediate states, never delays anyone.
type Subscription struct {
	store    *Store
	ch       chan struct{}
	watching map[Topic]bool
	// needs are the windows this subscriber asks of windowed topics
	// (Window): the feed keeps the widest any subscriber needs.
	needs  map[Topic]time.Duration
	closed bool
	// news is whether a signal since the last News was news, not only a
	// new version of data the subscriber has (under the store's lock).
	news bool
}

// Window names a topic read over a window (the payments of the last 7
// days): watching it watches the topic and asks its feed to hold at least
// that window (Store.Need).
func Window(t Topic, d time.Duration) Topic { return Topic(string(t) + "@" + d.String()) }

// splitWindow reads a topic named by Window.
func splitWindow(t Topic) (Topic, time.Duration, bool) {
	base, win, ok := strings.Cut(string(t), "@")
	if !ok {
		return t, 0, false
	}
	d, err := time.ParseDuration(win)
	if err != nil {
		return t, 0, false
	}
	return Topic(base), d, true
}

// Need is the widest window of t that an open subscription watches (zero
// when none).
func (s *Store) Need(t Topic) time.Duration {
	s.mu.Lock()
	d := s.needLocked(t)
	s.mu.Unlock()
	return max(d, s.siteNeed(t))
}

func (s *Store) needLocked(t Topic) time.Duration {
	var d time.Duration
	for sub := range s.subs {
		d = max(d, sub.needs[t])
	}
	return d
}

// Subscribe adds a subscriber watching nothing yet.
func (s *Store) Subscribe() *Subscription {
	sub := &Subscription{store: s, ch: make(chan struct{}, 1), watching: map[Topic]bool{}}
	s.mu.Lock()
	s.subs[sub] = struct{}{}
	s.mu.Unlock()
	return sub
}

// C signals changes. It is closed by Close.
func (sub *Subscription) C() <-chan struct{} { return sub.ch }

// Watch replaces the set of topics the subscriber watches. Topics newly
// watched whose data is stale are fetched at once.
func (sub *Subscription) Watch(topics ...Topic) {
	s := sub.store
	var fresh []Topic
	s.mu.Lock()
	if sub.closed {
		s.mu.Unlock()
		return
	}
	next := make(map[Topic]bool, len(topics))
	needs := map[Topic]time.Duration{}
	for _, t := range topics {
		if base, d, ok := splitWindow(t); ok {
			needs[base] = max(needs[base], d)
			t = base
		}
		next[t] = true
	}
	grown := false
	for t, d := range needs {
		grown = grown || d > s.needLocked(t)
	}
	sub.needs = needs
	for t := range sub.watching {
		if !next[t] {
			for _, src := range s.sourcesLocked(t) {
				s.watch[src]--
			}
		}
	}
	now := s.now()
	for t := range next {
		if !sub.watching[t] {
			if d, ok := s.derivedBy[t]; ok {
				// Its build tells those who watch it; an inline one is
				// made now, before this subscriber watches it.
				s.resumeLocked(d, s.opts.Inline)
			}
			// A derivation is polled through its sources.
			for _, src := range s.sourcesLocked(t) {
				s.watch[src]++
				// A read (Ask) is made when its page asks (ReadNow). A
				// poll due while nobody watched is made now: an unwatched
				// feed looks again only an interval later (unless a
				// fetch in flight or made since is that poll: stillDue).
				if _, read := s.reads[src]; !read && s.snaps[src].Due(now) {
					fresh = append(fresh, src)
				}
			}
		}
	}
	sub.watching = next
	s.mu.Unlock()
	for _, t := range fresh {
		if p, ok := s.feeds[t]; ok {
			select {
			case p.due <- struct{}{}:
			default:
			}
		}
	}
	if grown { // a wider window than any held: its feed reads the rest now
		for t := range needs {
			for _, src := range s.sourcesOf(t) {
				s.Refresh(src)
			}
		}
	}
}

// sourcesOf are the topics t is polled through.
func (s *Store) sourcesOf(t Topic) []Topic {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sourcesLocked(t)
}

// Close removes the subscriber; its topics stop being polled for it.
func (sub *Subscription) Close() {
	s := sub.store
	s.mu.Lock()
	defer s.mu.Unlock()
	if sub.closed {
		return
	}
	sub.closed = true
	for t := range sub.watching {
		for _, src := range s.sourcesLocked(t) {
			s.watch[src]--
		}
	}
	delete(s.subs, sub)
	close(sub.ch)
}

// Polled are the interfaces the subscriber has polled: those of the feeds
// its watched topics are read from, and of the feeds always polled. For
// the others, the age of the last success grows without anything this
// subscriber shows being stale.
func (sub *Subscription) Polled() map[apierr.Interface]bool {
	s := sub.store
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[apierr.Interface]bool{}
	for _, p := range s.feeds {
		if p.feed.Always {
			out[p.feed.Interface] = true
		}
	}
	for t := range sub.watching {
		for _, src := range s.sourcesLocked(t) {
			if p, ok := s.feeds[src]; ok {
				out[p.feed.Interface] = true
			}
		}
	}
	return out
}

// Subscribers counts the open subscriptions.
func (s *Store) Subscribers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.subs)
}

// notifyLocked signals the subscribers interested in t, as news; an
// empty topic (health, alerts) or a Header topic interests everyone,
// since the header summarizes them.
func (s *Store) notifyLocked(t Topic) { s.signalSubsLocked(t, true) }

// notifyRoutineLocked signals the subscribers interested in t of a new
// version of data it had (a poll's new records): not news, unless t is a
// Header topic.
func (s *Store) notifyRoutineLocked(t Topic) { s.signalSubsLocked(t, false) }

func (s *Store) signalSubsLocked(t Topic, news bool) {
	all := t == ""
	if p, ok := s.feeds[t]; ok && p.feed.Header {
		all, news = true, true
	}
	for sub := range s.subs {
		if all || sub.watching[t] {
			sub.news = sub.news || news
			select {
			case sub.ch <- struct{}{}:
			default:
			}
		}
	}
}

// News reports whether a signal since the last call was news, to be
// shown at once: a first answer, a failure or a recovery, an alert
// raised or cleared, a change of a Header topic. The others are new
// versions of data the subscriber has, which it may read with its next
// tick.
func (sub *Subscription) News() bool {
	s := sub.store
	s.mu.Lock()
	defer s.mu.Unlock()
	n := sub.news
	sub.news = false
	return n
}
