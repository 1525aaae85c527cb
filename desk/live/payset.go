package live

import (
	"maps"
	"slices"
	"sort"
	"time"

	"treasury/figures"
	"treasury/kit/persist"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

// Payments is the topic of the payments held by the store.
const Payments Topic = "payments"

// PaymentSet is an immutable set of payments, ordered by their time
// (Payment.When: initiation, or the last change of one never initiated;
// oldest first, views show it newest first). A merge builds a new set and
// shares what did not change with the old one (the records, and the id
// index shards it did not touch), so a snapshot handed to a view never
// changes under it and a poll that changes one payment among 100,000
// costs little. Its records are copies: none points into a fetch's buffer.
type PaymentSet struct {
	list   []*payments.Payment
	byID   persist.Map[*payments.Payment]
	states map[payments.State]int // payments per state, kept by each merge
	since  time.Time              // every payment initiated since is held
}

// Since is the time from which the set holds every payment initiated (the
// window its feed reads: a count over a window reaching further back
// would miss payments); zero when not known (a set built from
// notifications alone).
func (ps *PaymentSet) Since() time.Time {
	if ps == nil {
		return time.Time{}
	}
	return ps.since
}

// Len counts the payments.
func (ps *PaymentSet) Len() int {
	if ps == nil {
		return 0
	}
	return len(ps.list)
}

// At returns the i-th payment, oldest first.
func (ps *PaymentSet) At(i int) *payments.Payment { return ps.list[i] }

// Get returns a payment by id.
func (ps *PaymentSet) Get(id string) (*payments.Payment, bool) {
	if ps == nil {
		return nil, false
	}
	return ps.byID.Get(id)
}

// ByInternalID finds a payment by its client-assigned internalId.
func (ps *PaymentSet) ByInternalID(internal string) (*payments.Payment, bool) {
	if ps == nil || internal == "" {
		return nil, false
	}
	for i := len(ps.list) - 1; i >= 0; i-- {
		if ps.list[i].Originator.InternalID == internal {
			return ps.list[i], true
		}
	}
	return nil, false
}

// CountByState counts payments per state (a copy: the merges keep the
// counts, so this costs nothing per payment).
func (ps *PaymentSet) CountByState() map[payments.State]int {
	if ps == nil {
		return map[payments.State]int{}
	}
	return maps.Clone(ps.states)
}

// newer reports whether b is a later view of the payment than a: a late,
// older notification or poll never moves a payment back.
func newer(a, b *payments.Payment) bool {
	if b.LastStateUpdatedAt.Before(a.LastStateUpdatedAt) {
		return false
	}
	if b.LastStateUpdatedAt.Equal(a.LastStateUpdatedAt) && a.PaymentState.Terminal() && !b.PaymentState.Terminal() {
		return false
	}
	return true
}

// next is what the set holds for a payment it holds as old once p is read,
// or nil when p changes nothing. A record known only from notifications
// (Partial) and a full read are combined so that neither loses what it
// knows: a notification never blanks the parties, internalId or fees of a
// full record, and a full read completes a partial one even when the
// notification's time is later than the read's state (the notification's
// state then stays, the read gives the rest).
func next(old, p *payments.Payment) *payments.Payment {
	switch {
	case old.Partial && !p.Partial:
		if p.PaymentState == old.PaymentState || newer(old, p) {
			return p
		}
		cp := *p
		cp.SetRaw(nil) // no longer the record as received
		cp.PaymentState, cp.LastStateUpdatedAt, cp.Errors = old.PaymentState, old.LastStateUpdatedAt, nil
		cp.Detailed = false // what was read by id is of another state
		return &cp
	case p.Partial && !old.Partial:
		if !newer(old, p) {
			return nil
		}
		cp := *old
		cp.SetRaw(nil) // its state is no longer the one received with it
		cp.PaymentState, cp.LastStateUpdatedAt = p.PaymentState, p.LastStateUpdatedAt
		if cp.PaymentState != old.PaymentState {
			// The new state's errors and payout come with the next read by
			// id: until then the record is not the detailed one of its state.
			cp.Errors, cp.Detailed = nil, false
		}
		return &cp
	}
	if !newer(old, p) {
		return nil
	}
	if old.Detailed && !p.Detailed && p.PaymentState == old.PaymentState && p.LastStateUpdatedAt.Equal(old.LastStateUpdatedAt) &&
		(len(old.Errors) > 0 || len(p.Errors) == 0) {
		// A list record tells nothing that the record read by id of the
		// same state does not (its errors, its payout details).
		return nil
	}
	return p
}

// MergePayments folds fetched payments into prev (which may be nil) and
// returns the new set and what changed; prev is not modified. Finished
// payments (neither QUOTED nor in flight) initiated and last changed before evictBefore
// leave the set (a zero evictBefore keeps everything): the set holds the
// window the views ask for, not the whole history a long-lived process
// has seen.
func MergePayments(prev *PaymentSet, fetched []payments.Payment, evictBefore time.Time) (*PaymentSet, Changes) {
	return MergePaymentsGone(prev, fetched, evictBefore, nil)
}

// MergePaymentsGone is MergePayments that also drops the payments whose
// ids are in gone (the platform, asked for them by id, no longer returns
// them) unless fetched: held in flight, they would otherwise stay in
// flight on the screen for ever.
func MergePaymentsGone(prev *PaymentSet, fetched []payments.Payment, evictBefore time.Time, gone []string) (*PaymentSet, Changes) {
	var ch Changes
	if prev == nil {
		prev = &PaymentSet{}
	}
	ids := prev.byID.Edit()
	put := func(p *payments.Payment) { ids.Set(p.PaymentID, p) }
	// Newest view of each fetched id, copied out of the fetch's buffer.
	batch := make(map[string]*payments.Payment, len(fetched))
	for i := range fetched {
		cp := fetched[i]
		if b, ok := batch[cp.PaymentID]; ok {
			if r := next(b, &cp); r != nil {
				batch[cp.PaymentID] = r
			}
			continue
		}
		batch[cp.PaymentID] = &cp
	}
	var added []*payments.Payment
	replaced := map[*payments.Payment]*payments.Payment{}
	for id, p := range batch {
		old, ok := prev.Get(id)
		if !ok {
			added = append(added, p)
			ch.Added = append(ch.Added, id)
			continue
		}
		if p = next(old, p); p == nil {
			continue
		}
		if p.Errors == nil && old.Errors != nil && p.PaymentState == old.PaymentState {
			p.Errors = old.Errors // a list record does not carry the errors read by id
		}
		if same(*old, *p) && old.Detailed == p.Detailed && old.Partial == p.Partial {
			continue
		}
		replaced[old] = p
		ch.Changed = append(ch.Changed, id)
	}
	var evicted map[*payments.Payment]bool
	if !evictBefore.IsZero() {
		for _, p := range prev.list {
			if !p.When().Before(evictBefore) {
				break // the list is oldest first
			}
			if !p.PaymentState.Unfinished() && p.LastStateUpdatedAt.Before(evictBefore) && replaced[p] == nil {
				if evicted == nil {
					evicted = map[*payments.Payment]bool{}
				}
				evicted[p] = true
				ch.Removed = append(ch.Removed, p.PaymentID)
			}
		}
	}
	for _, id := range gone {
		if p, ok := prev.Get(id); ok && batch[id] == nil && !evicted[p] {
			if evicted == nil {
				evicted = map[*payments.Payment]bool{}
			}
			evicted[p] = true
			ch.Removed = append(ch.Removed, id)
		}
	}
	since := prev.since
	if !evictBefore.IsZero() {
		since = evictBefore // what the feed read: it evicts what is older
	}
	if ch.Empty() {
		if since.Before(prev.since) || prev.since.IsZero() && !since.IsZero() {
			// The window grew and the older payments read were none: no
			// payment changed, but the set now holds further back.
			cp := *prev
			cp.since = since
			return &cp, Changes{Reset: true}
		}
		return prev, ch
	}
	states := maps.Clone(prev.states)
	if states == nil {
		states = map[payments.State]int{}
	}
	count := func(p *payments.Payment, n int) {
		if states[p.PaymentState] += n; states[p.PaymentState] == 0 {
			delete(states, p.PaymentState)
		}
	}
	var list []*payments.Payment
	moved := false // a replaced record whose time changed (QUOTED, then initiated)
	if len(evicted) == 0 {
		// Changes in place (the usual poll): copy the list, replace each
		// changed record at its place, found by its initiation time.
		list = make([]*payments.Payment, len(prev.list), len(prev.list)+len(added))
		copy(list, prev.list)
		for old, p := range replaced {
			i, _ := slices.BinarySearchFunc(list, old.When(), func(x *payments.Payment, t time.Time) int { return x.When().Compare(t) })
			for ; i < len(list) && list[i] != old; i++ {
			}
			list[i] = p
			moved = moved || !p.When().Equal(old.When())
			put(p)
			count(old, -1)
			count(p, 1)
		}
	} else {
		list = make([]*payments.Payment, 0, len(prev.list)+len(added)-len(evicted))
		for _, p := range prev.list {
			switch {
			case evicted[p]:
				ids.Delete(p.PaymentID)
				count(p, -1)
			case replaced[p] != nil:
				moved = moved || !replaced[p].When().Equal(p.When())
				list = append(list, replaced[p])
				put(replaced[p])
				count(p, -1)
				count(replaced[p], 1)
			default:
				list = append(list, p)
			}
		}
	}
	sort.SliceStable(added, func(i, j int) bool {
		return added[i].When().Before(added[j].When()) ||
			added[i].When().Equal(added[j].When()) && added[i].PaymentID < added[j].PaymentID
	})
	for _, p := range added {
		put(p)
		count(p, 1)
	}
	appendOnly := len(list) == 0 || len(added) == 0 || !added[0].When().Before(list[len(list)-1].When())
	// Older payments read for a wider window come before every one held:
	// put before them, not sorted in.
	prependOnly := !appendOnly && !moved && added[len(added)-1].When().Before(list[0].When())
	switch {
	case prependOnly:
		list = append(added, list...)
	default:
		list = append(list, added...)
		if !appendOnly || moved {
			sort.SliceStable(list, func(i, j int) bool { return list[i].When().Before(list[j].When()) })
		}
	}
	return &PaymentSet{list: list, byID: ids.Done(), states: states, since: since}, ch
}

// Arrival is a webhook notification as the store received it.
type Arrival struct {
	EventID    string
	State      payments.State
	CreateDate time.Time
	ReceivedAt time.Time
	// Applied is false when the notification was older than what the store
	// held, so it did not move the payment.
	Applied bool
}

// eventLog keeps the last arrivals of the most recently notified payments,
// bounded in both directions.
type eventLog struct {
	max   int
	per   int
	byID  map[string][]Arrival
	order []string
}

func newEventLog(max int) *eventLog {
	return &eventLog{max: max, per: 16, byID: map[string][]Arrival{}}
}

func (l *eventLog) add(id string, a Arrival) {
	as, ok := l.byID[id]
	if !ok {
		l.order = append(l.order, id)
		if len(l.order) > l.max {
			delete(l.byID, l.order[0])
			l.order = l.order[1:]
		}
	}
	as = append(as, a)
	if len(as) > l.per {
		as = as[len(as)-l.per:]
	}
	l.byID[id] = as
}

// Arrivals returns the webhook arrivals recorded for a payment.
func (s *Store) Arrivals(paymentID string) []Arrival {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Arrival(nil), s.events.byID[paymentID]...)
}

// ApplyPaymentEvent folds a verified, deduplicated notification into the
// payments topic, the same path a poll takes. A notification older than the
// state held is recorded as an arrival but does not move the payment. A
// payment first known through a notification is held as Partial (the
// notification does not carry its parties, internalId or fees) until the
// next poll completes it, or a read by id does sooner when a session
// shows it (WantDetails).
func (s *Store) ApplyPaymentEvent(ev webhook.Event) { s.ApplyPaymentEvents([]webhook.Event{ev}) }

// ApplyPaymentEvents is ApplyPaymentEvent of each of evs, in order, folded
// into the payments topic at once: one new set for the batch rather than
// one per notification. A set of tens of thousands of payments costs about
// a millisecond to fold, and a sandbox running 240 times faster than real
// time notifies some 200 a second: one at a time, the receiver's queue
// fills and it answers busy.
func (s *Store) ApplyPaymentEvents(evs []webhook.Event) {
	if len(evs) == 0 {
		return
	}
	skel := make([]payments.Payment, len(evs))
	for i, ev := range evs {
		d := ev.EventData
		skel[i] = payments.Payment{PaymentID: d.PaymentID, PaymentState: d.PaymentState, InitiatedAt: d.CreatedAt,
			ExpiresAt: d.ExpiresAt, LastStateUpdatedAt: ev.CreateDate, Partial: true,
			Originator:  payments.Originator{SourceCurrency: d.SourceCurrency, SourceAmount: d.SourceAmount},
			Destination: payments.Destination{DestinationCurrency: d.DestinationCurrency, DestinationAmount: d.PayoutAmount}}
	}
	applied := make([]bool, len(evs))
	s.mutate(Payments, func(prev any) (any, Changes) {
		ps, _ := prev.(*PaymentSet)
		// Each notification is judged against what the set holds and the
		// ones before it in the batch, as one at a time would be.
		latest := map[string]*payments.Payment{}
		var moved []payments.Payment
		for i := range skel {
			p := &skel[i]
			old, ok := latest[p.PaymentID]
			if !ok {
				old, ok = ps.Get(p.PaymentID)
			}
			applied[i] = !ok || newer(old, p)
			if applied[i] {
				latest[p.PaymentID] = p
				moved = append(moved, *p)
			}
		}
		if len(moved) == 0 {
			return ps, Changes{}
		}
		return MergePayments(ps, moved, time.Time{})
	})
	now := s.now()
	s.mu.Lock()
	for i, ev := range evs {
		d := ev.EventData
		s.events.add(d.PaymentID, Arrival{EventID: ev.ID, State: d.PaymentState, CreateDate: ev.CreateDate, ReceivedAt: now, Applied: applied[i]})
	}
	s.mu.Unlock()
}

// PutPayment folds one payment read outside the feed (a detail fetch) into
// the set, so the list and the detail agree.
func (s *Store) PutPayment(p payments.Payment) { s.PutPayments([]payments.Payment{p}) }

// PutPayments folds a batch of payments read outside the feed.
func (s *Store) PutPayments(batch []payments.Payment) {
	s.mutate(Payments, func(prev any) (any, Changes) {
		ps, _ := prev.(*PaymentSet)
		return MergePayments(ps, batch, time.Time{})
	})
}

// FailureRate is the failure rate (figures.Rate) of the payments of ps
// that finished in (from, to].
func FailureRate(ps *PaymentSet, from, to time.Time) figures.Rate {
	var r figures.Rate
	if ps == nil {
		return r
	}
	for i := ps.Len() - 1; i >= 0; i-- {
		r.Count(ps.At(i), from, to)
	}
	return r
}
