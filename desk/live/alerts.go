package live

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"treasury/wire/apierr"
)

// Severity orders alerts.
type Severity int

// Severities, as spec 7.1 rule 4 names them.
const (
	Low Severity = iota
	Medium
	High
)

func (s Severity) String() string {
	switch s {
	case High:
		return "HIGH"
	case Medium:
		return "MEDIUM"
	}
	return "LOW"
}

// Alert is an open condition an operator should look at.
type Alert struct {
	Key       string
	Severity  Severity
	Interface apierr.Interface
	Endpoint  string
	Code      string
	Title     string
	Guidance  string
	Since     time.Time
	Last      time.Time
	Count     int
	// Topic and Ref point at what to open: a view topic and a record id
	// (for example the payments topic and a payment id).
	Topic Topic
	Ref   string
	// Banner, when set, is a few words every session's header shows while
	// the alert is open ("AUDIT BROKEN"): a condition no one may miss.
	Banner string
	// Due, when set, is when the condition bites (a runway's balance runs
	// out): within a severity the alert due soonest is the most urgent.
	Due time.Time
}

// RepeatedSystemErrors is how many SYS_ (or other retryable) failures in a
// row from one endpoint raise a medium alert (spec 7.1 rule 4).
const RepeatedSystemErrors = 3

type alertBook struct {
	byKey   map[string]*Alert
	sysRuns map[string]int
	data    map[Topic][]Alert
	journal *journal // the changes, for notifications (journal.go)
}

func newAlertBook() *alertBook {
	return &alertBook{byKey: map[string]*Alert{}, sysRuns: map[string]int{}, data: map[Topic][]Alert{}, journal: newJournal()}
}

// observe raises or clears error alerts of one endpoint. Success clears the
// endpoint's alerts: the condition is over.
func (b *alertBook) observe(iface apierr.Interface, endpoint string, ae *apierr.Error, err error, at time.Time) {
	defer b.noted(at, "")
	ep := string(iface) + " " + endpoint
	if err == nil {
		delete(b.sysRuns, ep)
		for k, a := range b.byKey {
			if a.Interface == iface && a.Endpoint == endpoint {
				delete(b.byKey, k)
			}
		}
		return
	}
	if ae == nil {
		b.sysRuns[ep]++
		if b.sysRuns[ep] >= RepeatedSystemErrors {
			b.raise(Alert{Key: "net:" + ep, Severity: Medium, Interface: iface, Endpoint: endpoint,
				Title: fmt.Sprintf("%s %s failing: %v", iface, endpoint, err), Guidance: "Network or transport failure, retried on every poll."}, at)
		}
		return
	}
	switch {
	case strings.HasPrefix(ae.Code, "CFG_"):
		b.raise(Alert{Key: "cfg:" + ep, Severity: High, Interface: iface, Endpoint: endpoint, Code: ae.Code,
			Title: "Configuration error " + ae.Code + " on " + ep, Guidance: ae.Guidance()}, at)
	case ae.Code == "AUTH_002" || ae.Code == "AUTH_051":
		b.raise(Alert{Key: "auth:" + ep + ":" + ae.Code, Severity: Medium, Interface: iface, Endpoint: endpoint, Code: ae.Code,
			Title: "Forbidden " + ae.Code + " on " + ep, Guidance: ae.Guidance()}, at)
	case ae.Class == apierr.ClassRetry || ae.Class == apierr.ClassMalformed:
		b.sysRuns[ep]++
		if b.sysRuns[ep] >= RepeatedSystemErrors {
			code := ae.Code
			if code == "" {
				code = fmt.Sprint(ae.HTTPStatus)
			}
			b.raise(Alert{Key: "sys:" + ep, Severity: Medium, Interface: iface, Endpoint: endpoint, Code: code,
				Title: fmt.Sprintf("Repeated %s from %s (%d in a row)", code, ep, b.sysRuns[ep]), Guidance: ae.Guidance()}, at)
		}
	case ae.Class == apierr.ClassOperator:
		b.raise(Alert{Key: "op:" + ep, Severity: High, Interface: iface, Endpoint: endpoint, Code: ae.Code,
			Title: "Profile or operator problem " + ae.Code + " on " + ep, Guidance: ae.Guidance()}, at)
	}
}

// open reports whether an error alert of the endpoint is open or being
// counted towards (what a success of it clears).
func (b *alertBook) open(iface apierr.Interface, endpoint string) bool {
	if b.sysRuns[string(iface)+" "+endpoint] != 0 {
		return true
	}
	for _, a := range b.byKey {
		if a.Interface == iface && a.Endpoint == endpoint {
			return true
		}
	}
	return false
}

func (b *alertBook) raise(a Alert, at time.Time) {
	if old, ok := b.byKey[a.Key]; ok {
		// Its words, and how grave it is, are the condition's now (a
		// replica behind, then offline: the record cannot take a line).
		old.Last, old.Count, old.Title, old.Guidance = at, old.Count+1, a.Title, a.Guidance
		old.Severity, old.Banner = a.Severity, a.Banner
		return
	}
	a.Since, a.Last, a.Count = at, at, 1
	b.byKey[a.Key] = &a
}

// replaceData sets the data-driven alerts of a topic, keeping the Since of
// alerts that were already open.
func (b *alertBook) replaceData(t Topic, alerts []Alert, at time.Time) {
	defer b.noted(at, t)
	prev := map[string]Alert{}
	for _, a := range b.data[t] {
		prev[a.Key] = a
	}
	for i := range alerts {
		// Open since the earliest it was known to hold: a reason read later
		// can show the condition started before it was first raised.
		if p, ok := prev[alerts[i].Key]; ok && (alerts[i].Since.IsZero() || p.Since.Before(alerts[i].Since)) {
			alerts[i].Since = p.Since
		} else if alerts[i].Since.IsZero() {
			alerts[i].Since = at
		}
		alerts[i].Last = at
		if alerts[i].Count == 0 {
			alerts[i].Count = 1
		}
	}
	b.data[t] = alerts
}

// Alerts returns the open alerts, most severe first; within a severity the
// most urgent (the one due soonest: Due) first, then those without a due
// time, newest first.
func (s *Store) Alerts() []Alert {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Alert
	for _, a := range s.alerts.byKey {
		out = append(out, *a)
	}
	for _, as := range s.alerts.data {
		out = append(out, as...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Severity != out[j].Severity {
			return out[i].Severity > out[j].Severity
		}
		if di, dj := out[i].Due, out[j].Due; !di.Equal(dj) && (!di.IsZero() || !dj.IsZero()) {
			// By urgency: what bites first first, then what has no time.
			return !di.IsZero() && (dj.IsZero() || di.Before(dj))
		}
		if !out[i].Since.Equal(out[j].Since) {
			return out[i].Since.After(out[j].Since)
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// AlertTopics lists, sorted, the topics whose data raises alerts (low
// balances, declines): until each has been read, and while its reads fail,
// the absence of such an alert says nothing.
func (s *Store) AlertTopics() []Topic {
	var out []Topic
	for t, p := range s.feeds {
		if p.feed.alerts != nil {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
