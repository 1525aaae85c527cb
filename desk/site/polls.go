package site

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"treasury/desk/live"
)

// PollerBucket holds the site's lease to poll the platform: one key,
// put by the process that polls every leaseBeat and gone leaseTTL after
// its last put (a process killed loses it within leaseTTL), taken by
// compare-and-set (Create), kept by the same (Update at its revision).
const PollerBucket = "TREASURY_POLLER"

const (
	pollerKey = "poller"
	leaseTTL  = 6 * time.Second
	leaseBeat = 2 * time.Second
	// AloneAfter is how long a process that cannot reach the site, or
	// finds nobody polling it, waits before it polls on its own: a
	// poller's lease runs out within leaseTTL, and another takes it
	// within a beat after.
	AloneAfter = 15 * time.Second
	// dataSubject prefixes each topic's messages; wantSubject carries
	// the topics the processes that do not poll watch.
	dataSubject = "treasury.data."
	wantSubject = "treasury.want"
)

// lease is the lease's value: who polls, since when.
type lease struct {
	Node  string    `json:"node"`
	Proc  string    `json:"proc"`
	Since time.Time `json:"since"`
}

// want is a process's request that the poller read a topic it watches,
// or (Whole) publish what it holds of it, or (Details) read by id the
// payments its sessions show.
type want struct {
	Topic   live.Topic    `json:"topic,omitempty"`
	Need    time.Duration `json:"need,omitempty"`
	Every   time.Duration `json:"every,omitempty"`
	Whole   bool          `json:"whole,omitempty"`
	Details []string      `json:"details,omitempty"`
}

// wholeEvery is the least time between two publications of a topic
// whole: one serves every process that asked meanwhile.
const wholeEvery = time.Second

// Polling is a store's membership of the site's polling (a live.Relay):
// the process that holds the lease polls and publishes what it read; the
// others apply it. Only processes that compete (treasury serve) take the
// lease; the others (a local dashboard) follow, and poll on their own
// only while nobody polls the site or it cannot be reached.
type Polling struct {
	s       *Site
	store   *live.Store
	proc    string
	compete bool

	mu    sync.Mutex
	now   live.Poller // as last decided
	held  uint64      // the lease's revision while this process holds it
	since time.Time   // when this process took it
	// term is the revision at which this process took the lease (its
	// fencing token), renewed when its last put was sent that the site
	// took: the lease holds at least leaseTTL from then.
	term    uint64
	renewed time.Time
	decided time.Time // when p.now was last decided
	retake  bool      // this process's lease was just found gone: taken again as it was
	// heard is the last other process heard to hold the lease, at
	// heardAt (holder.go).
	heard   lease
	heardAt time.Time
	holder  lease     // the last holder read
	lastOK  time.Time // the last time the bucket answered
	// unreached is since when the beats have not reached the site (zero:
	// the last did), lastTry when the last beat began: a process stopped
	// (SIGSTOP) or starved between two beats counts from its first beat
	// after, not the time away, before it polls alone.
	unreached time.Time
	lastTry   time.Time
	lastErr   error
	empty     time.Time // since when nobody has held the lease (zero: someone does)
	seqs      map[live.Topic]uint64
	wants     map[live.Topic]wantSeen
	wholes    map[live.Topic]time.Time // when each topic was last published whole
	sent      uint64                   // messages and bytes published
	bytes     uint64
	drops     uint64 // messages that could not be published

	// sendMu keeps each topic's messages in the order of their sequence
	// numbers, and a topic published whole in step with its reads.
	sendMu sync.Mutex
	unpack unpacker // the data subscription's pieces (one goroutine)
	subs   []*nats.Subscription
	stall  sync.Mutex // held around each beat
	stop   chan struct{}
	done   chan struct{}
}

type wantSeen struct {
	until time.Time
	need  time.Duration
}

// SharePolls joins store to the site's polling (before store starts);
// compete says this process may poll for the site. Stop ends it (and
// hands the lease on at once).
func (s *Site) SharePolls(store *live.Store, compete bool) (*Polling, error) {
	p := &Polling{s: s, store: store, proc: uuid.NewString(), compete: compete, lastOK: time.Now(),
		seqs: map[live.Topic]uint64{}, wants: map[live.Topic]wantSeen{}, wholes: map[live.Topic]time.Time{}, stop: make(chan struct{}), done: make(chan struct{})}
	data, err := s.nc.Subscribe(dataSubject+">", p.apply)
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	// A slow fold drops messages rather than holding the connection: the
	// sequence then tells the store to ask the poller for the topic whole.
	_ = data.SetPendingLimits(4096, 256<<20)
	wants, err := s.nc.Subscribe(wantSubject, p.wanted)
	if err != nil {
		_ = data.Unsubscribe()
		return nil, fmt.Errorf("site: %w", err)
	}
	beats, err := s.nc.Subscribe(beatSubject, p.heardBeat)
	if err != nil {
		_ = data.Unsubscribe()
		_ = wants.Unsubscribe()
		return nil, fmt.Errorf("site: %w", err)
	}
	p.subs = []*nats.Subscription{data, wants, beats}
	store.ShareWith(p)
	// The first beat before the store starts: its first polls know who
	// polls (or that this process does), not read the platform meanwhile.
	var kv jetstream.KeyValue
	p.step(&kv)
	go p.run(kv)
	return p, nil
}

// Stop leaves the site's polling; a process that polls gives up its
// lease, so another takes it at its next beat.
func (p *Polling) Stop() {
	select {
	case <-p.stop:
		return
	default:
		close(p.stop)
	}
	<-p.done
	for _, sub := range p.subs {
		_ = sub.Unsubscribe()
	}
	p.mu.Lock()
	held := p.held
	p.mu.Unlock()
	if held != 0 {
		p.sayAlive(true)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if kv, err := p.bucket(ctx); err == nil {
			_ = kv.Delete(ctx, pollerKey, jetstream.LastRevision(held))
		}
	}
}

func (p *Polling) bucket(ctx context.Context) (jetstream.KeyValue, error) {
	return p.s.pollerBucket(ctx)
}

func (s *Site) pollerBucket(ctx context.Context) (jetstream.KeyValue, error) {
	if err := s.connected(); err != nil {
		return nil, err
	}
	// On file, not in memory: a node restarted keeps its replica of the
	// lease, so two nodes restarted lately can elect the bucket's leader
	// while the third (the one that led it) is stopped; in memory they
	// could not, for a minute and more, and every process polled alone.
	cfg := jetstream.KeyValueConfig{Bucket: PollerBucket,
		Description: "treasury: the lease of the process that polls the platform for the site", History: 1,
		TTL: leaseTTL, Storage: jetstream.FileStorage, Replicas: s.opts.Replicas}
	return s.fileBucket(ctx, cfg)
}

// fileBucket makes or updates a bucket kept on file. One an earlier
// version made in memory is made again: its keys are leases and beats,
// which their holders put again within their TTL.
func (s *Site) fileBucket(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := s.js.CreateOrUpdateKeyValue(ctx, cfg)
	if err == nil || !s.storedElsewhere(ctx, cfg) {
		return kv, err
	}
	if derr := s.js.DeleteKeyValue(ctx, cfg.Bucket); derr != nil && !errors.Is(derr, jetstream.ErrBucketNotFound) {
		return nil, err
	}
	return s.js.CreateOrUpdateKeyValue(ctx, cfg)
}

// storedElsewhere reports whether the bucket cfg names exists on another
// storage than cfg's (the stream's storage cannot be changed in place).
func (s *Site) storedElsewhere(ctx context.Context, cfg jetstream.KeyValueConfig) bool {
	kv, err := s.js.KeyValue(ctx, cfg.Bucket)
	if err != nil {
		return false
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return false
	}
	bs, ok := st.(*jetstream.KeyValueBucketStatus)
	return ok && bs.StreamInfo().Config.Storage != cfg.Storage
}

// Poller reads who holds the site's lease to poll: its node and since
// when; a zero Poller when nobody does.
func (s *Site) Poller(ctx context.Context) (live.Poller, error) {
	kv, err := s.pollerBucket(ctx)
	if err != nil {
		return live.Poller{}, err
	}
	e, err := kv.Get(ctx, pollerKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return live.Poller{}, nil
	}
	if err != nil {
		return live.Poller{}, err
	}
	var l lease
	if err := json.Unmarshal(e.Value(), &l); err != nil {
		return live.Poller{}, fmt.Errorf("site: the poller's lease: %w", err)
	}
	return live.Poller{Node: l.Node, Since: l.Since}, nil
}

func (p *Polling) run(kv jetstream.KeyValue) {
	defer close(p.done)
	for {
		select {
		case <-p.stop:
			return
		case <-time.After(leaseBeat):
		}
		p.stall.Lock() // held by a test: the beats frozen, as by SIGSTOP
		p.step(&kv)
		p.stall.Unlock()
	}
}

// step is one beat: the lease kept, taken or read, and who polls decided.
func (p *Polling) step(kv *jetstream.KeyValue) {
	ctx, cancel := context.WithTimeout(context.Background(), leaseBeat)
	defer cancel()
	start := time.Now()
	p.mu.Lock()
	stalled := !p.lastTry.IsZero() && start.Sub(p.lastTry) > 3*leaseBeat
	p.lastTry = start
	if stalled {
		p.empty = time.Time{} // nobody held the lease: as seen from now on
	}
	p.mu.Unlock()
	if *kv == nil {
		var err error
		if *kv, err = p.bucket(ctx); err != nil {
			p.failed(err)
		}
	}
	if *kv != nil {
		p.beat(ctx, *kv)
	}
	p.mu.Lock()
	holds := p.beatsLocked(time.Now())
	switch {
	case !p.lastOK.Before(start):
		p.unreached = time.Time{}
	case p.unreached.IsZero() || stalled:
		p.unreached = start
	}
	p.mu.Unlock()
	if holds {
		p.sayAlive(false)
	}
	p.decide()
}

// beat keeps or tries to take the lease (a process that competes), or
// reads who holds it.
func (p *Polling) beat(ctx context.Context, kv jetstream.KeyValue) {
	p.mu.Lock()
	held, since := p.held, p.since
	p.mu.Unlock()
	if p.compete && held != 0 {
		v, _ := json.Marshal(lease{Node: p.s.opts.Node, Proc: p.proc, Since: since})
		sent := time.Now()
		rev, err := kv.Update(ctx, pollerKey, v, held)
		p.mu.Lock()
		switch {
		case err == nil:
			p.held, p.lastOK, p.lastErr, p.renewed = rev, time.Now(), nil, sent
			p.mu.Unlock()
			return
		case errors.Is(err, jetstream.ErrKeyExists) || isWrongSequence(err):
			// Another took it (the lease ran out while this process was
			// stopped or cut off), or the key ran out while the site
			// elected the bucket's leader: who holds it now is read
			// below, or it is taken again.
			p.held, p.term = 0, 0
			p.lastOK, p.retake = time.Now(), true
			p.mu.Unlock()
		default:
			p.lastErr = err
			p.mu.Unlock()
			return
		}
	}
	p.mu.Lock()
	take := p.compete && !p.holderAliveLocked()
	retake := p.retake
	p.retake = false
	p.mu.Unlock()
	if take {
		now := time.Now().UTC()
		if retake {
			now = since // its own lease again, as it held it
		}
		v, _ := json.Marshal(lease{Node: p.s.opts.Node, Proc: p.proc, Since: now})
		sent := time.Now()
		rev, err := kv.Create(ctx, pollerKey, v)
		if err == nil {
			p.mu.Lock()
			p.held, p.since, p.lastOK, p.lastErr = rev, now, time.Now(), nil
			p.term, p.renewed = rev, sent
			p.holder = lease{Node: p.s.opts.Node, Proc: p.proc, Since: now}
			p.empty = time.Time{}
			if !retake {
				clear(p.seqs) // a new lease: the messages count from 1 again
			}
			p.mu.Unlock()
			return
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			p.failed(err)
			return
		}
	}
	e, err := kv.Get(ctx, pollerKey)
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound) && p.holderAliveLocked():
		// The key ran out while its holder beats on (the bucket's leader
		// was elected meanwhile): it is held still, and taken again by
		// its holder.
		p.lastOK, p.lastErr, p.empty = time.Now(), nil, time.Time{}
		if p.holder.Proc != p.heard.Proc {
			p.holder = p.heard
		}
	case errors.Is(err, jetstream.ErrKeyNotFound):
		p.lastOK, p.lastErr = time.Now(), nil
		p.holder = lease{}
		if p.empty.IsZero() {
			p.empty = time.Now()
		}
	case err != nil:
		p.lastErr = err
	default:
		var l lease
		if json.Unmarshal(e.Value(), &l) == nil {
			p.holder = l
			if l.Proc == p.proc && p.compete {
				// A take whose answer was lost (the site cut off as it
				// was written): the lease is this process's.
				// Its fence opens at the next put the site takes.
				p.held, p.since, p.term, p.renewed = e.Revision(), l.Since, e.Revision(), time.Time{}
				clear(p.seqs)
			}
		}
		p.lastOK, p.lastErr, p.empty = time.Now(), nil, time.Time{}
	}
}

func isWrongSequence(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence
}

func (p *Polling) failed(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastErr = err
}

// decide says who polls now, and tells the store's sessions when it
// changed.
func (p *Polling) decide() {
	now := time.Now()
	p.mu.Lock()
	was := p.now
	var next live.Poller
	cut := now.Sub(p.lastOK)
	switch {
	case !p.unreached.IsZero() && now.Sub(p.unreached) >= AloneAfter:
		why := "the site cannot be reached"
		if p.lastErr != nil {
			why += ": " + p.lastErr.Error()
		}
		next = live.Poller{Node: p.s.opts.Node, Since: p.aloneSince(was, now), Here: true, Alone: why}
	case p.held != 0 && cut < leaseTTL:
		next = live.Poller{Node: p.s.opts.Node, Since: p.since, Here: true}
	case p.held != 0:
		// Cut off while holding (or resumed after a stop, its puts not
		// answered yet): the lease may have run out and been taken; this
		// process stops polling until it knows. It names itself, as the
		// site last did: with nobody named, its store would read the
		// topics it is not in step with itself ("no poller yet").
		next = live.Poller{Node: p.s.opts.Node, Since: p.since}
	case p.holder.Proc != "":
		next = live.Poller{Node: p.holder.Node, Since: p.holder.Since}
	case !p.empty.IsZero() && now.Sub(p.empty) >= AloneAfter:
		next = live.Poller{Node: p.s.opts.Node, Since: p.aloneSince(was, now), Here: true, Alone: "no process of the site polls"}
	}
	p.now, p.decided = next, now
	p.mu.Unlock()
	if next != was {
		p.store.PollerChanged()
	}
}

// aloneSince is when this process began to poll alone.
func (p *Polling) aloneSince(was live.Poller, now time.Time) time.Time {
	if was.Alone != "" {
		return was.Since
	}
	return now.UTC()
}

// Poller is who polls the site now (live.Relay).
func (p *Polling) Poller() live.Poller {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.now
}

// Publish sends what this process's poll of t read to the others
// (live.Relay): each topic's messages are counted, so a follower knows
// when it missed one.
func (p *Polling) Publish(t live.Topic, m live.Polled) {
	p.sendMu.Lock()
	defer p.sendMu.Unlock()
	p.publishLocked(t, m)
}

func (p *Polling) publishLocked(t live.Topic, m live.Polled) {
	p.mu.Lock()
	if !p.publishesLocked() {
		// A read finished after the lease ran out (this process was
		// stopped or cut off): the one who holds it now publishes.
		p.mu.Unlock()
		return
	}
	p.seqs[t]++
	m.Proc, m.Seq = p.proc, p.seqs[t]
	p.mu.Unlock()
	b, err := json.Marshal(m)
	var sent int
	if err == nil {
		sent, err = p.s.sendPacked(dataSubject+string(t), b)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.drops++ // the next message says it was missed
		return
	}
	p.sent++
	p.bytes += uint64(sent)
}

// apply hands the store a message of another process, once whole.
func (p *Polling) apply(msg *nats.Msg) {
	b, ok := p.unpack.add(msg)
	if !ok {
		return
	}
	var m live.Polled
	if json.Unmarshal(b, &m) != nil || m.Proc == p.proc {
		return
	}
	p.store.Apply(live.Topic(strings.TrimPrefix(msg.Subject, dataSubject)), m)
}

// Want asks the poller to read t, which this process watches (live.Relay).
func (p *Polling) Want(t live.Topic, need, every time.Duration) {
	b, _ := json.Marshal(want{Topic: t, Need: need, Every: every})
	_ = p.s.nc.Publish(wantSubject, b)
}

// AskWhole asks the poller for what it holds of t (live.Relay).
func (p *Polling) AskWhole(t live.Topic) {
	b, _ := json.Marshal(want{Topic: t, Whole: true})
	_ = p.s.nc.Publish(wantSubject, b)
}

// ReadsHere logs that this process, which does not poll, reads t itself
// (live.Relay): its requests then are its own, not the site's.
func (p *Polling) ReadsHere(t live.Topic, why string) {
	if l := p.s.opts.Log; l != nil {
		l.Info("site: this process reads a topic itself", "topic", string(t), "why", why)
	}
}

// WantDetails hands the poller payments to read by id for this process's
// sessions (live.Relay): it reads them once for the site and publishes
// them (live.DetailsTopic).
func (p *Polling) WantDetails(ids []string) {
	b, _ := json.Marshal(want{Details: ids})
	_ = p.s.nc.Publish(wantSubject, b)
}

// sendWhole publishes what this process holds of t, when it polls: at
// most once every wholeEvery; a topic it holds nothing of yet it reads
// at once (the one who asked asks again).
func (p *Polling) sendWhole(t live.Topic) {
	p.sendMu.Lock()
	defer p.sendMu.Unlock()
	p.mu.Lock()
	here, last := p.now.Here && p.now.Alone == "", p.wholes[t]
	p.mu.Unlock()
	if !here || time.Since(last) < wholeEvery {
		return
	}
	m, ok := p.store.WholeMessage(t)
	if !ok {
		p.store.Asked(t)
		return
	}
	p.mu.Lock()
	p.wholes[t] = time.Now()
	p.mu.Unlock()
	p.publishLocked(t, m)
}

// wanted notes another process's request; the poller reads at once a
// topic newly asked for, and publishes whole one asked for whole.
func (p *Polling) wanted(msg *nats.Msg) {
	var w want
	if json.Unmarshal(msg.Data, &w) != nil {
		return
	}
	if w.Whole {
		p.sendWhole(w.Topic)
		return
	}
	if len(w.Details) > 0 {
		p.mu.Lock()
		here := p.now.Here && p.now.Alone == ""
		p.mu.Unlock()
		if here {
			p.store.WantDetails(w.Details)
		}
		return
	}
	now := time.Now()
	p.mu.Lock()
	old := p.wants[w.Topic]
	need := w.Need
	if old.until.After(now) {
		need = max(need, old.need)
	}
	p.wants[w.Topic] = wantSeen{until: now.Add(2*max(w.Every, leaseBeat) + leaseBeat), need: need}
	here := p.now.Here
	p.mu.Unlock()
	if here && old.until.Before(now) {
		p.store.Asked(w.Topic)
	}
}

// Wanted is whether another process watches t, and the widest window it
// needs (live.Relay).
func (p *Polling) Wanted(t live.Topic) (bool, time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.wants[t]
	if w.until.Before(time.Now()) {
		return false, 0
	}
	return true, w.need
}

// PollStats is what this process did for the site's polling: who polls,
// and what it published.
type PollStats struct {
	Poller   live.Poller
	Messages uint64
	Bytes    uint64
	Dropped  uint64
}

// Stats reports the process's polling for the site.
func (p *Polling) Stats() PollStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return PollStats{Poller: p.now, Messages: p.sent, Bytes: p.bytes, Dropped: p.drops}
}
