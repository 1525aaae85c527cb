package overview

import (
	"time"

	"github.com/charmbracelet/colorprofile"

	"treasury/data/apierr"
	"treasury/data/live"
)

// A panel is drawn again only when what it read changed: the store
// changes at every poll of any of the overview's topics (several times a
// second), and each panel shows a few of them. While a panel is drawn, the
// store reads it makes are noted (snapshot, get, platformTime, and the
// health and alerts read at each change: health); it is kept, for its
// width, while each read gives what it gave and until the first of its
// time-derived texts changes (changesIn).

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
type dep struct {
	read func() int64
	was  int64
}

// depend notes a read of the panel being drawn.
func (v *View) depend(read func() int64) int64 {
	x := read()
	v.drawing.deps = append(v.drawing.deps, dep{read: read, was: x})
	return x
}

// snapshot is the store's snapshot of tp, noted.
func (v *View) snapshot(tp live.Topic) live.Snapshot {
	sn := v.ctx.Store.Snapshot(tp)
	v.depend(func() int64 { return int64(v.ctx.Store.Snapshot(tp).Seq) })
	return sn
}

// get is live.Get of k, noted.
func get[T any](v *View, k live.Key[T]) live.Snap[T] {
	s := live.Get(v.ctx.Store, k)
	v.depend(func() int64 { return int64(v.ctx.Store.Snapshot(k.Topic()).Seq) })
	return s
}

// platformTime is the store's PlatformTime, its offset noted.
func (v *View) platformTime(iface apierr.Interface, at time.Time) time.Time {
	t := v.ctx.Store.PlatformTime(iface, at)
	v.depend(func() int64 { return int64(v.ctx.Store.PlatformTime(iface, at).Sub(at)) })
	return t
}

// healthRead notes that the panel shows the health, read at each store
// change (readStore); alertsRead that it shows the alerts, read then too.
func (v *View) healthRead() { v.depend(func() int64 { return int64(v.reads) }) }

func (v *View) alertsRead() { v.depend(func() int64 { return int64(v.alertReads) }) }

// memoPanel is panel i in width w: kept when still what it would draw.
func (v *View) memoPanel(i, w int) []string {
	k := [2]int{i, w}
	at := v.drawing.at
	if m, ok := v.panels[k]; ok && m.window == v.window && m.colors == v.ctx.Colors && m.dark == v.ctx.Dark &&
		!at.Before(m.at) && at.Before(m.until) && m.same() {
		v.drawing.until = minTime(v.drawing.until, m.until)
		v.drawing.deps = append(v.drawing.deps, m.deps...)
		return m.lines
	}
	outerUntil, outerDeps := v.drawing.until, v.drawing.deps
	v.drawing.until, v.drawing.deps = at.Add(24*time.Hour), nil
	lines := v.panel(i, w)
	v.panelsDrawn++
	m := panelMemo{lines: lines, deps: v.drawing.deps, window: v.window, colors: v.ctx.Colors, dark: v.ctx.Dark,
		at: at, until: v.drawing.until}
	if v.panels == nil || len(v.panels) >= 4*panelCount {
		v.panels = map[[2]int]panelMemo{}
	}
	v.panels[k] = m
	v.drawing.until = minTime(outerUntil, m.until)
	v.drawing.deps = append(outerDeps, m.deps...)
	return lines
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
