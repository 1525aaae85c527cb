package process

import (
	"context"
	"strings"
	"time"

	"treasury/desk/actions"
	"treasury/desk/live"
	"treasury/desk/metrics"
	"treasury/kit/buildinfo"
)

// newMetrics is the process's metrics registry, labelled with the build.
func newMetrics() *metrics.Metrics {
	b := buildinfo.Read()
	return metrics.New(metrics.Build{Version: b.Version, Commit: b.Commit, Modified: b.Modified})
}

// ActionClients are the action clients every session's actor takes: the
// profile's, the process's keys (Pending), and the metrics told of each
// attempt's end.
func (r *Runtime) ActionClients() actions.Clients {
	p := r.Platform
	return actions.Clients{Transactions: p.WalletTransactions, Custody: p.Custody, CanSign: p.CustodyCanSign,
		Pending: r.Pending, OnOutcome: r.Metrics.Action}
}

// siteHealthTimeout bounds the site's answer at a scrape.
const siteHealthTimeout = time.Second

// metricsState is what the process holds now, for a scrape.
func (r *Runtime) metricsState() metrics.State {
	st := metrics.State{AlertsOpen: map[string]int{}, DataAge: map[string]time.Duration{}}
	for _, s := range []live.Severity{live.Low, live.Medium, live.High} {
		st.AlertsOpen[strings.ToLower(s.String())] = 0
	}
	store := r.Platform.Store
	for _, a := range store.Alerts() {
		st.AlertsOpen[strings.ToLower(a.Severity.String())]++
	}
	if ps := live.Get(store, live.PaymentsKey).Data; ps != nil {
		st.PaymentsHeld = ps.Len()
	}
	st.DerivationsRunning = store.Running()
	now := r.Platform.Now()
	for i, at := range r.Platform.LastRead() {
		st.DataAge[string(i)] = max(0, now.Sub(at))
	}
	if r.HasWebhooks() {
		ws := r.WebhookStatus()
		st.Notifications = &metrics.Notifications{Accepted: ws.Stats.Accepted, Rejected: ws.Rejections}
	}
	if r.Site != nil {
		st.Site = r.siteState()
	}
	return st
}

// siteState is this process's part in its site: its role in the polling,
// the record's lag (when the site answers within siteHealthTimeout) and
// how long the poller has held its lease.
func (r *Runtime) siteState() *metrics.Site {
	s := &metrics.Site{}
	ctx, cancel := context.WithTimeout(context.Background(), siteHealthTimeout)
	defer cancel()
	if h, err := r.Site.Health(ctx); err == nil {
		s.RecordLag, s.LagKnown = h.Lag(), true
	}
	if r.Polling != nil {
		pl := r.Polling.Stats().Poller
		s.Role = SiteRole(pl)
		if !pl.Since.IsZero() && pl.Node != "" {
			s.PollerAge = max(0, time.Since(pl.Since))
		}
	}
	return s
}

// SiteRole names a process's part in its site's polling: polls (it holds
// the lease), alone (it polls without the site) or follows.
func SiteRole(p live.Poller) string {
	switch {
	case p.Alone != "":
		return "alone"
	case p.Here:
		return "polls"
	}
	return "follows"
}
