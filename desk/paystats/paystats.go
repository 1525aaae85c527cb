// Package paystats is what the views count of the payments held: the
// payments per state scope (all, QUOTED, in flight, FAILED, DECLINED,
// RETURNED, COMPLETED, and those whose retry verdict is YES) initiated in a
// window (a QUOTED payment, never initiated, by its last change), and the
// failed or declined ones grouped by reason code. Each count is a
// derivation of the payment set (live.Derive), built once per change for
// every session and every view that asks for the same scope and window:
// the payments view's scope bar and reason groups and the overview's
// payments panel read the same values. What each figure is (a payment's
// verdict, the code it is grouped under, its funding) is package
// figures': this package counts them.
package paystats

import (
	"cmp"
	"slices"
	"sort"
	"time"

	"treasury/desk/live"
	"treasury/figures"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Scope is a set of payment states.
type Scope int

// Scopes, in the order the payments view cycles through them.
const (
	All Scope = iota
	// Quoted is the quotes not accepted yet (QUOTED): not initiated, so
	// not in flight.
	Quoted
	// InFlight is the payments initiated and not finished.
	InFlight
	Failed
	Declined
	Returned
	Completed
	// Retryable is the failed and declined payments whose one retry
	// verdict is YES (figures.Retryable): a resubmit list.
	Retryable
	// Owed is the payments owed just in time: awaiting their funds
	// (figures.Owed), every one held whatever the window (the exposure's
	// "owed" counts them all).
	Owed
	NScopes // the number of scopes
)

// Word is the scope's palette argument (":payments failed").
func (s Scope) Word() string {
	return [...]string{"all", "quoted", "inflight", "failed", "declined", "returned", "completed", "retryable", "owed"}[s]
}

// Label is the scope as shown (crumb, scope bar).
func (s Scope) Label() string {
	return [...]string{"all", "QUOTED", "in flight", "FAILED", "DECLINED", "RETURNED", "COMPLETED", "retryable", "owed"}[s]
}

// Match reports whether p belongs to the scope.
func (s Scope) Match(p *payments.Payment) bool {
	switch s {
	case Retryable:
		return figures.Retryable(p)
	case Owed:
		return figures.Owed(p)
	}
	return s.MatchState(p.PaymentState)
}

// MatchState reports whether a payment in state st belongs to the scope,
// for the scopes of states alone (not Retryable, which needs the
// payment's errors: false).
func (s Scope) MatchState(st payments.State) bool {
	switch s {
	case All:
		return true
	case Quoted:
		return st == payments.Quoted
	case InFlight:
		return st.InFlight()
	case Failed:
		return st == payments.Failed
	case Declined:
		return st == payments.Declined
	case Returned:
		return st == payments.Returned
	case Completed:
		return st == payments.Completed
	case Owed:
		return st == payments.AwaitingFunding
	}
	return false
}

// Grouped reports whether the scope's payments are grouped by reason code
// (FAILED and DECLINED: CodeGroups).
func (s Scope) Grouped() bool { return s == Failed || s == Declined }

// Counts are the payments per scope of one set.
type Counts [NScopes]int

// Windowed reports whether the scope is of the payments initiated in a
// window; the payments owed are every one held.
func (s Scope) Windowed() bool { return s != Owed }

// CountScopes counts the payments of ps initiated since since per scope
// (Owed: every payment held awaiting its funds).
func CountScopes(ps *live.PaymentSet, since time.Time) Counts {
	var c Counts
	c[Owed] = ps.CountByState()[payments.AwaitingFunding]
	start := sort.Search(ps.Len(), func(i int) bool { return !ps.At(i).When().Before(since) })
	for st, n := range countFrom(ps, start) {
		for s := All; s < NScopes; s++ {
			if s.Windowed() && s.MatchState(st) {
				c[s] += int(n)
			}
		}
		if st.FailedTerminal() && n > 0 {
			c[Retryable] = -1 // counted below, from the payments
		}
	}
	if c[Retryable] < 0 {
		c[Retryable] = 0
		for i := start; i < ps.Len(); i++ {
			if p := ps.At(i); p.PaymentState.FailedTerminal() && figures.Retryable(p) {
				c[Retryable]++
			}
		}
	}
	return c
}

// countFrom counts per state the payments of ps from index start (the set
// is oldest first: a window is its end). It counts the window itself, or
// takes away what is older than it from the set's counts, whichever reads
// fewer payments (the last hour of a day's set, or a day of a week's).
func countFrom(ps *live.PaymentSet, start int) map[payments.State]int32 {
	by := map[payments.State]int32{}
	if n := ps.Len(); n-start < start {
		for i := start; i < n; i++ {
			by[ps.At(i).PaymentState]++
		}
		return by
	}
	for st, n := range ps.CountByState() {
		by[st] = int32(n)
	}
	for i := range start {
		by[ps.At(i).PaymentState]--
	}
	return by
}

// countsName names the scope counts of a window.
type countsName struct{ win time.Duration }

// ScopeCounts is the payments per scope initiated in the window win
// before the set's fetch (on the payments interface's clock), counted once
// per change of the set for every session (the set may hold a wider
// window than this one, for another view).
func ScopeCounts(s *live.Store, win time.Duration) live.Key[Counts] {
	return live.Derive(s, live.PaymentsKey, countsName{win}, func(_ Counts, in live.Snap[*live.PaymentSet]) Counts {
		return CountScopes(in.Data, s.PlatformTime(apierr.Payments, in.FetchedAt).Add(-win))
	})
}

// SortGroups orders reason groups most payments first, then by code.
func SortGroups(gs []CodeGroup) {
	slices.SortFunc(gs, func(a, b CodeGroup) int { return cmp.Or(b.Count-a.Count, cmp.Compare(a.Code, b.Code)) })
}
