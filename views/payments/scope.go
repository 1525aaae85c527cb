package paymentsview

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"treasury/desk/paystats"
	"treasury/figures"
	"treasury/kit/span"
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
	scopeOwed      = paystats.Owed
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
func windowWord(d time.Duration) string { return figures.WindowWord(d) }

// parseWindow reads "24h", "7d", "30d" (and "1d", "168h").
func parseWindow(arg string) (time.Duration, error) {
	d, err := span.Parse(arg)
	switch {
	case err != nil:
		return 0, err
	case d < time.Hour:
		return 0, fmt.Errorf("%s is shorter than an hour", arg)
	case d > maxWindow:
		return 0, fmt.Errorf("%s is longer than %s, the longest window the dashboard reads", arg, span.String(maxWindow))
	}
	return d, nil
}

// maxWindow is the longest window of payments a view asks the store to
// hold (the feed reads the days it does not hold, by date).
const maxWindow = 400 * span.Day

// looksLikeWindow says whether a word was meant as a window (digits and a
// unit), to say why it was refused rather than look it up as a payment.
func looksLikeWindow(a string) bool {
	a = strings.TrimSpace(a)
	return a != "" && a[0] >= '0' && a[0] <= '9' && len(a) <= 8
}

// nextWindow is the window w moves to: the next of windows longer than
// the one shown, after the longest the first.
func nextWindow(cur time.Duration) time.Duration {
	for _, w := range windows {
		if w > cur {
			return w
		}
	}
	return windows[0]
}
