package live

import (
	"sort"
	"time"

	"treasury/data/payments"
	"treasury/data/webhook"
)

// Payments is the topic of the payments held by the store.
const Payments Topic = "payments"

// PaymentSet is an immutable set of payments, ordered by initiation time
// (oldest first; views show it newest first). A merge builds a new set and
// shares the unchanged records with the old one, so a snapshot handed to a
// view never changes under it.
type PaymentSet struct {
	list []*payments.Payment
	byID map[string]int
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
	i, ok := ps.byID[id]
	if !ok {
		return nil, false
	}
	return ps.list[i], true
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

// CountByState counts payments per state.
func (ps *PaymentSet) CountByState() map[payments.State]int {
	out := map[payments.State]int{}
	if ps == nil {
		return out
	}
	for _, p := range ps.list {
		out[p.PaymentState]++
	}
	return out
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

// fills reports whether p, in the same state as old, completes a record
// that a webhook notification created (a notification carries amounts and
// the state, not the parties or the internalId): the full read replaces
// it even though the notification's time may be later than the state's.
func fills(old, p *payments.Payment) bool {
	return old.PaymentState == p.PaymentState && old.Originator.OriginatorIdentityID == "" && p.Originator.OriginatorIdentityID != ""
}

// MergePayments folds fetched payments into prev (which may be nil) and
// returns the new set; prev is not modified.
func MergePayments(prev *PaymentSet, fetched []payments.Payment) *PaymentSet {
	if prev == nil {
		prev = &PaymentSet{byID: map[string]int{}}
	}
	list := append([]*payments.Payment(nil), prev.list...)
	var added []*payments.Payment
	changed := false
	for i := range fetched {
		p := &fetched[i]
		if j, ok := prev.byID[p.PaymentID]; ok {
			old := list[j]
			if newer(old, p) || fills(old, p) {
				if p.Errors == nil && old.Errors != nil && p.PaymentState == old.PaymentState {
					p.Errors = old.Errors // a v2 read does not carry the v3 errors
				}
				list[j] = p
				changed = true
			}
			continue
		}
		added = append(added, p)
	}
	if len(added) == 0 {
		if !changed {
			return prev
		}
		return &PaymentSet{list: list, byID: prev.byID}
	}
	// Dedupe within the batch, keeping the newest view of each id.
	seen := make(map[string]int, len(added))
	uniq := added[:0]
	for _, p := range added {
		if k, ok := seen[p.PaymentID]; ok {
			if newer(uniq[k], p) {
				uniq[k] = p
			}
			continue
		}
		seen[p.PaymentID] = len(uniq)
		uniq = append(uniq, p)
	}
	sort.SliceStable(uniq, func(i, j int) bool { return uniq[i].InitiatedAt.Before(uniq[j].InitiatedAt) })
	appendOnly := len(list) == 0 || !uniq[0].InitiatedAt.Before(list[len(list)-1].InitiatedAt)
	list = append(list, uniq...)
	if !appendOnly {
		sort.SliceStable(list, func(i, j int) bool { return list[i].InitiatedAt.Before(list[j].InitiatedAt) })
	}
	byID := make(map[string]int, len(list))
	for i, p := range list {
		byID[p.PaymentID] = i
	}
	return &PaymentSet{list: list, byID: byID}
}

// ReducePayments is the Reduce of a payments feed whose Fetch returns
// []payments.Payment.
func ReducePayments(prev, fetched any, _ time.Time) any {
	ps, _ := prev.(*PaymentSet)
	return MergePayments(ps, fetched.([]payments.Payment))
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
// state held is recorded as an arrival but does not move the payment.
func (s *Store) ApplyPaymentEvent(ev webhook.Event) {
	d := ev.EventData
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := s.snaps[Payments]
	ps, _ := snap.Data.(*PaymentSet)
	p := payments.Payment{PaymentID: d.PaymentID, PaymentState: d.PaymentState, InitiatedAt: d.CreatedAt,
		ExpiresAt: d.ExpiresAt, LastStateUpdatedAt: ev.CreateDate,
		Originator:  payments.Originator{SourceCurrency: d.SourceCurrency, SourceAmount: d.SourceAmount},
		Destination: payments.Destination{DestinationCurrency: d.DestinationCurrency, DestinationAmount: d.PayoutAmount}}
	applied := true
	if old, ok := ps.Get(d.PaymentID); ok {
		if !newer(old, &p) {
			applied = false
		} else {
			cp := *old
			cp.PaymentState, cp.LastStateUpdatedAt = d.PaymentState, ev.CreateDate
			if cp.PaymentState != old.PaymentState {
				cp.Errors = nil // the new state's errors come with the next v3 read
			}
			p = cp
		}
	}
	s.events.add(d.PaymentID, Arrival{EventID: ev.ID, State: d.PaymentState, CreateDate: ev.CreateDate, ReceivedAt: s.now(), Applied: applied})
	if applied {
		snap.Data = MergePayments(ps, []payments.Payment{p})
		if snap.FetchedAt.IsZero() {
			snap.FetchedAt = s.now()
		}
	}
	s.seq++
	snap.Seq = s.seq
	snap.Topic = Payments
	s.snaps[Payments] = snap
	s.notifyLocked(Payments)
}

// PutPayment folds one payment read outside the feed (a detail fetch) into
// the set, so the list and the detail agree.
func (s *Store) PutPayment(p payments.Payment) { s.PutPayments([]payments.Payment{p}) }

// PutPayments folds a batch of payments read outside the feed.
func (s *Store) PutPayments(ps []payments.Payment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := s.snaps[Payments]
	cur, _ := snap.Data.(*PaymentSet)
	next := MergePayments(cur, ps)
	if next == cur {
		return
	}
	snap.Data = next
	s.seq++
	snap.Seq = s.seq
	snap.Topic = Payments
	s.snaps[Payments] = snap
	s.notifyLocked(Payments)
}
