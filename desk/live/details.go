package live

import (
	"context"
	"errors"
	"time"

	"treasury/kit/fence"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// The store reads a payment by id (Options.ReadPayment: GET
// /v3/payments/{id}) when its record lacks what only that read gives, and
// someone needs it:
//   - what a record lacks: a partial record, known only from a
//     notification, lacks its parties, internalId and fees; a payment in
//     a terminal failure state lacks its reason when the filter's records
//     carry none (PaymentV2 of the vendor's document; a server that puts
//     the errors on its list records needs no read);
//   - who needs it: a session that shows the payment (its row drawn, its
//     detail or ticket open, the payments of a reason group listed) asks
//     for it (WantDetails), and an alert may need it (Options.AlertNeeds:
//     the reasons of the last hour's failures, for the declines alert
//     and the failures alert's guidance). Nothing else is read: a window
//     of 90 days holding 13,000 failures reads the dozens shown, not the
//     13,000, and the reason groups count the codes the records carry.
//
// Each payment is read once per state: the record read is Detailed, and a
// later list record of the same state does not undo it (MergePayments), so
// nothing is read twice; every session's asks go to one queue, so twenty
// sessions showing the same rows read them once. The reads run on the
// store's goroutines, DetailConcurrency at a time, never on a caller's,
// and their answers are folded in batches. A read that fails is tried
// again later (doubling from detailRetry, up to MaxBackoff) while the
// record still needs it. In a site, only the process that polls reads:
// the others hand it their sessions' asks (Relay.WantDetails) and fold
// what it publishes (DetailsTopic).

// Bounds of the detail reads.
const (
	// detailBatch is how many answers are folded at once at most.
	detailBatch = 64
	// detailFlush is the longest an answer waits to be folded.
	detailFlush = 250 * time.Millisecond
	// detailRetry is the first wait before a failed read is tried again.
	detailRetry = 5 * time.Second
)

// detailQueue is the payments waiting to be read by id, each once. It is
// guarded by the store's mutex.
type detailQueue struct {
	order   []string
	queued  map[string]bool // waiting or being read
	reading int             // reads in flight
	failed  map[string]int  // reads in a row that failed, by id
	workers int             // workers running
	done    chan payments.Payment
	drained chan struct{} // nothing is queued or read: fold what was answered now
	flusher bool          // a goroutine folds the answers
	// busy counts the reads queued, in flight, or answered and not folded
	// yet (Sync waits for none).
	busy int
}

func newDetailQueue() detailQueue {
	return detailQueue{queued: map[string]bool{}, failed: map[string]int{},
		done: make(chan payments.Payment, detailBatch), drained: make(chan struct{}, 1)}
}

// NeedsDetails reports whether p lacks what only a read by id gives: the
// rest of a partial record, or the reason of a failure.
func NeedsDetails(p *payments.Payment) bool {
	return p.Partial || p.PaymentState.FailedTerminal() && !p.Detailed && len(p.Errors) == 0
}

// needsDetails is NeedsDetails.
func needsDetails(p *payments.Payment) bool { return NeedsDetails(p) }

// WantDetails asks for the payments ids, which sessions show, to be read
// by id where their records lack what only that read gives (the others
// are passed over): once for every session asking, by this process, or in
// a site by the one that polls.
func (s *Store) WantDetails(ids []string) {
	if len(ids) == 0 {
		return
	}
	if r := s.siteRelay(); r != nil && !s.readsDetails(r) {
		r.WantDetails(ids)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ps, _ := s.snaps[Payments].data.(*PaymentSet)
	if ps == nil || s.opts.ReadPayment == nil || s.closed {
		return
	}
	for _, id := range ids {
		if p, ok := ps.Get(id); ok && needsDetails(p) {
			s.enqueueLocked(id)
		}
	}
}

// readsDetails reports whether this process reads by id for its site: it
// polls it, or polls alone (r.Poller must not be called under s.mu).
func (s *Store) readsDetails(r Relay) bool {
	pl := r.Poller()
	return pl.Here || pl.Alone != "" || pl.Node == ""
}

// DetailsPending counts the payments held whose read by id is waiting or
// in flight: the reasons still being read.
func (s *Store) DetailsPending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.details.queued)
}

// queueDetailsLocked queues the payments a fold added or changed (all of
// them after a reset) that need a read by id for an alert
// (Options.AlertNeeds, on the payments interface's clock). s.mu is held.
func (s *Store) queueDetailsLocked(data any, ch Changes) {
	ps, _ := data.(*PaymentSet)
	needs := s.opts.AlertNeeds
	if ps == nil || s.opts.ReadPayment == nil || needs == nil || s.closed {
		return
	}
	now := s.platformTimeLocked(apierr.Payments, s.now())
	want := func(p *payments.Payment) {
		if needsDetails(p) && needs(p, now) {
			s.enqueueLocked(p.PaymentID)
		}
	}
	if ch.Reset {
		for i := ps.Len() - 1; i >= 0; i-- {
			want(ps.At(i))
		}
		return
	}
	for _, ids := range [][]string{ch.Added, ch.Changed} {
		for _, id := range ids {
			if p, ok := ps.Get(id); ok {
				want(p)
			}
		}
	}
}

// enqueueLocked queues id once and starts the workers it needs. s.mu is
// held.
func (s *Store) enqueueLocked(id string) {
	q := &s.details
	if q.queued[id] {
		return
	}
	q.queued[id] = true
	q.order = append(q.order, id)
	q.busy++
	if !q.flusher {
		q.flusher = true
		s.wg.Add(1)
		go s.flushDetails()
	}
	for q.workers < s.opts.DetailConcurrency && q.workers < len(q.order) {
		q.workers++
		s.wg.Add(1)
		go s.readDetails()
	}
}

// readDetails reads queued payments until the queue is empty.
func (s *Store) readDetails() {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		q := &s.details
		if len(q.order) == 0 || s.closed {
			q.workers--
			s.mu.Unlock()
			return
		}
		id := q.order[0]
		q.order = q.order[1:]
		q.reading++
		ps, _ := s.snaps[Payments].data.(*PaymentSet)
		relay := s.relay
		s.mu.Unlock()
		var site func() error // the lease this read is decided under (pollHere)
		if relay != nil {
			if pl := relay.Poller(); pl.Here && pl.Alone == "" {
				if site = relay.Fence(); site == nil {
					site = notPolling
				}
			}
		}
		if p, ok := ps.Get(id); !ok || !needsDetails(p) || relay != nil && !s.readsDetails(relay) {
			// Gone from the window, or read meanwhile; or the site's
			// poller reads for the site.
			s.settle(id, nil, false)
			continue
		}
		ctx, cancel := context.WithTimeout(s.life, s.opts.FetchTimeout)
		p, err := s.opts.ReadPayment(s.fenced(fence.With(ctx, site), nil), id)
		cancel()
		if s.life.Err() != nil {
			s.settle(id, nil, false)
			return
		}
		if fence.Fenced(err) {
			s.settle(id, nil, false) // the site's poller now reads it, if still needed
			continue
		}
		if err != nil || p.PaymentID != id {
			s.settle(id, errOr(err, "the read answered another payment"), false)
			continue
		}
		p.Partial = false
		select {
		case q.done <- p:
		case <-s.life.Done():
		}
		s.settle(id, nil, true)
	}
}

// errOr is err, or an error saying what when err is nil.
func errOr(err error, what string) error {
	if err != nil {
		return err
	}
	return errors.New(what)
}

// settle ends the read of id: forgotten when it worked (or is no longer
// needed), tried again after a wait when it failed. answered says its
// answer waits to be folded (the flusher then forgets it and ends its busy
// count).
func (s *Store) settle(id string, err error, answered bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := &s.details
	q.reading--
	if !answered {
		q.busy--
		s.idle.Broadcast()
	}
	if len(q.order) == 0 && q.reading == 0 {
		select {
		case q.drained <- struct{}{}:
		default:
		}
	}
	if err == nil {
		delete(q.failed, id)
		if !answered {
			delete(q.queued, id)
		}
		// An answer stays queued until the flusher folds it: a session
		// asking meanwhile sees a record that still lacks it, and must not
		// read it again.
		return
	}
	q.failed[id]++
	wait := min(detailRetry<<min(q.failed[id]-1, 16), MaxBackoff)
	delete(q.queued, id)
	if s.closed {
		return
	}
	q.queued[id] = true // still pending: counted, not yet queued again
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
		case <-s.life.Done():
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(q.queued, id)
		if ps, _ := s.snaps[Payments].data.(*PaymentSet); !s.closed && ps != nil {
			if p, ok := ps.Get(id); ok && needsDetails(p) {
				s.enqueueLocked(id)
			}
		}
	}()
}

// flushDetails folds the answers in batches until the store closes.
func (s *Store) flushDetails() {
	defer s.wg.Done()
	q := &s.details
	var batch []payments.Payment
	t := time.NewTimer(detailFlush)
	defer t.Stop()
	flush := func() {
		if len(batch) > 0 {
			// Folded and forgotten at once: a session asking in between
			// would find the record still lacking what was read, and not
			// queued.
			s.mutateThen(Payments, func(prev any) (any, Changes) {
				ps, _ := prev.(*PaymentSet)
				return MergePayments(ps, batch, time.Time{})
			}, func() {
				for i := range batch {
					delete(q.queued, batch[i].PaymentID)
				}
			})
			s.publishDetails(batch)
			s.mu.Lock()
			q.busy -= len(batch)
			s.idle.Broadcast()
			s.mu.Unlock()
			batch = nil
		}
	}
	for {
		select {
		case p := <-q.done:
			batch = append(batch, p)
			if len(batch) >= detailBatch {
				flush()
			}
		case <-q.drained:
			// Take what the last reads sent, then fold at once.
			for drained := false; !drained; {
				select {
				case p := <-q.done:
					batch = append(batch, p)
				default:
					drained = true
				}
			}
			flush()
		case <-t.C:
			flush()
			t.Reset(detailFlush)
		case <-s.life.Done():
			return
		}
	}
}
