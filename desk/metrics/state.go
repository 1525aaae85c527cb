package metrics

import (
	"maps"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// State is what the process holds now, read at each scrape.
type State struct {
	// AlertsOpen counts the open alerts by severity (every severity
	// named, those with none at 0).
	AlertsOpen map[string]int
	// Notifications is the webhook receiver's count (nil without one):
	// accepted, and refused by reason.
	Notifications *Notifications
	// PaymentsHeld is how many payments the store holds;
	// DerivationsRunning how many shared derivations have their
	// goroutine running.
	PaymentsHeld, DerivationsRunning int
	// DataAge is, by interface, how long ago its data was last read
	// (interfaces never read yet are absent).
	DataAge map[string]time.Duration
	// Site is how the site stands from this process; nil without one.
	Site *Site
}

// Notifications are a webhook receiver's counts since it started.
type Notifications struct {
	Accepted int
	Rejected map[string]int // by reason: the receiver's fixed set
}

// Site is this process's part in its site.
type Site struct {
	// Role is polls, follows or alone (SiteRoles).
	Role string
	// RecordLag is the most lines a replica of the record is behind its
	// leader; LagKnown says the site answered.
	RecordLag uint64
	LagKnown  bool
	// PollerAge is how long the site's poller has held its lease; zero
	// when no poller is known.
	PollerAge time.Duration
}

// SiteRoles are the values of Site.Role.
func SiteRoles() []string { return []string{"polls", "follows", "alone"} }

// stateCollector turns a State into metrics at each scrape.
type stateCollector struct {
	state                                 func() State
	alerts, accepted, rejected, held, run *prometheus.Desc
	age, role, lag, poller                *prometheus.Desc
}

func newStateCollector(state func() State) *stateCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(Namespace+"_"+name, help, labels, nil)
	}
	return &stateCollector{state: state,
		alerts:   d("alerts_open", "Alerts open now, by severity.", "severity"),
		accepted: d("notifications_accepted_total", "Payment notifications the webhook receiver accepted (signed, in time, well formed)."),
		rejected: d("notifications_rejected_total", "Requests the webhook receiver refused, by reason.", "reason"),
		held:     d("payments_held", "Payments the store holds (the window the views show)."),
		run:      d("derivations_running", "Shared derivations (rows, counts, charts' data) whose goroutine runs: those some session watched within 90 s."),
		age:      d("data_age_seconds", "How long ago each interface's data was last read (this process's reads, or the site poller's).", "interface"),
		role:     d("site_role", "1 for this process's role in the site's polling: polls (holds the lease), follows (folds the poller's reads) or alone (polls without the site).", "role"),
		lag:      d("site_record_lag_lines", "The most lines a replica of the site's record is behind its leader."),
		poller:   d("site_poller_age_seconds", "How long the site's poller has held its lease."),
	}
}

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.alerts, c.accepted, c.rejected, c.held, c.run, c.age, c.role, c.lag, c.poller} {
		ch <- d
	}
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.state()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	for _, sev := range slices.Sorted(maps.Keys(s.AlertsOpen)) {
		gauge(c.alerts, float64(s.AlertsOpen[sev]), sev)
	}
	if n := s.Notifications; n != nil {
		ch <- prometheus.MustNewConstMetric(c.accepted, prometheus.CounterValue, float64(n.Accepted))
		for _, r := range slices.Sorted(maps.Keys(n.Rejected)) {
			ch <- prometheus.MustNewConstMetric(c.rejected, prometheus.CounterValue, float64(n.Rejected[r]), r)
		}
	}
	gauge(c.held, float64(s.PaymentsHeld))
	gauge(c.run, float64(s.DerivationsRunning))
	for _, i := range slices.Sorted(maps.Keys(s.DataAge)) {
		gauge(c.age, s.DataAge[i].Seconds(), i)
	}
	if st := s.Site; st != nil {
		for _, r := range SiteRoles() {
			v := 0.0
			if r == st.Role {
				v = 1
			}
			gauge(c.role, v, r)
		}
		if st.LagKnown {
			gauge(c.lag, float64(st.RecordLag))
		}
		if st.PollerAge > 0 {
			gauge(c.poller, st.PollerAge.Seconds())
		}
	}
}
