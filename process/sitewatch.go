package process

import (
	"context"
	"strings"
	"time"

	"treasury/data/live"
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
	rt     *Runtime
	raised map[string]string // title by key
}

// watchSite runs the site's watch until ctx ends or stop.
func (r *Runtime) watchSite(ctx context.Context) (stop func()) {
	w := &siteWatch{rt: r, raised: map[string]string{}}
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
		changed := w.rt.Site.Changed()
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
	weak := w.rt.Site.Weak(wctx)
	if ctx.Err() != nil {
		return // the process ends
	}
	now := map[string]bool{}
	for _, k := range weak {
		now[k.Key] = true
		if w.raised[k.Key] == k.Title {
			continue
		}
		w.raised[k.Key] = k.Title
		a := live.Alert{Key: k.Key, Severity: live.Medium, Code: "SITE", Banner: bannerSiteWeak, Title: k.Title, Guidance: k.Guidance}
		if k.Forming {
			a.Banner = bannerSiteForming
		}
		if strings.Contains(k.Title, "cannot take a line") || strings.HasPrefix(k.Key, "site:refused:"+w.rt.Site.Node()) {
			a.Severity = live.High
		}
		w.rt.Platform.Store.Notice(a)
		w.rt.Log.Warn("site: "+k.Title, "alert", k.Key)
	}
	for k := range w.raised {
		if !now[k] {
			delete(w.raised, k)
			w.rt.Platform.Store.Withdraw(k)
			w.rt.Log.Info("site: alert cleared", "alert", k)
		}
	}
}
