package paymentsview

import (
	"strconv"
	"strings"
	"time"

	"treasury/data/live"
	"treasury/data/payments"
)

// scope is the state filter of the root table.
type scope int

// Scopes, in the order `]` cycles through them.
const (
	scopeAll scope = iota
	scopeInFlight
	scopeFailed
	scopeDeclined
	scopeReturned
	scopeCompleted
	scopeCount
)

// word is the scope's palette argument (":payments failed").
func (s scope) word() string {
	return [...]string{"all", "inflight", "failed", "declined", "returned", "completed"}[s]
}

// label is the scope as shown (crumb, scope bar).
func (s scope) label() string {
	return [...]string{"all", "in flight", "FAILED", "DECLINED", "RETURNED", "COMPLETED"}[s]
}

// match reports whether a payment in state st belongs to the scope.
func (s scope) match(st payments.State) bool {
	switch s {
	case scopeAll:
		return true
	case scopeInFlight:
		return st.InFlight()
	case scopeFailed:
		return st == payments.Failed
	case scopeDeclined:
		return st == payments.Declined
	case scopeReturned:
		return st == payments.Returned
	case scopeCompleted:
		return st == payments.Completed
	}
	return false
}

// parseScope reads a palette argument; "in-flight", "in_flight" and the
// state names in any case are accepted.
func parseScope(arg string) (scope, bool) {
	a := strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(arg))
	for s := scopeAll; s < scopeCount; s++ {
		if a == s.word() {
			return s, true
		}
	}
	return 0, false
}

// scopeWords are the palette completions of ":payments".
func scopeWords(prefix string) []string {
	var out []string
	p := strings.ToLower(prefix)
	for s := scopeAll; s < scopeCount; s++ {
		if strings.HasPrefix(s.word(), p) {
			out = append(out, s.word())
		}
	}
	return out
}

// counts are the payments per scope of one set.
type counts [scopeCount]int

func countScopes(ps *live.PaymentSet, since time.Time) counts {
	var c counts
	byState := ps.CountByState()
	// The set is oldest first: take away what is older than the window
	// (a few records, unless the set holds a much wider window).
	for i := 0; i < ps.Len() && ps.At(i).InitiatedAt.Before(since); i++ {
		byState[ps.At(i).PaymentState]--
	}
	for st, n := range byState {
		for s := scopeAll; s < scopeCount; s++ {
			if s.match(st) {
				c[s] += n
			}
		}
	}
	return c
}

// bar is the scope line above the table: every scope with its count, the
// current one marked, and the keys that switch.
func (c counts) bar(cur scope) string {
	var b strings.Builder
	for s := scopeAll; s < scopeCount; s++ {
		if s > 0 {
			b.WriteString("  ")
		}
		if s == cur {
			b.WriteString("[" + s.label() + " " + strconv.Itoa(c[s]) + "]")
			continue
		}
		b.WriteString(s.label() + " " + strconv.Itoa(c[s]))
	}
	return b.String()
}

// windows are the periods the payments are shown over, which w cycles
// through (the first is the default): the store holds the widest a view
// asks for (live.Window).
var windows = [...]time.Duration{24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour}

// windowWord is a window as typed and shown: 24h, 7d, 30d.
func windowWord(d time.Duration) string {
	if d%(24*time.Hour) == 0 && d > 24*time.Hour {
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	return strconv.Itoa(int(d/time.Hour)) + "h"
}

// parseWindow reads "24h", "7d", "30d" (and "1d", "168h").
func parseWindow(arg string) (int, bool) {
	a := strings.ToLower(strings.TrimSpace(arg))
	for i, w := range windows {
		if a == windowWord(w) || a == strconv.Itoa(int(w/time.Hour))+"h" || a == strconv.Itoa(int(w/(24*time.Hour)))+"d" {
			return i, true
		}
	}
	return 0, false
}
