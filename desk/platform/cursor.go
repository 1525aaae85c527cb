package platform

import (
	"encoding/json"
	"time"

	"treasury/wire/liquidity"
)

// Where a feed's reads are, carried from one poller of a site to the
// next (live.FeedOptions.Cursor): a process that takes the lease over,
// holding the topics as the poller held them, goes on from the poller's
// last read instead of reading its windows again (the first poll of a
// window and its backfill: some hundred requests at once).

// windowCursor is a window feed's place: the newest record held and the
// ranges left to read, as its last whole read left them.
type windowCursor struct {
	Newest time.Time          `json:"newest"`
	Gaps   []liquidity.Window `json:"gaps,omitempty"`
}

// cursor is where the feed's last finished read left it (nil before the
// first): a read still going on may have read the newest records of its
// range and not the older ones yet.
func (f *windowFeed[E]) cursor() json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

// resume goes on from c: the next read is of what is new since its
// newest record, and of the ranges it had left.
func (f *windowFeed[E]) resume(c json.RawMessage) {
	var wc windowCursor
	if json.Unmarshal(c, &wc) != nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.newest, f.gaps, f.started, f.last = wc.Newest, mergeGaps(wc.Gaps), true, c
}

// finishedLocked notes the feed's place after a read. f.mu is held.
func (f *windowFeed[E]) finishedLocked() {
	f.last, _ = json.Marshal(windowCursor{Newest: f.newest, Gaps: f.gaps})
}

// paymentCursor is the payments feed's place: its last read's time, the
// window it held, and the changed reads since the last full one.
type paymentCursor struct {
	Since       time.Time     `json:"since"`
	Held        time.Duration `json:"held"`
	Polls       int           `json:"polls"`
	CoveredFrom time.Time     `json:"coveredFrom,omitzero"`
	CoveredTo   time.Time     `json:"coveredTo,omitzero"`
}

func (f *paymentFeed) cursor() json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.since.IsZero() {
		return nil
	}
	b, _ := json.Marshal(paymentCursor{Since: f.since, Held: f.held, Polls: f.polls, CoveredFrom: f.covered.from, CoveredTo: f.covered.to})
	return b
}

func (f *paymentFeed) resume(c json.RawMessage) {
	var pc paymentCursor
	if json.Unmarshal(c, &pc) != nil || pc.Since.IsZero() {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.since, f.held, f.polls, f.covered = pc.Since, pc.Held, pc.Polls, changeSpan{from: pc.CoveredFrom, to: pc.CoveredTo}
}
