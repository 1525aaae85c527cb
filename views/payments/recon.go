package paymentsview

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"

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
	reports    []reporting.Report // from a List call, when the store has none
	reportsErr error
	listing    bool
	byReport   map[string]*reconEntry
}

// reconEntry is one RECON report: loading, failed, or grouped per payment.
type reconEntry struct {
	report    reporting.Report
	loading   bool
	err       error
	payments  int
	byPayment map[string]reporting.ReconPayment
}

// reconResult is what a download call delivers.
type reconResult struct {
	payments  int
	byPayment map[string]reporting.ReconPayment
}

// reportList is the reports known: the store's topic, else those listed.
func (c *reconCache) reportList(ctx *ui.Context) ([]reporting.Report, bool) {
	if reps := live.Get(ctx.Store, live.ReportsKey); reps.Loaded() {
		return reps.Data, true
	}
	return c.reports, c.reports != nil
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
	reps, ok := c.reportList(ctx)
	if !ok {
		if c.listing || c.reportsErr != nil {
			return nil
		}
		c.listing = true
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
	c.byReport[rep.ID] = &reconEntry{report: rep, loading: true}
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
func (c *reconCache) loaded(m viewkit.Loaded) {
	switch {
	case m.Key == keyReports:
		c.listing = false
		c.reportsErr = m.Err
		if m.Err == nil {
			reps, _ := m.Value.([]reporting.Report)
			c.reports = append([]reporting.Report{}, reps...)
		}
	case len(m.Key) > len(keyRecon) && m.Key[:len(keyRecon)] == keyRecon:
		e, ok := c.byReport[m.Key[len(keyRecon):]]
		if !ok {
			return
		}
		e.loading, e.err = false, m.Err
		if m.Err == nil {
			r, _ := m.Value.(reconResult)
			e.payments, e.byPayment = r.payments, r.byPayment
		}
	}
}

// retry forgets failed calls so that the next want starts them again.
func (c *reconCache) retry() {
	c.reportsErr = nil
	for id, e := range c.byReport {
		if e.err != nil {
			delete(c.byReport, id)
		}
	}
}

// reconState is what the detail shows of a payment's RECON rows.
type reconState struct {
	report   reporting.Report
	found    bool // a covering report exists
	loading  bool
	err      error
	payments int
	group    *reporting.ReconPayment
}

func (c *reconCache) state(ctx *ui.Context, id string, t time.Time) reconState {
	reps, ok := c.reportList(ctx)
	if !ok {
		return reconState{loading: c.listing, err: c.reportsErr}
	}
	rep, ok := covering(reps, t)
	if !ok {
		return reconState{}
	}
	s := reconState{report: rep, found: true, loading: true}
	if e, ok := c.byReport[rep.ID]; ok {
		s.loading, s.err, s.payments = e.loading, e.err, e.payments
		if g, ok := e.byPayment[id]; ok {
			s.group = &g
		}
	}
	return s
}
