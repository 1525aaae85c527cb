package overview

import (
	"cmp"
	"slices"
	"time"

	"treasury/data/live"
	"treasury/views/paystats"
)

// topReasons is how many reason codes the payments panel names.
const topReasons = 3

// Reason is a reason code of failed or declined payments and how many.
type Reason struct {
	paystats.CodeGroup
	// State is FAILED or DECLINED.
	State string
}

// PaySummary is the payments initiated in a window: per state scope,
// how many of those finished failed, and why, built from the payments
// view's shared counts once per change for every session.
type PaySummary struct {
	Counts paystats.Counts
	// Finished counts the payments in a final state (COMPLETED, FAILED,
	// DECLINED, RETURNED); Failed those FAILED or DECLINED.
	Finished, Failed int
	// Top are the most frequent reason codes of the failed and declined
	// payments, most payments first.
	Top []Reason
	// Reasons is how many different reason codes there are.
	Reasons int
	// Loaded says the counts had been built.
	Loaded bool
}

// FailureRate is Failed over Finished, in percent (ok false when nothing
// finished).
func (p PaySummary) FailureRate() (float64, bool) {
	if p.Finished == 0 {
		return 0, false
	}
	return float64(p.Failed) / float64(p.Finished) * 100, true
}

// payKey registers the payments summary of a window: a combination of the
// shared counts per scope and the reason groups of FAILED and DECLINED.
func payKey(st *live.Store, win time.Duration) live.Key[PaySummary] {
	counts := paystats.ScopeCounts(st, win)
	failed, declined := paystats.CodeGroups(st, paystats.Failed, win), paystats.CodeGroups(st, paystats.Declined, win)
	return live.Combine(st, "overview-payments@"+paystats.WindowWord(win), func(_ PaySummary, in live.Inputs) PaySummary {
		c := live.Input(in, counts)
		if !c.Loaded() {
			return PaySummary{}
		}
		return summarize(c.Data, live.Input(in, failed).Data.List, live.Input(in, declined).Data.List)
	}, live.CombineOptions[PaySummary]{}, counts.Topic(), failed.Topic(), declined.Topic())
}

func summarize(c paystats.Counts, failed, declined []paystats.CodeGroup) PaySummary {
	out := PaySummary{Counts: c, Loaded: true,
		Finished: c[paystats.Completed] + c[paystats.Failed] + c[paystats.Declined] + c[paystats.Returned],
		Failed:   c[paystats.Failed] + c[paystats.Declined]}
	all := make([]Reason, 0, len(failed)+len(declined))
	for _, g := range failed {
		all = append(all, Reason{CodeGroup: g, State: paystats.Failed.Label()})
	}
	for _, g := range declined {
		all = append(all, Reason{CodeGroup: g, State: paystats.Declined.Label()})
	}
	// As the payments view orders its groups: most payments first.
	slices.SortFunc(all, func(a, b Reason) int {
		return cmp.Or(b.Count-a.Count, cmp.Compare(a.Code, b.Code), cmp.Compare(a.State, b.State))
	})
	out.Reasons = len(all)
	out.Top = all[:min(topReasons, len(all)):min(topReasons, len(all))]
	return out
}
