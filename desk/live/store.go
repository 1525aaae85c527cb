// Package live is the one live store of a process: it polls the platform
// through feeds (one per topic: quotes, balances, payments, ...), keeps the
// latest snapshot of each stamped with its fetch time, keeps a bounded
// history for charts, tracks the health of each interface and raises alerts
// (spec 7.1 rule 4 and low balances). Any number of subscribers (the local
// program, each SSH session) share it: a topic is polled once, whoever
// watches it, and a slow subscriber never stalls a poller or another
// subscriber, because notifications are coalesced and never block.
//
// The store knows nothing of HTTP: a feed's Fetch calls a client. Webhook
// events enter through ApplyPaymentEvent and take the same path as a poll.
package live

import (
	"context"
	"errors"
	"sync"
	"time"

	"treasury/kit/fence"
	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Topic names what a feed fetches and what a subscriber watches.
type Topic string

// Snapshot is the latest state of a topic.
type Snapshot struct {
	Topic Topic
	// data is the last good value (nil before the first success): read it
	// typed, through the topic's key (Get).
	data any
	// FetchedAt is when Data was fetched.
	FetchedAt time.Time
	// Err is the error of the last fetch, nil when it succeeded.
	Err      error
	Interval time.Duration
	// Seq increases with every change of the snapshot.
	Seq uint64
	// Version counts the changes of this topic's data; Changes says what
	// the last one changed (by record id).
	Version uint64
	Changes Changes
	// Skipped counts the records of the last good fetch that could not be
	// read (and were left out); SkippedFirst are the first of them.
	Skipped      int
	SkippedFirst []wire.Skip
	// Partial, when set, says the last good fetch is incomplete: the
	// sources it names (a wallet, a currency) failed, the rest is current.
	Partial error
	// Since is when the topic was first fetched: how long it has been
	// loading, before its first answer.
	Since time.Time
	// Failures counts the fetches in a row that failed; NextTry is when
	// the next one is due (later than the interval while a poll that keeps
	// failing the same way backs off).
	Failures int
	NextTry  time.Time
}

// Loaded reports whether a fetch has succeeded: only then may an empty
// Data be shown as "no records".
func (s Snapshot) Loaded() bool { return !s.FetchedAt.IsZero() }

// Due reports whether a poll of the snapshot's topic is due: it is stale,
// or its interval has passed since it was fetched.
func (s Snapshot) Due(now time.Time) bool {
	return s.Stale(now) || s.Interval > 0 && !now.Before(s.FetchedAt.Add(s.Interval))
}

// Stale reports whether the snapshot should be shown as stale: never
// fetched, last fetch failed, or older than twice its interval.
func (s Snapshot) Stale(now time.Time) bool {
	if s.FetchedAt.IsZero() || s.Err != nil {
		return true
	}
	return s.Interval > 0 && now.Sub(s.FetchedAt) > 2*s.Interval
}

// Options configure a store.
type Options struct {
	Feeds []Feed
	// Now is the store's clock; time.Now when nil.
	Now func() time.Time
	// Rate is how fast Now runs against real time (the embedded sandbox's
	// speed, which can change while it runs); nil or 0 means 1. Polling
	// intervals and back-off waits are real time; a snapshot's Interval
	// and NextTry are on the store's clock, scaled by Rate, so that ages
	// and staleness agree with it.
	Rate func() float64
	// History bounds chart history (default 24 h, 8640 points per series).
	HistoryWindow time.Duration
	HistoryPoints int
	// FetchTimeout bounds one fetch (default 30 s).
	FetchTimeout time.Duration
	// ReadPayment reads a payment by id (GET /v3/payments/{id}): the full
	// record of one known only from a notification, and the details (the
	// failure's reason) of one in a terminal failure state, which the
	// filter's records do not carry (see details.go). Nil leaves partial
	// records to the next poll and reasons unread.
	ReadPayment func(ctx context.Context, id string) (payments.Payment, error)
	// DetailConcurrency bounds the reads by id in flight (default 4).
	DetailConcurrency int
	// AlertNeeds says, of a payment that lacks what a read by id gives,
	// whether an alert needs it read (its reason) without a session
	// asking, at now on the payments interface's clock (details.go). Nil:
	// only what sessions ask for is read.
	AlertNeeds func(p *payments.Payment, now time.Time) bool
	// Inline builds derivations in the goroutine that changed their source
	// (or registered them), at once: deterministic, for tests. Otherwise
	// they are built on the store's own goroutines, never the caller's.
	Inline bool
	// Idle is how long a derivation nobody watches or reads is still
	// built before it is paused (pause.go); DefaultIdle when zero.
	Idle time.Duration
}

// Store is the live store. Create it with New, start it with Start.
type Store struct {
	opts  Options
	now   func() time.Time
	feeds map[Topic]*poller

	mu        sync.Mutex
	snaps     map[Topic]Snapshot
	watch     map[Topic]int
	subs      map[*Subscription]struct{}
	history   *history
	archive   Archive // older history than memory (archive.go)
	reading   string  // what history is being read back, "" for none (SetReading)
	health    map[apierr.Interface]*Health
	alerts    *alertBook
	seq       uint64
	events    *eventLog
	started   bool
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	lastFetch map[Topic]time.Time
	fails     *failBook
	derived   map[Topic][]*deriver // by source topic
	derivedBy map[Topic]*deriver   // by derived topic
	life      context.Context      // ends with Close: the derivers' goroutines
	end       context.CancelFunc
	pending   int        // derivations signalled, not yet built (Sync)
	idle      *sync.Cond // signalled when a derivation is built
	closed    bool       // Close has begun: no goroutine starts any more
	// details reads payments by id for what only that read gives.
	details detailQueue
	// clocks estimate each interface's clock from its answers.
	clocks map[apierr.Interface]*platformClock
	// retrying holds, per interface, the calls whose last attempt failed
	// and will be tried again, by endpoint.
	retrying map[apierr.Interface]map[string]Retry
	// reads are the one-off reads pages asked for (reads.go).
	reads map[Topic]*reading
	// relay joins the store to a site's polling; relayed is what it
	// knows of each topic's messages (relay.go).
	relay   Relay
	relayed map[Topic]*relayState
}

type poller struct {
	feed    Feed
	refresh chan struct{}
	// due asks for a fetch unless one made since makes it needless (a
	// watcher arriving at a topic whose poll fell due).
	due     chan struct{}
	running sync.Mutex // one fetch at a time per topic
	// streak counts the fetches in a row that failed the same
	// non-retryable way (key); the poll backs off while it grows.
	streak int
	key    string
	// stop, set (under the store's lock) while a fetch is in flight,
	// ends it: a watcher's request arriving then has it (stillDue).
	// superseded says it was ended because the site's poller handed
	// over what it holds (relay.go): its answer is needed no more, and
	// its end is no failure.
	stop       context.CancelFunc
	superseded bool
}

func newPoller(f Feed) *poller {
	return &poller{feed: f, refresh: make(chan struct{}, 1), due: make(chan struct{}, 1)}
}

// MaxBackoff bounds the wait of a poll that keeps failing the same
// non-retryable way.
const MaxBackoff = 5 * time.Minute

// New builds a store from feeds.
func New(opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.HistoryWindow <= 0 {
		opts.HistoryWindow = 24 * time.Hour
	}
	if opts.HistoryPoints <= 0 {
		opts.HistoryPoints = 8640
	}
	if opts.FetchTimeout <= 0 {
		opts.FetchTimeout = 30 * time.Second
	}
	if opts.DetailConcurrency <= 0 {
		opts.DetailConcurrency = 4
	}
	s := &Store{
		opts: opts, now: opts.Now,
		feeds:     map[Topic]*poller{},
		snaps:     map[Topic]Snapshot{},
		watch:     map[Topic]int{},
		subs:      map[*Subscription]struct{}{},
		history:   newHistory(opts.HistoryWindow, opts.HistoryPoints),
		health:    map[apierr.Interface]*Health{},
		alerts:    newAlertBook(),
		events:    newEventLog(4096),
		lastFetch: map[Topic]time.Time{},
		fails:     newFailBook(200),
		derived:   map[Topic][]*deriver{},
		derivedBy: map[Topic]*deriver{},

		details:  newDetailQueue(),
		clocks:   map[apierr.Interface]*platformClock{},
		retrying: map[apierr.Interface]map[string]Retry{},
		reads:    map[Topic]*reading{},
	}
	s.life, s.end = context.WithCancel(context.Background())
	s.idle = sync.NewCond(&s.mu)
	for _, f := range opts.Feeds {
		s.feeds[f.Topic] = newPoller(f)
		s.snaps[f.Topic] = Snapshot{Topic: f.Topic, Interval: s.onClock(f.Interval)}
		if _, ok := s.health[f.Interface]; !ok && f.Interface != "" {
			s.health[f.Interface] = &Health{Interface: f.Interface}
		}
	}
	return s
}

// Start runs one poller per feed until ctx ends or Close.
func (s *Store) Start(ctx context.Context) {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return
	}
	s.started = true
	ctx, s.cancel = context.WithCancel(ctx)
	s.mu.Unlock()
	for _, p := range s.feeds {
		s.wg.Add(1)
		go s.run(ctx, p)
	}
	s.wg.Add(1)
	go s.pauseLoop()
}

// Close stops the pollers and the derivations and waits for them.
func (s *Store) Close() {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.end()
	s.mu.Lock()
	s.idle.Broadcast() // Sync returns once the store is closed
	s.mu.Unlock()
	s.wg.Wait()
}

// Topics lists the topics the store has feeds for.
func (s *Store) Topics() []Topic {
	out := make([]Topic, 0, len(s.feeds))
	for t := range s.feeds {
		out = append(out, t)
	}
	return out
}

// Has reports whether the store has a feed or a read (Ask) for t.
func (s *Store) Has(t Topic) bool {
	if _, ok := s.feeds[t]; ok {
		return true
	}
	return s.isRead(t)
}

func (s *Store) run(ctx context.Context, p *poller) {
	defer s.wg.Done()
	interval := p.feed.Interval
	if interval <= 0 {
		interval = 5 * time.Second
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case <-p.due:
			if !s.stillDue(p) {
				continue // a fetch since answered it; the timer runs on
			}
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		case <-p.refresh:
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		}
		wait := interval
		if s.wanted(p.feed) {
			here, again, site := s.pollHere(p)
			switch {
			case here:
				wait = s.fetch(fence.With(ctx, site), p)
			case again > 0:
				wait = min(wait, again)
			}
		}
		timer.Reset(wait)
	}
}

func (s *Store) wanted(f Feed) bool {
	if f.Always {
		return true
	}
	s.mu.Lock()
	watched := s.watch[f.Topic] > 0
	s.mu.Unlock()
	return watched || s.wantedBySite(f.Topic)
}

// stillDue reports whether p's topic is due with no fetch in flight.
func (s *Store) stillDue(p *poller) bool {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	return p.stop == nil && s.snaps[p.feed.Topic].Due(now)
}

// Refresh asks for a fetch of t now (it is coalesced with one pending),
// also while the topic backs off after repeated failures (the `r` key).
func (s *Store) Refresh(t Topic) {
	if p, ok := s.feeds[t]; ok {
		select {
		case p.refresh <- struct{}{}:
		default:
		}
		return
	}
	if s.isRead(t) {
		s.refreshRead(t)
	}
}

// FetchNow fetches t synchronously, whether or not it is watched. Tests and
// one-shot commands use it.
func (s *Store) FetchNow(ctx context.Context, t Topic) Snapshot {
	if p, ok := s.feeds[t]; ok {
		s.fetch(ctx, p)
	}
	return s.Snapshot(t)
}

// fetch runs the feed once and publishes the outcome; it returns how long
// to wait before the next poll: the interval, or more while the fetches
// keep failing the same non-retryable way (doubling, up to MaxBackoff).
func (s *Store) fetch(ctx context.Context, p *poller) time.Duration {
	p.running.Lock()
	defer p.running.Unlock()
	f := p.feed
	interval := f.Interval
	if interval <= 0 {
		interval = 5 * time.Second
	}
	s.resume(p) // the first read after taking the site's lease over
	fctx, cancel := context.WithTimeout(ctx, s.opts.FetchTimeout)
	fctx, skips := wire.WithSkips(fctx)
	fctx = s.withCommit(fctx, p)
	fctx = s.fenced(fctx, p)
	started := s.now()
	s.mu.Lock()
	if snap := s.snaps[f.Topic]; snap.Since.IsZero() {
		snap.Since = started
		s.snaps[f.Topic] = snap
	}
	p.stop, p.superseded = cancel, false
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		p.stop = nil
		s.mu.Unlock()
	}()
	v, err := f.fetch(fctx)
	cancel()
	s.mu.Lock()
	superseded := p.superseded
	s.mu.Unlock()
	if ctx.Err() != nil || superseded || fence.Fenced(err) || fence.Check(fctx) != nil {
		// Stopped, read by the site's poller meanwhile, or made under a
		// lease this process no longer holds (what it read is not the
		// site's: the poller that holds it now publishes).
		return interval
	}
	var partial *wire.Partial
	if errors.As(err, &partial) && v != nil {
		err = nil // the data is good as far as it goes: shown, with the failures named
	} else {
		partial = nil
	}
	wait := interval
	if err != nil {
		key := err.Error()
		if e, ok := apierr.As(err); ok {
			key = FailureKey(e)
		}
		if apierr.ClassOf(err).Retryable() || key != p.key {
			p.streak = 0
		} else {
			p.streak++
			wait = min(interval<<min(p.streak, 16), max(MaxBackoff, interval))
		}
		p.key = key
	} else {
		p.streak, p.key = 0, ""
	}
	at := s.now()
	took := s.offClock(at.Sub(started)) // a call's latency is real time
	if err != nil {
		s.publish(p, Polled{Error: polledError(err), At: at}, nil)
		s.failed(p, err, wait, took, at, ownRead)
		return wait
	}
	changed := s.succeeded(p, v, partial, skips.Count(), skips.List(), wait, took, at, ownRead)
	s.readWhole(p)
	s.publish(p, Polled{Same: !changed, Partial: polledPartial(partial), Skipped: skips.Count(), Skips: skips.List(), At: at}, v)
	return wait
}

// failed records a poll of p that failed with err (this process's, or
// the site's poller's): the snapshot keeps its data, marked failed, and
// the next try is wait away.
func (s *Store) failed(p *poller, err error, wait, took time.Duration, at time.Time, from origin) {
	f := p.feed
	// A call's failure the transport recorded; a partial read's calls
	// too (each names what it left unread).
	// A feed of no interface (the audit log) is not the platform's.
	var part *wire.Partial
	var poll *apierr.Error
	if e, told := apierr.As(err); told && from == siteRead {
		poll = e // the site's poller's failure: its transport recorded it there
	} else if !told && !errors.As(err, &part) && f.Interface != "" {
		poll = pollFailure(f, err, s.opts.FetchTimeout)
		err = poll
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if poll != nil {
		s.fails.add(poll, f.Topic, at)
	}
	snap := s.snaps[f.Topic]
	snap.Err, snap.NextTry, snap.Interval = err, at.Add(s.onClock(wait)), s.onClock(f.Interval)
	snap.Failures++
	s.observeLocked(f.Interface, string(f.Topic), took, err, at)
	s.seq++
	snap.Seq = s.seq
	s.snaps[f.Topic] = snap
	s.notifyLocked("") // the health of every header turns at a failed poll
	// What is derived from the topic takes its state too: rows built
	// from it say it failed, not that it is still loading.
	s.changedLocked(f.Topic, Changes{})
}

// succeeded folds a good read v of p (this process's, or the site's
// poller's) into its topic; partial names what it missed. It reports
// whether the read changed anything.
func (s *Store) succeeded(p *poller, v any, partial *wire.Partial, skipped int, skips []wire.Skip, wait, took time.Duration, at time.Time, from origin) bool {
	f := p.feed
	var partialErr error
	if partial != nil {
		partialErr = partial
		// The calls whose failure left a range unread say which.
		s.mu.Lock()
		for _, pf := range partial.Failed {
			if e, ok := apierr.As(pf.Err); ok {
				s.fails.annotate(FailureKey(e), f.Topic, partial.What+" "+pf.Name)
			}
		}
		s.mu.Unlock()
	}
	return s.update(f.Topic, v, at, from, func(snap *Snapshot) {
		snap.NextTry, snap.Interval = at.Add(s.onClock(wait)), s.onClock(f.Interval)
		snap.Skipped, snap.SkippedFirst, snap.Partial = skipped, skips, partialErr
		s.observeLocked(f.Interface, string(f.Topic), took, nil, at)
	})
}

// update folds fetched into the data of topic t (the feed's fold, outside
// the store's lock: readers never wait for it) and publishes the result.
// A fold that changed nothing, of a snapshot that was and stays good,
// only refreshes its fetch time: nobody is notified and nothing built from
// it is built again. stamp sets the snapshot's other fields, under the
// lock. It reports whether it published a change. What the site's
// poller read (from siteRead) has had its payments read by id there
// (their details come by the site too).
func (s *Store) update(t Topic, fetched any, at time.Time, from origin, stamp func(*Snapshot)) bool {
	p := s.feeds[t]
	return s.fold(t, func(prev any, loaded bool) (any, Changes) {
		if from == siteWhole {
			prev, loaded = nil, false // the poller's whole, in place of what is held
		}
		if p == nil || p.feed.fold == nil {
			return fetched, Changes{Reset: true}
		}
		data, ch := p.feed.fold(prev, fetched, at)
		if !loaded {
			ch = Changes{Reset: true} // the first data: everything is new
		}
		return data, ch
	}, func(cur *Snapshot, data any, ch Changes) bool {
		quiet := ch.Empty() && cur.Err == nil && cur.Loaded()
		skipped, partial := cur.Skipped, cur.Partial
		cur.Err, cur.Failures, cur.FetchedAt = nil, 0, at
		stamp(cur)
		if quiet && cur.Skipped == skipped && (cur.Partial == nil) == (partial == nil) {
			s.snaps[t] = *cur
			s.refetchedLocked(t)
			return false // the age moves on; readers see it at their next tick
		}
		if p != nil {
			if f := p.feed; f.samples != nil {
				for _, sm := range f.samples(fetched, data) {
					s.history.add(sm)
				}
			}
			if f := p.feed; f.alerts != nil {
				s.alerts.replaceData(t, s.judgeLocked(&f, data, at), at)
			}
		}
		if t == Payments && from == ownRead {
			s.queueDetailsLocked(data, ch)
		}
		return true
	})
}

// origin says whose read a store folds: its own, or the site's poller's
// (a read, or what it holds in place of what this process holds).
type origin uint8

const (
	ownRead origin = iota
	siteRead
	siteWhole
)

// mutate changes the data of topic t outside its feed (a webhook
// notification, a record read by id), by the same path as a poll: the
// feed's data alerts are judged again on the new data (a reason read
// later can raise the declines alert); its chart samples are not taken
// again (a poll takes them).
func (s *Store) mutate(t Topic, change func(prev any) (any, Changes)) {
	s.mutateThen(t, change, nil)
}

// mutateThen is mutate, with locked run under the store's lock as the
// change is published (or found to change nothing): what must turn with
// the data, seen by nobody in between.
func (s *Store) mutateThen(t Topic, change func(prev any) (any, Changes), locked func()) {
	p := s.feeds[t]
	_ = s.fold(t, func(prev any, _ bool) (any, Changes) { return change(prev) },
		func(cur *Snapshot, data any, ch Changes) bool {
			if locked != nil {
				locked()
			}
			now := s.now()
			if cur.FetchedAt.IsZero() {
				cur.FetchedAt = now
			}
			if ch.Empty() {
				return false
			}
			if p != nil && p.feed.alerts != nil && cur.Loaded() {
				s.alerts.replaceData(t, s.judgeLocked(&p.feed, data, now), now)
			}
			if t == Payments {
				s.queueDetailsLocked(data, ch)
			}
			return true
		})
}

// fold computes the next data of t from the data held, outside the lock,
// and publishes it unless publish (under the lock, given the snapshot to
// stamp) says there is nothing to tell. When another writer published in
// between, it folds again on that writer's result. It reports whether it
// published.
func (s *Store) fold(t Topic, next func(prev any, loaded bool) (any, Changes), publish func(cur *Snapshot, data any, ch Changes) bool) bool {
	for {
		s.mu.Lock()
		prev := s.snaps[t]
		s.mu.Unlock()
		data, ch := next(prev.data, prev.Loaded())
		s.mu.Lock()
		cur := s.snaps[t]
		if cur.Version != prev.Version {
			s.mu.Unlock()
			continue
		}
		// A poll that works after failed ones turns the health of every
		// header back; alerts its data raised or cleared show in every
		// header too.
		failed, mark, had := cur.Err != nil || cur.Failures > 0, s.alerts.journal.mark, cur.Loaded()
		if !publish(&cur, data, ch) {
			s.snaps[t] = cur
			s.mu.Unlock()
			return false
		}
		cur.Topic, cur.data, cur.Changes = t, data, ch
		cur.Version++
		s.seq++
		cur.Seq = s.seq
		s.snaps[t] = cur
		switch {
		case failed || s.alerts.journal.mark != mark:
			s.notifyLocked("")
		case had:
			s.notifyRoutineLocked(t) // new records of data held
		default:
			s.notifyLocked(t) // the first answer
		}
		s.changedLocked(t, ch)
		s.mu.Unlock()
		return true
	}
}

// Snapshot returns the latest snapshot of t.
func (s *Store) Snapshot(t Topic) Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.usedLocked(t)
	return s.snaps[t]
}

// Seq is the store's change counter: it increases with every change of any
// snapshot, health or alert.
func (s *Store) Seq() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

// Now is the store's clock.
func (s *Store) Now() time.Time { return s.now() }

// onClock is a real-time span on the store's clock (Options.Rate);
// offClock is the reverse.
func (s *Store) onClock(d time.Duration) time.Duration {
	return time.Duration(float64(d) * s.rate())
}

func (s *Store) offClock(d time.Duration) time.Duration {
	return time.Duration(float64(d) / s.rate())
}

func (s *Store) rate() float64 {
	if s.opts.Rate != nil {
		if r := s.opts.Rate(); r > 0 {
			return r
		}
	}
	return 1
}
