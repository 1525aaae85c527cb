package paymentsview

import (
	"strconv"
	"strings"
	"time"

	"treasury/views/paystats"
)

// scope is the state filter of the root table (the shared counts and
// reason groups of paystats are per scope).
type scope = paystats.Scope

// Scopes, in the order `]` cycles through them.
const (
	scopeAll       = paystats.All
	scopeQuoted    = paystats.Quoted
	scopeInFlight  = paystats.InFlight
	scopeFailed    = paystats.Failed
	scopeDeclined  = paystats.Declined
	scopeReturned  = paystats.Returned
	scopeCompleted = paystats.Completed
	scopeCount     = paystats.NScopes
)

// parseScope reads a palette argument; "in-flight", "in_flight" and the
// state names in any case are accepted.
func parseScope(arg string) (scope, bool) {
	a := strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(arg))
	for s := scopeAll; s < scopeCount; s++ {
		if a == s.Word() {
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
		if strings.HasPrefix(s.Word(), p) {
			out = append(out, s.Word())
		}
	}
	return out
}

// counts are the payments per scope of one set.
type counts = paystats.Counts

// scopeParts are the parts of the scope line above the table: every scope
// with its count, the current one marked.
func scopeParts(c counts, cur scope) []string {
	out := make([]string, 0, scopeCount)
	for s := scopeAll; s < scopeCount; s++ {
		part := s.Label() + " " + strconv.Itoa(c[s])
		if s == cur {
			part = "[" + part + "]"
		}
		out = append(out, part)
	}
	return out
}

// windows are the periods the payments are shown over, which w cycles
// through (the first is the default): the store holds the widest a view
// asks for (live.Window).
var windows = [...]time.Duration{24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour}

// windowWord is a window as typed and shown: 24h, 7d, 30d.
func windowWord(d time.Duration) string { return paystats.WindowWord(d) }

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
