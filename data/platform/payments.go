package platform

import (
	"context"
	"slices"
	"sync"
	"time"

	"treasury/data/live"
	"treasury/data/payments"
	payclient "treasury/data/payments/client"
)

// PaymentWindow is how far back the payments held reach when no view asks
// for more (live.Window on live.Payments asks: the last 7 or 30 days).
const PaymentWindow = 24 * time.Hour

// paymentOverlap is read again on each poll, so a payment initiated near
// the previous poll's instant is not missed whatever the clocks' skew.
const paymentOverlap = time.Minute

// idsPerFilter bounds the paymentIds of one filter request.
const idsPerFilter = 100

// paymentFeed keeps the payments of the window and every unfinished
// payment (QUOTED or in flight) current by polling the v3 filter (the
// spec's polling alternative to webhooks): each poll reads the payments in
// an unfinished state, those initiated since the last poll, and, by id,
// those held as unfinished that the unfinished read no longer returns
// (they reached a final state).
// Merging never moves a payment back (live.MergePayments), so a poll that
// races a webhook cannot undo it.
//
// The window held is the widest that a view watching the payments asks
// for (live.Window), PaymentWindow at least: when it grows, the next poll
// also reads the payments initiated in the part not held yet, through the
// filter's time bounds and pages (never the whole history); when it
// shrinks, the finished payments older than it leave the set.
type paymentFeed struct {
	c     *payclient.Client
	now   func() time.Time // the platform's clock
	seen  func(time.Time)  // told the newest record time of each poll
	store func() *live.Store

	mu    sync.Mutex
	since time.Time
	held  time.Duration // the window the set holds
	// vanished are the payments held unfinished that the last fetch
	// asked for by id and did not get back: the next fold drops them.
	vanished []string
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

func (f *paymentFeed) fetch(ctx context.Context) ([]payments.Payment, error) {
	now := f.now()
	win := f.window()
	f.mu.Lock()
	since, held := f.since, f.held
	f.mu.Unlock()
	var older []payments.Payment
	switch {
	case since.IsZero():
		since = now.Add(-win)
	case win > held: // a view asks for more than is held: read the rest
		from, to := now.Add(-win), now.Add(-held)
		var err error
		if older, err = f.c.AllFiltered(ctx, payments.Filter{AfterTimestamp: &from, BeforeTimestamp: &to}); err != nil {
			return nil, err
		}
	}
	since = since.Add(-paymentOverlap)

	unfinished, err := f.c.AllFiltered(ctx, payments.Filter{PaymentStates: unfinishedStates()})
	if err != nil {
		return nil, err
	}
	recent, err := f.c.AllFiltered(ctx, payments.Filter{AfterTimestamp: &since})
	if err != nil {
		return nil, err
	}
	got := append(append(unfinished, recent...), older...)
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
	var vanished []string // asked for by id, and not returned
	for ids := range slices.Chunk(gone, idsPerFilter) {
		moved, err := f.c.AllFiltered(ctx, payments.Filter{PaymentIDs: ids})
		if err != nil {
			return nil, err
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
	f.vanished = vanished
	f.mu.Unlock()
	return got, nil
}

// fold merges the payments fetched into the set held, the finished ones
// older than the window leaving it (in-flight ones stay, however old).
func (f *paymentFeed) fold(prev *live.PaymentSet, fetched []payments.Payment, at time.Time) (*live.PaymentSet, live.Changes) {
	f.mu.Lock()
	held := max(f.held, PaymentWindow)
	vanished := f.vanished
	f.vanished = nil
	f.mu.Unlock()
	return live.MergePaymentsGone(prev, fetched, at.Add(-held), vanished)
}
