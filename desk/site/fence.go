package site

import (
	"fmt"
	"time"

	"treasury/kit/fence"
)

// A poll carries its lease: each read the poller sends is checked, the
// moment before it leaves (kit/fence, asked by wire/transport), against
// the lease it was started under. The lease holds while this process
// still holds the same take of it (its term, the revision it was taken
// at) and the site took one of its puts less than fenceFor ago: the
// bucket forgets the key leaseTTL after the last put, and another may
// take it then. A process stopped (SIGSTOP), cut off or slow past that
// sends nothing more until a beat has kept the lease again, or found it
// taken (then it follows).
const (
	// fenceFor is how long after a put was sent that the site took the
	// lease is trusted: leaseTTL, less a margin for the clocks' steps.
	fenceFor = leaseTTL - time.Second
	// aloneFresh is how long a decision to poll alone is trusted: a
	// process resumed after a stop polls alone only once a beat since
	// found the site still out of reach.
	aloneFresh = 3 * leaseBeat
)

// Fence is the check that each read of a poll starting now carries
// (live.Relay): nil while it may leave, fence.ErrFenced once the lease
// the poll was started under is gone or superseded. A process that does
// not poll for the site gets no check (its own reads are its own).
func (p *Polling) Fence() func() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.now.Alone != "":
		return p.aloneHolds
	case p.now.Here:
		term := p.term
		return func() error { return p.holds(term) }
	}
	return nil
}

// holds is nil while this process still holds the lease it took at term,
// kept within fenceFor.
func (p *Polling) holds(term uint64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.holdsLocked(term)
}

func (p *Polling) holdsLocked(term uint64) error {
	switch {
	case term == 0 || p.held == 0 || p.term != term:
		return fmt.Errorf("%w (lease taken at revision %d, gone or taken again since)", fence.ErrFenced, term)
	case p.renewed.IsZero() || time.Since(p.renewed) >= fenceFor:
		return fmt.Errorf("%w (lease last kept %s ago)", fence.ErrFenced, time.Since(p.renewed).Round(time.Millisecond))
	}
	return nil
}

// aloneHolds is nil while this process still polls alone, as a beat
// decided within aloneFresh.
func (p *Polling) aloneHolds() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.now.Alone == "" || time.Since(p.decided) >= aloneFresh {
		return fmt.Errorf("%w (polling alone not decided again since %s ago)", fence.ErrFenced, time.Since(p.decided).Round(time.Millisecond))
	}
	return nil
}

// publishes reports whether what this process read may go to the site
// now: it holds the lease within its fence. p.mu is held.
func (p *Polling) publishesLocked() bool {
	return p.now.Here && p.now.Alone == "" && p.holdsLocked(p.term) == nil
}
