package paystats

import (
	"maps"
	"sort"
	"time"

	"treasury/desk/live"
	"treasury/figures"
	"treasury/kit/persist"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// CodeGroup is the payments of a scope and window that failed (or were
// declined) for one reason code: how a support engineer triages ("twelve
// USR_030 since Monday"). A payment whose errors disagree is counted under
// the one its retry verdict is of (figures.Reason), so that every payment
// of a group has the group's verdict.
type CodeGroup struct {
	Code, Title string
	Count       int
	// Retry is the group's retry verdict: its newest payment's, which is
	// every one of its payments' (figures.RetryOf).
	Retry figures.Retry
	// Newest is when the most recently initiated payment of the group was
	// initiated (named so on screen: "Last initiated"); Title is its
	// error's title.
	Newest time.Time

	newestID string
	newestAt time.Time // its initiation
}

// NoCode names the group of payments whose reason is not read: a server
// whose list records carry no errors (the document's PaymentV2) gives a
// failure's reason only read by id, and the store reads those shown or
// needed by an alert (live.Store.WantDetails), not every failure of a
// window; listing the group reads the payments it shows. NoReason is the
// group of those the platform gave no reason for. A server that puts the
// errors on its list records has every payment counted by its code.
const (
	NoCode   = "(reason not read)"
	NoReason = "(no reason given)"
)

// Groups are the reason groups of a scope and window, and what they were
// counted from, so that the next change of a few payments among 100,000
// updates them rather than counting again.
type Groups struct {
	// List is the groups, most payments first.
	List []CodeGroup

	built   bool
	since   time.Time            // the window's start when counted
	members persist.Map[string]  // id of each payment counted → its group's code
	by      map[string]CodeGroup // the groups by code
}

// groupsName names the reason groups of a scope and window.
type groupsName struct {
	scope Scope
	win   time.Duration
}

// CodeGroups is the reason groups of a scope and window, counted once per
// change of the payments for every session: in full at the first build
// (and when the window's start moved back, or a group lost the payment
// that named it), otherwise from the payments that changed and those that
// left the window since the last build.
func CodeGroups(s *live.Store, sc Scope, win time.Duration) live.Key[Groups] {
	return live.Derive(s, live.PaymentsKey, groupsName{sc, win}, func(prev Groups, in live.Snap[*live.PaymentSet]) Groups {
		since := s.PlatformTime(apierr.Payments, in.FetchedAt).Add(-win)
		if in.Changes.Reset || !prev.built || since.Before(prev.since) {
			return countGroups(in.Data, sc, since)
		}
		if g, ok := updateGroups(prev, in.Data, in.Changes, sc, since); ok {
			return g
		}
		return countGroups(in.Data, sc, since)
	})
}

// groupOf is the code a payment is counted under in the scope and window,
// "" when it is not counted.
func groupOf(p *payments.Payment, sc Scope, since time.Time) string {
	if p == nil || p.When().Before(since) || !sc.Match(p) {
		return ""
	}
	return GroupCode(p)
}

// GroupCode is the reason group p is counted under: the code of the
// error its retry verdict is of (figures.Reason), NoReason when it was
// read by id and the platform gave none, NoCode while its reason is not
// read.
func GroupCode(p *payments.Payment) string {
	if e, ok := figures.Reason(p); ok {
		return e.Code
	}
	if p.Detailed {
		return NoReason
	}
	return NoCode
}

// add counts p in its group g (nil: a new group).
func add(by map[string]CodeGroup, code string, p *payments.Payment) {
	g, ok := by[code]
	if !ok {
		g = CodeGroup{Code: code}
	}
	g.Count++
	if g.newestID == "" || p.When().After(g.newestAt) || p.PaymentID == g.newestID ||
		p.When().Equal(g.newestAt) && p.PaymentID > g.newestID {
		g.newestID, g.newestAt, g.Newest = p.PaymentID, p.When(), p.When()
		g.Title, g.Retry = reasonTitle(p), figures.RetryOf(p)
	}
	by[code] = g
}

// reasonTitle is the title of the error p is grouped under ("" without
// one).
func reasonTitle(p *payments.Payment) string {
	e, _ := figures.Reason(p)
	return e.Title
}

// countGroups counts the groups of the set's payments since since, the
// newest first.
func countGroups(ps *live.PaymentSet, sc Scope, since time.Time) Groups {
	by := map[string]CodeGroup{}
	members := persist.Map[string]{}.Edit()
	for i := ps.Len() - 1; i >= 0; i-- {
		p := ps.At(i)
		if p.When().Before(since) {
			break
		}
		if code := groupOf(p, sc, since); code != "" {
			add(by, code, p)
			members.Set(p.PaymentID, code)
		}
	}
	return finish(Groups{built: true, since: since, members: members.Done(), by: by})
}

// maxUpdate is the most payments a change may touch for the groups to be
// updated rather than counted again.
const maxUpdate = 4096

// updateGroups folds the changes into prev: the payments added, changed
// or removed, and those initiated between the previous window's start and
// this one's. ok is false when a group lost the payment that names it
// (its newest): only a full count finds the next.
func updateGroups(prev Groups, ps *live.PaymentSet, ch live.Changes, sc Scope, since time.Time) (Groups, bool) {
	ids := map[string]struct{}{}
	for _, l := range [][]string{ch.Added, ch.Changed, ch.Removed} {
		for _, id := range l {
			ids[id] = struct{}{}
		}
	}
	if len(ids) > maxUpdate {
		return Groups{}, false // a large batch (a first read of many): counting is cheaper
	}
	if since.After(prev.since) { // what left the window since
		n := ps.Len()
		i := sort.Search(n, func(i int) bool { return !ps.At(i).When().Before(prev.since) })
		for ; i < n && ps.At(i).When().Before(since); i++ {
			ids[ps.At(i).PaymentID] = struct{}{}
		}
	}
	if len(ids) == 0 && since.Equal(prev.since) {
		return prev, true
	}
	by := maps.Clone(prev.by)
	members := prev.members.Edit()
	for id := range ids {
		p, _ := ps.Get(id)
		old, _ := prev.members.Get(id)
		code := groupOf(p, sc, since)
		if old != "" && (old != code || code == "") {
			g := by[old]
			if g.newestID == id {
				return Groups{}, false
			}
			if g.Count--; g.Count == 0 {
				delete(by, old)
			} else {
				by[old] = g
			}
			members.Delete(id)
		}
		switch {
		case code == "":
		case old == code: // still counted there: its error's title may be new
			if g := by[code]; g.newestID == id {
				g.Title, g.Retry = reasonTitle(p), figures.RetryOf(p)
				by[code] = g
			}
		default:
			add(by, code, p)
			members.Set(id, code)
		}
	}
	return finish(Groups{built: true, since: since, members: members.Done(), by: by}), true
}

// finish lists the groups, most payments first.
func finish(g Groups) Groups {
	g.List = make([]CodeGroup, 0, len(g.by))
	for _, x := range g.by {
		g.List = append(g.List, x)
	}
	SortGroups(g.List)
	return g
}
