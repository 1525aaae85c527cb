package paymentsview

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/data/live"
	"treasury/data/reporting"
	"treasury/ui"
	"treasury/views/viewkit"
)

// Keys of the RECON calls (viewkit.Loaded.Key).
const (
	keyReports = "paymentsview:reports"
	keyRecon   = "paymentsview:recon:"
)

// reconCache holds the RECON reports downloaded for payment details, per
// report id, grouped per payment, for the life of the view: a report is
// downloaded once however many payments of its period are opened.
type reconCache struct {
	// list is the answer of a List call, made when the store holds no
	// reports; listing says one is out, stopped that it failed and waits
	// for r.
	list     viewkit.Held[[]reporting.Report]
	listing  bool
	stopped  bool
	byReport map[string]*reconEntry
}

// reconEntry is one RECON report: its download's state (loading since,
// failed, answered) and its lines grouped per payment.
type reconEntry struct {
	report    reporting.Report
	snap      live.Snapshot
	payments  int
	byPayment map[string]reporting.ReconPayment
}

// reconResult is what a download call delivers.
type reconResult struct {
	payments  int
	byPayment map[string]reporting.ReconPayment
}

// reportList is the reports known, and the snapshot of the read they come
// from: the store's topic when it holds them, else the view's List call.
func (c *reconCache) reportList(ctx *ui.Context) ([]reporting.Report, live.Snapshot) {
	if reps := live.Get(ctx.Store, live.ReportsKey); reps.Loaded() {
		return reps.Data, reps.Snapshot
	}
	return c.list.Value, c.list.Snap
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

// want returns the call that brings the RECON rows of a payment initiated
// at t closer: listing the reports, or downloading the covering one. It
// returns nil when nothing is to be started.
func (c *reconCache) want(ctx *ui.Context, rc *reporting.Client, t time.Time) tea.Cmd {
	if rc == nil {
		return nil
	}
	reps, snap := c.reportList(ctx)
	if !snap.Loaded() {
		if c.listing || c.stopped {
			return nil
		}
		c.listing = true
		c.list.Ask(ctx.Clock())
		return viewkit.Call(ctx, keyReports, func(ctx context.Context) (any, error) { return rc.List(ctx) })
	}
	rep, ok := covering(reps, t)
	if !ok {
		return nil
	}
	if c.byReport == nil {
		c.byReport = map[string]*reconEntry{}
	}
	if _, ok := c.byReport[rep.ID]; ok {
		return nil
	}
	c.byReport[rep.ID] = &reconEntry{report: rep, snap: viewkit.Asked(live.Snapshot{}, ctx.Clock())}
	return viewkit.Call(ctx, keyRecon+rep.ID, func(ctx context.Context) (any, error) { return downloadRecon(ctx, rc, rep) })
}

// downloadRecon downloads a RECON report and groups its lines per payment
// (off the update loop).
func downloadRecon(ctx context.Context, rc *reporting.Client, rep reporting.Report) (reconResult, error) {
	d, err := rc.Download(ctx, rep)
	if err != nil {
		return reconResult{}, err
	}
	if d.Rows == nil {
		return reconResult{}, errors.New("the report could not be read")
	}
	groups := reporting.GroupRecon(d.Rows.Recon)
	out := reconResult{payments: len(groups), byPayment: make(map[string]reporting.ReconPayment, len(groups))}
	for _, g := range groups {
		out.byPayment[g.NetworkPaymentID] = g
	}
	return out, nil
}

// loaded takes the answers of the RECON calls.
func (c *reconCache) loaded(m viewkit.Loaded, now time.Time) {
	switch {
	case m.Key == keyReports:
		c.listing = false
		c.stopped = m.Err != nil
		if reps, ok := m.Value.([]reporting.Report); ok && m.Err == nil {
			m.Value = append([]reporting.Report{}, reps...)
		}
		c.list.Answer(now, m.Value, m.Err)
	case len(m.Key) > len(keyRecon) && m.Key[:len(keyRecon)] == keyRecon:
		e, ok := c.byReport[m.Key[len(keyRecon):]]
		if !ok {
			return
		}
		e.snap = viewkit.Answered(e.snap, now, m.Err)
		if m.Err == nil {
			r, _ := m.Value.(reconResult)
			e.payments, e.byPayment = r.payments, r.byPayment
		}
	}
}

// retry forgets failed calls so that the next want starts them again.
func (c *reconCache) retry() {
	c.stopped = false
	for id, e := range c.byReport {
		if e.snap.Err != nil {
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
	reps, snap := c.reportList(ctx)
	if !snap.Loaded() {
		return reconState{snap: snap}
	}
	rep, ok := covering(reps, t)
	if !ok {
		return reconState{listed: true, snap: snap}
	}
	s := reconState{listed: true, report: rep, found: true}
	if e, ok := c.byReport[rep.ID]; ok {
		s.snap, s.payments = e.snap, e.payments
		if g, ok := e.byPayment[id]; ok {
			s.group = &g
		}
	}
	return s
}
