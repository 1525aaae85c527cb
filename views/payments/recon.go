package paymentsview

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/wire/reporting"
)

// reconCache holds the store's reads of the RECON reports this view's
// payment details asked for, by report id: a report is downloaded once
// however many payments of its period are opened, in however many
// sessions (platform.Reads.Recon).
type reconCache struct {
	byReport map[string]live.Key[platform.Recon]
}

// covering picks the RECON report whose period holds t (the first listed
// when several formats of one period exist).
func covering(reps []reporting.Report, t time.Time) (reporting.Report, bool) {
	for _, r := range reps {
		if r.Type == reporting.TypeRecon && !t.Before(r.StartDate) && !t.After(r.EndDate) {
			return r, true
		}
	}
	return reporting.Report{}, false
}

// want returns the read that brings the RECON rows of a payment initiated
// at t closer: the covering report's, once the reports are listed (the
// detail watches live.Reports). It returns nil when nothing is to be
// started.
func (c *reconCache) want(ctx *ui.Context, p *platform.Platform, t time.Time) tea.Cmd {
	if p == nil || p.Reporting == nil {
		return nil
	}
	reps := live.Get(ctx.Store, live.ReportsKey)
	if !reps.Loaded() {
		return nil
	}
	rep, ok := covering(reps.Data, t)
	if !ok {
		return nil
	}
	if c.byReport == nil {
		c.byReport = map[string]live.Key[platform.Recon]{}
	}
	if _, ok := c.byReport[rep.ID]; ok {
		return nil
	}
	k := live.Ask(ctx.Store, p.Reads.Recon, rep)
	c.byReport[rep.ID] = k
	return viewkit.Fetch(ctx, k, time.Time{}) // a report's file does not change: a read held is kept
}

// retry forgets the reads that failed so that the next want makes them
// again.
func (c *reconCache) retry(ctx *ui.Context) {
	for id, k := range c.byReport {
		if live.Get(ctx.Store, k).Err != nil {
			delete(c.byReport, id)
		}
	}
}

// reconState is what the detail shows of a payment's RECON rows: the
// read it waits for (the report list, then the covering report's
// download) as a snapshot, and once both answered, the payment's lines.
type reconState struct {
	listed   bool // the report list answered
	report   reporting.Report
	found    bool // a covering report exists
	snap     live.Snapshot
	payments int
	group    *reporting.ReconPayment
}

func (c *reconCache) state(ctx *ui.Context, id string, t time.Time) reconState {
	reps := live.Get(ctx.Store, live.ReportsKey)
	if !reps.Loaded() {
		return reconState{snap: reps.Snapshot}
	}
	rep, ok := covering(reps.Data, t)
	if !ok {
		return reconState{listed: true, snap: reps.Snapshot}
	}
	s := reconState{listed: true, report: rep, found: true}
	if k, ok := c.byReport[rep.ID]; ok {
		got := live.Get(ctx.Store, k)
		s.snap, s.payments = got.Snapshot, got.Data.Payments
		if g, ok := got.Data.ByPayment[id]; ok {
			s.group = &g
		}
	}
	return s
}
