package platform

import (
	"context"
	"slices"
	"sync"
	"time"

	"treasury/desk/live"
	"treasury/wire/payments"
	payclient "treasury/wire/payments/client"
)

// PaymentWindow is how far back the payments held reach when no view asks
// for more (live.Window on live.Payments asks: the last 7 or 30 days).
const PaymentWindow = 24 * time.Hour

// paymentOverlap is read again on each poll, so a payment initiated near
// the previous poll's instant is not missed whatever the clocks' skew.
const paymentOverlap = time.Minute

// idsPerFilter bounds the paymentIds of one filter request.
const idsPerFilter = 100

// fullEvery is how often, in polls, the feed reads every unfinished
// payment again where the server answers what changed since the last
// poll: it finds the payments the platform no longer returns, and checks
// that the changed reads left nothing out.
const fullEvery = 12

// paymentFeed keeps the payments of the window and every unfinished
// payment (QUOTED or in flight) current by polling the v3 filter (the
// spec's polling alternative to webhooks).
//
// A poll reads the payments whose state changed since the last one (the
// document's filterRangeType PAYMENT_STATUS_LAST_UPDATED): new payments
// and every transition. Every fullEvery polls, and at every poll where the
// server cannot answer that (payclient.Client.Changed), it reads them all
// again: the payments in an unfinished state, those initiated since the
// last poll, and, by id, those held as unfinished that the unfinished read
// no longer returns (they reached a final state, or the platform forgot
// them). A full read after changed reads checks them: a payment whose
// state changed inside the span they answered for, held in an older state
// or not at all, means the server does not honour the range type, and the
// feed reads everything at every poll from then on.
// Merging never moves a payment back (live.MergePayments), so a poll that
// races a webhook cannot undo it.
//
// The window held is the widest that a view watching the payments asks
// for (live.Window), PaymentWindow at least: when it grows, the next poll
// also reads the payments initiated in the part not held yet, through the
// filter's time bounds and pages (never the whole history), in spans read
// at once and shown as they come, newest first (older.go); when it
// shrinks, the finished payments older than it leave the set.
type paymentFeed struct {
	c     *payclient.Client
	now   func() time.Time // the platform's clock
	seen  func(time.Time)  // told the newest record time of each poll
	store func() *live.Store

	mu    sync.Mutex
	since time.Time
	held  time.Duration // the window the set holds
	// polls counts the polls since the last full read; covered is the
	// span of state-change times the changed reads since then answered
	// for (zero: none).
	polls   int
	covered changeSpan
}

// changeSpan is a closed span of state-change times.
type changeSpan struct{ from, to time.Time }

func (s changeSpan) has(t time.Time) bool {
	return !s.from.IsZero() && !t.Before(s.from) && !t.After(s.to)
}

// window is the window the views ask for now.
func (f *paymentFeed) window() time.Duration {
	w := PaymentWindow
	if st := f.store(); st != nil {
		w = max(w, st.Need(live.Payments))
	}
	return w
}

func unfinishedStates() []payments.State {
	return []payments.State{payments.Quoted, payments.AwaitingFunding, payments.Initiated, payments.Validating, payments.Transferring}
}

// paymentRead is one poll of the payments: what was read, and all the
// fold needs to merge it (the fold reads nothing else of the feed), so
// that a read made elsewhere (another bastion of a site) folds the same.
type paymentRead struct {
	Payments []payments.Payment `json:"payments"`
	// ReadAt is the platform's time of the read: the window is cut from
	// it. Held is the window the set holds.
	ReadAt time.Time     `json:"readAt"`
	Held   time.Duration `json:"held"`
	// Vanished are the payments held unfinished that the read asked for
	// by id and did not get back: the fold drops them.
	Vanished []string `json:"vanished,omitempty"`
	// Detailed are the payments of the read that were read by id (with
	// their details): a set held, as a site's poller hands it on.
	Detailed []string `json:"detailed,omitempty"`
}

// heldAsRead is a set held as the read the fold takes from nothing to
// the same set (what a site's poller hands a process that just came).
func heldAsRead(ps *live.PaymentSet, at time.Time) paymentRead {
	r := paymentRead{ReadAt: at, Payments: make([]payments.Payment, 0, ps.Len())}
	if since := ps.Since(); !since.IsZero() && since.Before(at) {
		r.Held = at.Sub(since)
	}
	for i := range ps.Len() {
		p := ps.At(i)
		r.Payments = append(r.Payments, *p)
		if p.Detailed {
			r.Detailed = append(r.Detailed, p.PaymentID)
		}
	}
	return r
}

func (f *paymentFeed) fetch(ctx context.Context) (paymentRead, error) {
	now := f.now()
	win := f.window()
	f.mu.Lock()
	since, held, polls, covered := f.since, f.held, f.polls, f.covered
	f.mu.Unlock()
	var older []payments.Payment
	first := since.IsZero()
	switch {
	case first:
		since = now.Add(-win)
	case win > held: // a view asks for more than is held: read the rest
		from, to := now.Add(-win), now.Add(-held)
		var err error
		if older, err = f.readOlder(ctx, from, to, now); err != nil {
			return paymentRead{}, err
		}
	}
	since = since.Add(-paymentOverlap)

	var got []payments.Payment
	var vanished []string
	full := true
	if !first && polls < fullEvery {
		changed, ok, err := f.c.Changed(ctx, since)
		if err != nil {
			return paymentRead{}, err
		}
		full = !ok
		got = changed
	}
	if full {
		var err error
		if got, vanished, err = f.readAll(ctx, since); err != nil {
			return paymentRead{}, err
		}
		if f.missed(got, covered) {
			f.c.UpdateRangeMissed()
		}
	}
	got = append(got, older...)
	var newest time.Time
	for _, p := range got {
		if p.LastStateUpdatedAt.After(newest) {
			newest = p.LastStateUpdatedAt
		}
	}
	if f.seen != nil {
		f.seen(newest)
	}
	f.mu.Lock()
	f.since, f.held = now, win
	if full {
		f.polls, f.covered = 1, changeSpan{}
	} else {
		f.polls++
		if f.covered.from.IsZero() {
			f.covered.from = since
		}
		// A change a minute before the read had surely happened when
		// the server answered, whatever the clocks' skew.
		f.covered.to = now.Add(-paymentOverlap)
	}
	f.mu.Unlock()
	return paymentRead{Payments: got, ReadAt: now, Held: win, Vanished: vanished}, nil
}

// readAll reads the payments in an unfinished state, those initiated at
// or after since, and by id those held unfinished that neither read
// returned; vanished are the ids asked for and not returned.
func (f *paymentFeed) readAll(ctx context.Context, since time.Time) (got []payments.Payment, vanished []string, err error) {
	unfinished, err := f.c.AllFiltered(ctx, payments.Filter{PaymentStates: unfinishedStates()})
	if err != nil {
		return nil, nil, err
	}
	recent, err := f.c.AllFiltered(ctx, payments.Filter{AfterTimestamp: &since})
	if err != nil {
		return nil, nil, err
	}
	got = append(unfinished, recent...)
	seen := make(map[string]struct{}, len(got))
	for _, p := range got {
		seen[p.PaymentID] = struct{}{}
	}
	var gone []string
	if st := f.store(); st != nil {
		ps := live.Get(st, live.PaymentsKey).Data
		for i := range ps.Len() {
			p := ps.At(i)
			if _, ok := seen[p.PaymentID]; !ok && p.PaymentState.Unfinished() {
				gone = append(gone, p.PaymentID)
			}
		}
	}
	for ids := range slices.Chunk(gone, idsPerFilter) {
		moved, err := f.c.AllFiltered(ctx, payments.Filter{PaymentIDs: ids})
		if err != nil {
			return nil, nil, err
		}
		got = append(got, moved...)
		back := make(map[string]bool, len(moved))
		for _, p := range moved {
			back[p.PaymentID] = true
		}
		for _, id := range ids {
			if !back[id] {
				vanished = append(vanished, id)
			}
		}
	}
	return got, vanished, nil
}

// missed reports whether a full read found a payment whose state changed
// inside covered (the span the changed reads since the last full read
// answered for) that the set does not hold in that state or a later one:
// a changed read left it out.
func (f *paymentFeed) missed(got []payments.Payment, covered changeSpan) bool {
	st := f.store()
	if covered.from.IsZero() || st == nil {
		return false
	}
	ps := live.Get(st, live.PaymentsKey).Data
	for i := range got {
		p := &got[i]
		if !covered.has(p.LastStateUpdatedAt) {
			continue
		}
		if h, ok := ps.Get(p.PaymentID); !ok || h.LastStateUpdatedAt.Before(p.LastStateUpdatedAt) {
			return true
		}
	}
	return false
}

// foldPayments merges a read into the set held, the finished payments older
// than the window leaving it (in-flight ones stay, however old). The
// window is cut on the platform's clock at the read (ReadAt), as the
// views cut it: the host's time of the fetch (hostAt) lags a platform
// whose clock runs faster, and the set never evicted against a sandbox at
// 240x. It reads nothing but the read: a read made on another bastion
// folds the same.
func foldPayments(prev *live.PaymentSet, read paymentRead, hostAt time.Time) (*live.PaymentSet, live.Changes) {
	at := read.ReadAt
	if at.IsZero() {
		at = hostAt
	}
	if len(read.Detailed) > 0 {
		detailed := make(map[string]bool, len(read.Detailed))
		for _, id := range read.Detailed {
			detailed[id] = true
		}
		for i := range read.Payments {
			read.Payments[i].Detailed = detailed[read.Payments[i].PaymentID]
		}
	}
	return live.MergePaymentsGone(prev, read.Payments, at.Add(-max(read.Held, PaymentWindow)), read.Vanished)
}
