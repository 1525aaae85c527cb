package overview

import (
	"cmp"
	"slices"
	"time"

	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/figures"
	"treasury/wire/apierr"
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
	// Rate is the failure rate of the payments that finished in the
	// window (whenever they were initiated): the definition of the
	// FAILURE_RATE alert (figures.Rate), on the platform's clock at the
	// payments' read.
	Rate figures.Rate
	// Top are the most frequent reason codes of the failed and declined
	// payments, most payments first.
	Top []Reason
	// Reasons is how many different reason codes there are.
	Reasons int
	// Unread is how many of them have their reason not read (it is read
	// by id when shown, or for the alerts: paystats.NoCode).
	Unread int
	// Loaded says the counts had been built.
	Loaded bool
}

// payKey registers the payments summary of a window: a combination of the
// paySummaryName names the payments summary of a window.
type paySummaryName struct{ win time.Duration }

// shared counts per scope and the reason groups of FAILED and DECLINED.
func payKey(st *live.Store, win time.Duration) live.Key[PaySummary] {
	counts := paystats.ScopeCounts(st, win)
	failed, declined := paystats.CodeGroups(st, paystats.Failed, win), paystats.CodeGroups(st, paystats.Declined, win)
	return live.Combine(st, paySummaryName{win}, func(_ PaySummary, in live.Inputs) PaySummary {
		c, ps := live.Input(in, counts), live.Input(in, live.PaymentsKey)
		if !c.Loaded() {
			return PaySummary{}
		}
		out := summarize(c.Data, live.Input(in, failed).Data.List, live.Input(in, declined).Data.List)
		if ps.Loaded() {
			at := st.PlatformTime(apierr.Payments, ps.FetchedAt)
			out.Rate = live.FailureRate(ps.Data, at.Add(-win), at)
		}
		return out
	}, live.CombineOptions[PaySummary]{}, counts.Topic(), failed.Topic(), declined.Topic(), live.Payments)
}

func summarize(c paystats.Counts, failed, declined []paystats.CodeGroup) PaySummary {
	out := PaySummary{Counts: c, Loaded: true}
	all := make([]Reason, 0, len(failed)+len(declined))
	add := func(gs []paystats.CodeGroup, st paystats.Scope) {
		for _, g := range gs {
			if g.Code == paystats.NoCode {
				out.Unread += g.Count // not a reason: those whose reason is not read
				continue
			}
			all = append(all, Reason{CodeGroup: g, State: st.Label()})
		}
	}
	add(failed, paystats.Failed)
	add(declined, paystats.Declined)
	// As the payments view orders its groups: most payments first.
	slices.SortFunc(all, func(a, b Reason) int {
		return cmp.Or(b.Count-a.Count, cmp.Compare(a.Code, b.Code), cmp.Compare(a.State, b.State))
	})
	out.Reasons = len(all)
	out.Top = all[:min(topReasons, len(all)):min(topReasons, len(all))]
	return out
}
