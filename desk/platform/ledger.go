package platform

import (
	"context"
	"slices"
	"time"

	"treasury/desk/live"
	"treasury/wire/payments"
	payclient "treasury/wire/payments/client"
)

// ledgerFeed keeps the ledger of the last LedgerWindow by reading, at each
// poll, each currency from its newest movement held (less windowOverlap)
// to now: what is new since the last poll, a page or so, where reading
// the whole window again cost a page per 50 movements of the last 24
// hours, every 15 s, growing with the platform's traffic. The ledger's
// movements never change once written (the spec's offset paging over a
// fixed start-dttm and end-dttm; PENDING is reserved, never sent), so a
// movement read is held until it leaves the window.
//
// Where each currency's read starts is taken from the data the store
// holds, not kept beside it: a read the store did not fold (the site's
// poller read it meanwhile, the lease was lost) leaves the next one where
// the data is, and a process that takes the site's polling over goes on
// from what it followed. A currency with nothing held (the first poll,
// one whose reads have failed since the start, one with no movement in
// the window) is read over the whole window; one whose last read failed
// keeps what it held, and is read from its newest movement held.
type ledgerFeed struct {
	c    *payclient.Client
	now  func() time.Time // the platform's clock
	seen func(time.Time)  // told the newest movement of each read
	held func() []payments.LedgerTransaction
}

func (f *ledgerFeed) fetch(ctx context.Context) ([]payments.LedgerTransaction, error) {
	now := f.now()
	start := now.Add(-LedgerWindow)
	newest := map[string]time.Time{}
	for _, t := range f.held() {
		if t.CreatedDttm.After(newest[t.Currency]) {
			newest[t.Currency] = t.CreatedDttm
		}
	}
	from := func(currency string) time.Time {
		n, ok := newest[currency]
		switch {
		case !ok || n.Add(-windowOverlap).Before(start):
			return start
		case n.Add(-windowOverlap).After(now):
			return now // held ahead of the clock: the read asks for nothing before it
		}
		return n.Add(-windowOverlap)
	}
	txs, err := newestLedgerFirst(f.c.LedgerFrom(ctx, from, now))
	if len(txs) > 0 {
		f.seen(txs[0].CreatedDttm)
	}
	return txs, err
}

// fold adds the movements read to those held, by LedgerID (the overlap
// reads the newest again), and drops those older than the window. A
// currency a read missed (a partial read) keeps its movements: its runway
// stays what it was, marked by the partial read, instead of reading as
// one with no movement, "no outflow". Movements of one time keep their
// account's order: those held before those read after them. Only the
// movements held as recent as the oldest read are named to find those
// read again: a poll costs what it read, not the day held.
func (f *ledgerFeed) fold(old, fresh []payments.LedgerTransaction, _ time.Time) ([]payments.LedgerTransaction, live.Changes) {
	cut := f.now().Add(-LedgerWindow)
	var oldest time.Time
	for i, t := range fresh {
		if i == 0 || t.CreatedDttm.Before(oldest) {
			oldest = t.CreatedDttm
		}
	}
	var ch live.Changes
	ids := map[string]struct{}{}
	for _, t := range old {
		switch {
		case t.CreatedDttm.Before(cut):
			ch.Removed = append(ch.Removed, LedgerID(t))
		case len(fresh) > 0 && !t.CreatedDttm.Before(oldest):
			ids[LedgerID(t)] = struct{}{}
		}
	}
	var added []payments.LedgerTransaction
	for _, t := range fresh {
		id := LedgerID(t)
		if _, dup := ids[id]; dup || t.CreatedDttm.Before(cut) {
			continue
		}
		ids[id] = struct{}{}
		added = append(added, t)
		ch.Added = append(ch.Added, id)
	}
	if ch.Empty() {
		return old, ch
	}
	out := make([]payments.LedgerTransaction, 0, len(old)-len(ch.Removed)+len(added))
	for _, t := range old {
		if !t.CreatedDttm.Before(cut) {
			out = append(out, t)
		}
	}
	out = append(out, added...)
	slices.SortStableFunc(out, func(a, b payments.LedgerTransaction) int { return b.CreatedDttm.Compare(a.CreatedDttm) })
	return out, ch
}

// LedgerID identifies a ledger transaction (the feed's changes and the
// views' rows): the record has no id of its own, so its account, time,
// operation, reference, amount and the balance after it do.
func LedgerID(t payments.LedgerTransaction) string {
	return t.Currency + "|" + t.CreatedDttm.UTC().Format(time.RFC3339Nano) + "|" + t.Operation + "|" + t.Reference() + "|" +
		t.Amount.String() + "|" + t.AvailableBalanceAfter.String()
}
