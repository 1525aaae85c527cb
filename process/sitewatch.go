package process

import (
	"context"
	"log/slog"
	"time"

	"treasury/desk/live"
	"treasury/desk/site"
)

// SiteRecheck is how often a process looks at how its site stands (at
// once, besides, when a node says it changed).
const SiteRecheck = 5 * time.Second

// siteWeakTimeout bounds one look at the site (its record's stream
// answers within it, or the site is read as not formed, or not reached).
const siteWeakTimeout = 3 * time.Second

// Banners of the site's alerts.
const (
	bannerSiteWeak    = "SITE WEAK"
	bannerSiteForming = "SITE FORMING"
)

// siteWatch raises an alert for each condition that makes the site weak
// (site.Weak: a replica of the record behind or offline, a node's
// JetStream off, a node refused for its credentials) and while the site
// forms at the start: every session's header says SITE WEAK or SITE
// FORMING, the alerts view says which node and what to do. Each is
// logged when raised, when it changes, and when it clears.
type siteWatch struct {
	site   siteLooks
	alerts alertBoard
	log    *slog.Logger
	raised map[string]string // title by key
}

// siteLooks is what the watch reads of the site (a *site.Site).
type siteLooks interface {
	Weak(context.Context) []site.Weakness
	Changed() <-chan struct{}
	Node() string
}

// alertBoard takes the watch's alerts (the process's live.Store).
type alertBoard interface {
	Notice(live.Alert)
	Withdraw(key string)
}

// watchSite runs the site's watch until ctx ends or stop.
func (r *Runtime) watchSite(ctx context.Context) (stop func()) {
	w := &siteWatch{site: r.Site, alerts: r.Platform.Store, log: r.Log, raised: map[string]string{}}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.run(ctx)
	}()
	return func() { cancel(); <-done }
}

func (w *siteWatch) run(ctx context.Context) {
	t := time.NewTicker(SiteRecheck)
	defer t.Stop()
	for {
		changed := w.site.Changed()
		w.look(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-changed:
		}
	}
}

// look reads the site's weaknesses and raises, changes or withdraws
// their alerts.
func (w *siteWatch) look(ctx context.Context) {
	wctx, cancel := context.WithTimeout(ctx, siteWeakTimeout)
	defer cancel()
	weak := w.site.Weak(wctx)
	if ctx.Err() != nil {
		return // the process ends
	}
	now := map[string]bool{}
	for _, k := range weak {
		now[k.Key] = true
		if w.raised[k.Key] == k.Title {
			continue
		}
		w.raised[k.Key] = k.Title // a change of words is a change of gravity too: raised again
		a := live.Alert{Key: k.Key, Severity: live.Medium, Code: "SITE", Banner: bannerSiteWeak, Title: k.Title, Guidance: k.Guidance}
		if k.Forming {
			a.Banner = bannerSiteForming
		}
		if k.Grave || k.Key == "site:refused:"+w.site.Node() {
			a.Severity = live.High
		}
		w.alerts.Notice(a)
		w.log.Warn("site: "+k.Title, "alert", k.Key)
	}
	for k := range w.raised {
		if !now[k] {
			delete(w.raised, k)
			w.alerts.Withdraw(k)
			w.log.Info("site: alert cleared", "alert", k)
		}
	}
}
