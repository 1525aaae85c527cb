package live

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"treasury/kit/fence"
	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Past one host, the stores of a site's processes share one poller: the
// process that holds the site's lease polls the platform and hands the
// site what each poll read (Relay.Publish); every other process applies
// it (Store.Apply) by the same fold as its own answer would take, so
// every session on every bastion sees the same data and the site costs
// the platform what one process costs.
//
// What the poller publishes are changes, and the changes of a window
// (quotes, payments) mean nothing without what they change: a process
// that does not poll first asks the poller for what it holds of a topic
// (Relay.AskWhole; the poller publishes it whole, once for every process
// that asked), and again when it finds it missed a message. Only when
// nobody answers (no poller, or one that cannot) does it read the topic
// itself, to the whole of its window. A topic nobody polls while this
// process watches it is asked of the poller (Relay.Want). A feed of no
// interface (the audit log) is this process's own and never relayed.

// Relay is a store's membership of a site's polling (desk/site
// implements it on NATS).
type Relay interface {
	// Poller is who polls the site now, as this process knows it.
	Poller() Poller
	// Publish hands the site what this process's poll of t read.
	Publish(t Topic, m Polled)
	// Want says that this process, which does not poll, watches t and
	// needs need of its window (Store.Need); it says so again every
	// interval while it does.
	Want(t Topic, need, every time.Duration)
	// Wanted is whether another process of the site watches t, and the
	// widest window they need of it.
	Wanted(t Topic) (bool, time.Duration)
	// AskWhole asks the poller to publish what it holds of t, whole
	// (Store.WholeMessage).
	AskWhole(t Topic)
	// WantDetails hands the poller the payments this process's sessions
	// show, to read by id (Store.WantDetails): it reads them, once for
	// the site, and publishes them (DetailsTopic).
	WantDetails(ids []string)
	// ReadsHere says that this process, which does not poll for the
	// site, reads t itself from now on, and why (nobody polls; the poller
	// did not send it whole when asked): once each time it starts to, so
	// that an operator can tell a follower's own reads from the site's.
	ReadsHere(t Topic, why string)
	// Fence is the check each read of a poll starting now carries, asked
	// immediately before each request leaves (kit/fence): it fails once
	// the lease the poll was started under is gone or superseded. Nil
	// when this process does not poll for the site.
	Fence() func() error
}

// Poller is who polls a site's platform.
type Poller struct {
	// Node is the polling process's bastion ("" when none is known) and
	// Since when it took the lease.
	Node  string
	Since time.Time
	// Here is whether this process polls.
	Here bool
	// Alone, when set, says why this process polls on its own, without
	// the site: the site cannot be reached, or no process of it polls.
	Alone string
}

// Polled is one poll's outcome as the site carries it from the poller to
// the others.
type Polled struct {
	// Proc is the publishing process; Seq counts its messages of the
	// topic since it took the lease, from 1: a follower that finds one
	// missing reads the topic itself again.
	Proc string `json:"proc"`
	Seq  uint64 `json:"seq"`
	// Data is the feed's answer as its fold takes it; Same, instead, says
	// the poll read nothing new.
	Data json.RawMessage `json:"data,omitempty"`
	Same bool            `json:"same,omitempty"`
	// Part says Data is a part of a read still going on (Commit); Whole
	// that it is what the poller holds (WholeMessage), not a read.
	Part  bool `json:"part,omitempty"`
	Whole bool `json:"whole,omitempty"`
	// Error is the poll's failure; Partial the sources a good read
	// missed.
	Error   *apierr.Error  `json:"error,omitempty"`
	Partial *PolledPartial `json:"partial,omitempty"`
	Skipped int            `json:"skipped,omitempty"`
	Skips   []wire.Skip    `json:"skips,omitempty"`
	At      time.Time      `json:"at"`
	// Cursor is where the poller's reads of the topic are after this one
	// (FeedOptions.Cursor): its successor goes on from there.
	Cursor json.RawMessage `json:"cursor,omitempty"`
	// Platform is the platform's time at At as the poller's clock of the
	// feed's interface reads it: a follower, which reads no Date header
	// of its own, keeps its platform clock on the poller's (a sandbox's
	// clock running fast would leave it behind, and its ages, alerts and
	// notifications' tolerance with it).
	Platform time.Time `json:"platform,omitzero"`
}

// PolledPartial is a wire.Partial as the site carries it: the failures'
// texts.
type PolledPartial struct {
	What   string         `json:"what"`
	Of     int            `json:"of"`
	Failed []PolledSource `json:"failed"`
}

// PolledSource is a source a partial read missed, and why.
type PolledSource struct {
	Name string `json:"name"`
	Err  string `json:"err"`
}

// DetailsTopic carries the payments the poller read by id (their
// failure's reasons, details.go): the others fold them in, and read none
// themselves.
const DetailsTopic Topic = "payments.details"

// ShareWith joins the store to a site's polling before Start.
func (s *Store) ShareWith(r Relay) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.relay = r
	s.relayed = map[Topic]*relayState{}
}

// relayState is what a process that does not poll knows of a topic's
// messages: the last applied, and whether it holds the topic whole.
type relayState struct {
	proc string
	seq  uint64
	// whole: the topic is held as the poller holds it (its whole, or a
	// read here in full), and no message since was missed.
	whole bool
	// asked is when this process last asked the poller for the topic
	// whole, asks how many times since it last held it.
	asked time.Time
	asks  int
	// cursor is where the poller's reads were at the last message
	// applied in step: taken over with the lease (resumeLocked).
	cursor json.RawMessage
	// here: this process reads the topic itself, out of step (said once
	// to the site: Relay.ReadsHere).
	here bool
}

const (
	// wholeAsks is how many times a process asks the poller for a topic
	// whole, wholeAskEvery apart, before it reads the topic itself.
	wholeAsks     = 3
	wholeAskEvery = 3 * time.Second
	// wholeAskAgain is how long a process that asked in vain reads the
	// topic itself before it asks again.
	wholeAskAgain = 30 * time.Second
)

// relayStateLocked is t's state, made when first needed.
func (s *Store) relayStateLocked(t Topic) *relayState {
	st := s.relayed[t]
	if st == nil {
		st = &relayState{}
		s.relayed[t] = st
	}
	return st
}

// Poller is who polls the store's platform: this process alone when the
// store is not part of a site.
func (s *Store) Poller() Poller {
	if r := s.siteRelay(); r != nil {
		return r.Poller()
	}
	return Poller{Here: true}
}

// PollerChanged tells every session that the poller changed (the header
// names it).
func (s *Store) PollerChanged() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	s.notifyLocked("")
}

func (s *Store) siteRelay() Relay {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.relay
}

// relays reports whether p's polls are the site's (not this process's
// own, like the audit log's).
func relays(p *poller) bool { return p.feed.Interface != "" && p.feed.encode != nil }

// pollHere reports whether this process reads p's topic itself now: it
// is not in a site, it polls the site, the feed is its own, or it is out
// of step with the poller and asking it did not help. Otherwise it asks
// the poller for the topic (whole, when out of step) and says how soon
// to look again (zero: the feed's interval). A read it makes because
// this process polls for the site carries the check of the lease it
// polled under (site), taken with the decision: a process that was
// stopped decides with what it last knew, and learns at its next beat
// that another took the lease; its read then made as a follower's own
// would have gone out with no check at all.
func (s *Store) pollHere(p *poller) (here bool, again time.Duration, site func() error) {
	r := s.siteRelay()
	if r == nil || !relays(p) {
		return true, 0, nil
	}
	pl := r.Poller()
	if pl.Here {
		check := r.Fence()
		if check == nil {
			check = notPolling // no longer polls since
		}
		return true, 0, check
	}
	t := p.feed.Topic
	now := s.now()
	s.mu.Lock()
	st := s.relayStateLocked(t)
	watched, need := s.watch[t] > 0, s.needLocked(t)
	inStep, ask := st.whole, false
	if st.asks >= wholeAsks && now.Sub(st.asked) >= wholeAskAgain {
		st.asks = 0 // asked in vain a while ago (a poller that just came): again
	}
	if !inStep && pl.Node != "" && st.asks < wholeAsks && now.Sub(st.asked) >= wholeAskEvery {
		st.asked, ask = now, true
		st.asks++
	}
	waiting := !inStep && pl.Node != "" && (st.asks < wholeAsks || now.Sub(st.asked) < wholeAskEvery)
	s.mu.Unlock()
	if watched || need > 0 {
		r.Want(t, need, p.feed.Interval)
	}
	if ask {
		r.AskWhole(t)
	}
	switch {
	case waiting:
		return false, wholeAskEvery, nil
	case inStep:
		return false, 0, nil
	}
	s.mu.Lock()
	told := st.here
	st.here = true
	s.mu.Unlock()
	if !told {
		why := "nobody polls the site"
		if pl.Node != "" {
			why = fmt.Sprintf("the poller (%s) did not send it whole when asked %d times, %s apart", pl.Node, wholeAsks, wholeAskEvery)
		}
		r.ReadsHere(t, why)
	}
	return true, 0, nil
}

// fenced is ctx carrying the site's lease check for a read of p's topic
// (or by id) that this process makes for the site.
func (s *Store) fenced(ctx context.Context, p *poller) context.Context {
	r := s.siteRelay()
	if r == nil || p != nil && !relays(p) {
		return ctx
	}
	return fence.With(ctx, r.Fence())
}

// ForSite is ctx carrying the site's lease check for a read this
// process makes for the site besides its polls (the platform's past read
// back): held back (fence.ErrFenced) whenever this process does not poll
// for the site, as a poll is once its lease is gone. A store not part of
// a site reads for itself: ctx as it is.
func (s *Store) ForSite(ctx context.Context) context.Context {
	r := s.siteRelay()
	if r == nil {
		return ctx
	}
	check := r.Fence()
	if check == nil {
		check = notPolling
	}
	return fence.With(ctx, check)
}

func notPolling() error {
	return fmt.Errorf("%w (another process polls the site)", fence.ErrFenced)
}

// resume has p's feed go on from where the site's last poller left it,
// once, when this process polls after following in step: the hand-over
// reads what is new since, not the window again.
func (s *Store) resume(p *poller) {
	if p.feed.resume == nil {
		return
	}
	if r := s.siteRelay(); r == nil || !r.Poller().Here {
		return
	}
	s.mu.Lock()
	st := s.relayed[p.feed.Topic]
	var c json.RawMessage
	if st != nil && st.whole {
		c = st.cursor
	}
	if st != nil {
		st.cursor = nil
	}
	s.mu.Unlock()
	if c != nil {
		p.feed.resume(c)
	}
}

// wantedBySite reports whether another process of the site watches t,
// when this one polls for it.
func (s *Store) wantedBySite(t Topic) bool {
	r := s.siteRelay()
	if r == nil || !r.Poller().Here {
		return false
	}
	ok, _ := r.Wanted(t)
	return ok
}

// siteNeed is the widest window of t another process of the site needs,
// when this one polls for it.
func (s *Store) siteNeed(t Topic) time.Duration {
	r := s.siteRelay()
	if r == nil || !r.Poller().Here {
		return 0
	}
	_, d := r.Wanted(t)
	return d
}

// readWhole records that this process read t itself, in full: the
// messages from now on change what it holds.
func (s *Store) readWhole(p *poller) {
	if !relays(p) || p.feed.whole != nil && !p.feed.whole() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.relayed == nil {
		return
	}
	st := s.relayStateLocked(p.feed.Topic)
	st.whole, st.asks, st.here = true, 0, false
}

// publish hands the site what this process's poll (or a part of it) read,
// when it polls the site. seqs counts each topic's messages.
func (s *Store) publish(p *poller, m Polled, v any) {
	r := s.siteRelay()
	if r == nil || !relays(p) {
		return
	}
	if pl := r.Poller(); !pl.Here || pl.Alone != "" {
		return
	}
	if p.feed.cursor != nil {
		m.Cursor = p.feed.cursor()
	}
	if !m.At.IsZero() && s.knowsClock(p.feed.Interface) {
		m.Platform = s.PlatformTime(p.feed.Interface, m.At)
	}
	if !m.Same && m.Error == nil {
		b, err := p.feed.encode(v)
		if err != nil {
			m.Error = &apierr.Error{Interface: p.feed.Interface, Poll: string(p.feed.Topic), Message: "the poller could not encode its answer: " + err.Error()}
		} else {
			m.Data = b
		}
	}
	r.Publish(p.feed.Topic, m)
}

// publishDetails hands the site the payments this process read by id.
func (s *Store) publishDetails(batch []payments.Payment) {
	r := s.siteRelay()
	if r == nil || len(batch) == 0 {
		return
	}
	if pl := r.Poller(); !pl.Here || pl.Alone != "" {
		return
	}
	b, err := json.Marshal(batch)
	if err != nil {
		return
	}
	r.Publish(DetailsTopic, Polled{Data: b, At: s.now()})
}

// Apply folds what the site's poller read of t into the store, as if this
// process had read it. A message that does not follow the last one
// applied (one was lost) leaves the topic to this process's next own
// read. The poller's own messages come back to it; it ignores them.
func (s *Store) Apply(t Topic, m Polled) {
	r := s.siteRelay()
	if r == nil || r.Poller().Here {
		return
	}
	if t == DetailsTopic {
		var batch []payments.Payment
		if json.Unmarshal(m.Data, &batch) != nil {
			return
		}
		for i := range batch {
			batch[i].Detailed = true
		}
		s.PutPayments(batch)
		return
	}
	p, ok := s.feeds[t]
	if !ok || !relays(p) {
		return
	}
	s.mu.Lock()
	if !m.Platform.IsZero() && !m.At.IsZero() {
		s.clockOf(p.feed.Interface).addExact(m.At, m.Platform)
	}
	st := s.relayStateLocked(t)
	// The first message of a new poller (its lease just taken) reads from
	// where the last one left off: it follows.
	follows := m.Proc == st.proc && m.Seq == st.seq+1 || m.Proc != st.proc && m.Seq == 1
	st.proc, st.seq = m.Proc, m.Seq
	was := st.whole
	if !follows {
		st.whole, st.asks, st.asked = false, 0, time.Time{} // ask at once
	}
	whole := st.whole
	switch {
	case whole || m.Whole:
		if m.Cursor != nil {
			st.cursor = m.Cursor
		}
	default:
		st.cursor = nil // out of step: a successor reads afresh
	}
	s.mu.Unlock()
	if m.Whole {
		if !whole {
			s.applyWhole(p, m)
		}
		return // in step already: it holds what the message holds
	}

	if !whole {
		if was {
			s.Refresh(t) // out of step just now: ask the poller at once
		}
		return
	}
	at := s.now()
	f := p.feed
	switch {
	case m.Error != nil:
		e := *m.Error
		e.Interface = cmp.Or(e.Interface, f.Interface)
		if e.Method == "" {
			e.Poll = cmp.Or(e.Poll, string(t))
		}
		s.failed(p, &e, f.Interval, 0, at, siteRead)
	case m.Same:
		s.mu.Lock()
		snap := s.snaps[t]
		if snap.Loaded() && snap.Err == nil {
			snap.FetchedAt, snap.NextTry = at, at.Add(s.onClock(f.Interval))
			s.snaps[t] = snap
			s.observeLocked(f.Interface, string(t), 0, nil, at)
			s.refetchedLocked(t)
		}
		s.mu.Unlock()
	default:
		v, err := f.decode(m.Data)
		if err != nil {
			s.failed(p, &apierr.Error{Interface: f.Interface, Poll: string(t), Class: apierr.ClassMalformed,
				Message: fmt.Sprintf("the site's poller sent an answer this process cannot read: %v", err)}, f.Interval, 0, at, siteRead)
			s.mu.Lock()
			st.whole = false
			s.mu.Unlock()
			return
		}
		if m.Part {
			s.update(t, v, at, siteRead, func(snap *Snapshot) {
				snap.Interval = s.onClock(f.Interval)
				if snap.NextTry.Before(at) {
					snap.NextTry = at.Add(s.onClock(f.Interval))
				}
			})
			return
		}
		s.succeeded(p, v, m.partial(), m.Skipped, m.Skips, f.Interval, 0, at, siteRead)
	}
}

// applyWhole takes what the poller holds of p's topic in place of what
// this process holds: from now on it is in step.
func (s *Store) applyWhole(p *poller, m Polled) {
	f := p.feed
	v, err := f.decode(m.Data)
	if err != nil {
		return // asked again, then read here
	}
	at := s.now()
	if !m.At.IsZero() && m.At.Before(at) {
		at = m.At // the poller's read, not this copy, says how old it is
	}
	s.update(f.Topic, v, at, siteWhole, func(snap *Snapshot) {
		snap.Interval = s.onClock(f.Interval)
		snap.NextTry = s.now().Add(s.onClock(f.Interval))
	})
	s.mu.Lock()
	st := s.relayStateLocked(f.Topic)
	st.whole, st.asks, st.here = true, 0, false
	if p.stop != nil {
		p.superseded = true
		p.stop() // this process's own read of the topic is needed no more
	}
	s.mu.Unlock()
}

// WholeMessage is what this process holds of t as the poller publishes
// it to a process that asked (Relay.AskWhole): false while it holds
// nothing of t.
func (s *Store) WholeMessage(t Topic) (Polled, bool) {
	p, ok := s.feeds[t]
	if !ok || !relays(p) || p.feed.asRead == nil {
		return Polled{}, false
	}
	s.mu.Lock()
	snap := s.snaps[t]
	s.mu.Unlock()
	if !snap.Loaded() {
		return Polled{}, false
	}
	v, ok := p.feed.asRead(snap.data, snap.FetchedAt)
	if !ok {
		return Polled{}, false
	}
	b, err := p.feed.encode(v)
	if err != nil {
		return Polled{}, false
	}
	m := Polled{Whole: true, Data: b, At: snap.FetchedAt}
	if p.feed.cursor != nil {
		m.Cursor = p.feed.cursor()
	}
	return m, true
}

// partial is the message's partial read as the store holds it.
func (m Polled) partial() *wire.Partial {
	if m.Partial == nil {
		return nil
	}
	p := &wire.Partial{What: m.Partial.What, Of: m.Partial.Of}
	for _, f := range m.Partial.Failed {
		p.Failed = append(p.Failed, wire.Failure{Name: f.Name, Err: errors.New(f.Err)})
	}
	return p
}

// polledPartial is a partial read as the site carries it.
func polledPartial(p *wire.Partial) *PolledPartial {
	if p == nil {
		return nil
	}
	out := &PolledPartial{What: p.What, Of: p.Of}
	for _, f := range p.Failed {
		out.Failed = append(out.Failed, PolledSource{Name: f.Name, Err: f.Err.Error()})
	}
	return out
}

// polledError is a poll's failure as the site carries it: the platform's
// error without its cause (an error value does not travel).
func polledError(err error) *apierr.Error {
	if e, ok := apierr.As(err); ok {
		c := *e
		c.Cause = nil
		return &c
	}
	return &apierr.Error{Message: err.Error()}
}

// Asked tells the store, when it polls for the site, that another
// process began to watch t: a topic due is read now, as for a watcher
// of its own.
func (s *Store) Asked(t Topic) {
	if p, ok := s.feeds[t]; ok {
		select {
		case p.due <- struct{}{}:
		default:
		}
	}
}
