package overview

import (
	"time"

	"github.com/charmbracelet/colorprofile"

	"treasury/desk/live"
	"treasury/kit/keep"
	"treasury/wire/apierr"
)

// A panel is drawn again only when what it read changed: the store
// changes at every poll of any of the overview's topics (several times a
// second), and each panel shows a few of them. While a panel is drawn, the
// store reads it makes are noted (snapshot, get, platformTime, and the
// health and alerts read at each change: health); it is kept, for its
// width, while each read gives what it gave and until the first of its
// time-derived texts changes (changesIn).
//
// The panels that read only the store and the clock (all but the alerts
// and the health, which show the session's own reads) are kept for every
// session of the process (ui.Context.Kept, under a sharedPanel key):
// sessions on the overview at one width draw each change of a panel once
// between them.

// panelMemo is a panel as drawn, with what it read.
type panelMemo struct {
	lines     []string
	deps      []dep
	window    int
	colors    colorprofile.Profile
	dark      bool
	at, until time.Time
}

// dep is one read of a panel: what it gave, and how to read it again.
// own marks a read of the session's own state, not the store's.
type dep struct {
	read func() int64
	was  int64
	own  bool
}

// depend notes a read of the panel being drawn.
func (v *View) depend(read func() int64, own bool) int64 {
	x := read()
	v.drawing.deps = append(v.drawing.deps, dep{read: read, was: x, own: own})
	return x
}

// snapshot is the store's snapshot of tp, noted. The reads noted hold
// the store, not the session: a panel kept for every session reads again
// as any of them.
func (v *View) snapshot(tp live.Topic) live.Snapshot {
	st := v.ctx.Store
	sn := st.Snapshot(tp)
	v.depend(func() int64 { return int64(st.Snapshot(tp).Seq) }, false)
	return sn
}

// get is live.Get of k, noted.
func get[T any](v *View, k live.Key[T]) live.Snap[T] {
	st := v.ctx.Store
	s := live.Get(st, k)
	v.depend(func() int64 { return int64(st.Snapshot(k.Topic()).Seq) }, false)
	return s
}

// platformTime is the store's PlatformTime, its offset noted.
func (v *View) platformTime(iface apierr.Interface, at time.Time) time.Time {
	st := v.ctx.Store
	t := st.PlatformTime(iface, at)
	v.depend(func() int64 { return int64(st.PlatformTime(iface, at).Sub(at)) }, false)
	return t
}

// healthRead notes that the panel shows the health, read at each store
// change (readStore); alertsRead that it shows the alerts, read then too.
// Both are the session's own.
func (v *View) healthRead() { v.depend(func() int64 { return int64(v.reads) }, true) }

func (v *View) alertsRead() { v.depend(func() int64 { return int64(v.alertReads) }, true) }

// sharedPanel is a panel kept for every session of the process: what it
// is drawn for.
type sharedPanel struct {
	panel, width, window int
	colors               colorprofile.Profile
	dark                 bool
	base                 string
}

// memoPanel is panel i in width w: kept when still what it would draw.
func (v *View) memoPanel(i, w int) []string {
	k := [2]int{i, w}
	sk := sharedPanel{panel: i, width: w, window: v.window, colors: v.ctx.Colors, dark: v.ctx.Dark, base: v.base}
	shared := v.ctx.Kept != nil && i != panelAlerts && i != panelHealth
	at := v.drawing.at
	m, ok := v.panels[k]
	if shared {
		m, ok = keep.Get[sharedPanel, panelMemo](v.ctx.Kept, sk)
	}
	if ok && m.window == v.window && m.colors == v.ctx.Colors && m.dark == v.ctx.Dark &&
		!at.Before(m.at) && at.Before(m.until) && m.same() {
		v.drawing.until = minTime(v.drawing.until, m.until)
		v.drawing.deps = append(v.drawing.deps, m.deps...)
		return m.lines
	}
	outerUntil, outerDeps := v.drawing.until, v.drawing.deps
	v.drawing.until, v.drawing.deps = at.Add(24*time.Hour), nil
	lines := v.panel(i, w)
	v.panelsDrawn++
	m = panelMemo{lines: lines, deps: v.drawing.deps, window: v.window, colors: v.ctx.Colors, dark: v.ctx.Dark,
		at: at, until: v.drawing.until}
	if shared && !m.own() {
		keep.Put(v.ctx.Kept, sk, m)
	} else {
		if v.panels == nil || len(v.panels) >= 4*panelCount {
			v.panels = map[[2]int]panelMemo{}
		}
		v.panels[k] = m
	}
	v.drawing.until = minTime(outerUntil, m.until)
	v.drawing.deps = append(outerDeps, m.deps...)
	return lines
}

// own reports whether the panel read the session's own state.
func (m *panelMemo) own() bool {
	for _, d := range m.deps {
		if d.own {
			return true
		}
	}
	return false
}

// same reports whether every read of the panel gives what it gave.
func (m *panelMemo) same() bool {
	for _, d := range m.deps {
		if d.read() != d.was {
			return false
		}
	}
	return true
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}
