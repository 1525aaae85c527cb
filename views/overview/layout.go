package overview

import (
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"

	"treasury/desk/live"
	"treasury/ui"
)

// The panels in the order they are kept: when the page does not fit, the
// last is left out first (health, then alerts, then payments). The rates
// and the balances with their runway are what the desk opens the page
// for; the header above shows the health of each interface and counts the
// open alerts anyway.
const (
	panelRates = iota
	panelBalances
	panelPayments
	panelExposure
	panelAlerts
	panelHealth
	panelCount
)

// panelName names a panel in the line that says what was left out.
func panelName(i int) string {
	return [panelCount]string{"rates", "balances", "payments", "exposure", "alerts", "health"}[i]
}

// sideBySide is the width from which the payments stand beside the alerts
// and the health rather than above them.
const sideBySide = 100

// Render draws the panels that fit in w x h, leaving out the least
// important first, and says which were left out. Before a panel is left
// out, the blank lines between panels go.
func (v *View) Render(w, h int) string {
	if !v.read {
		v.readStore()
	}
	// A frame shows ages as of the session's last tick (ui.Context.Shown).
	// It is drawn again when the store changed, the size, the window or
	// the theme did, or when the tick reaches the first time at which one
	// of its ages or stale marks changes (bubbletea asks for a frame after
	// every message, a key or a tick; an idle overview's ticks cost a
	// comparison, not a drawing).
	key := frameKey{seq: v.ctx.Store.Seq(), reads: v.reads, w: w, h: h, window: v.window, colors: v.ctx.Colors, dark: v.ctx.Dark}
	at := v.ctx.Shown()
	if f := &v.frame; f.out != "" && f.key == key && !at.Before(f.at) && at.Before(f.until) {
		return f.out
	}
	v.drawing.at, v.drawing.until, v.drawing.deps = at, at.Add(24*time.Hour), nil
	out := v.draw(w, h)
	v.drawing.deps = nil
	v.frame = frame{key: key, out: out, at: at, until: v.drawing.until}
	return out
}

// frameKey is what a frame depends on besides the time.
type frameKey struct {
	seq, reads   uint64
	w, h, window int
	colors       colorprofile.Profile
	dark         bool
}

// frame is the last frame drawn, for the time at, the same until until.
type frame struct {
	key       frameKey
	out       string
	at, until time.Time
}

// changesIn notes that a text of the frame being drawn changes d after
// the time it is drawn for: the frame is drawn again then. Noting a change
// that does not come only draws the frame once more than needed; missing
// one leaves a text unchanged that should be.
func (v *View) changesIn(d time.Duration) {
	if d <= 0 {
		d = time.Nanosecond
	}
	if t := v.drawing.at.Add(d); t.Before(v.drawing.until) {
		v.drawing.until = t
	}
}

// ageText is ui.Age(now, t), noting when it changes.
func (v *View) ageText(now, t time.Time) string {
	v.changesIn(ui.AgeChange(now, t))
	return ui.Age(now, t)
}

// stale is sn.Stale(now), noting when it turns.
func (v *View) stale(sn live.Snapshot, now time.Time) bool {
	if sn.Stale(now) {
		return true // for good, until the store changes
	}
	if sn.Interval > 0 {
		v.changesIn(sn.FetchedAt.Add(2 * sn.Interval).Sub(now))
	}
	return false
}

// draw lays the panels out in w x h.
func (v *View) draw(w, h int) string {
	drawn := map[[2]int][]string{} // each panel is drawn once per width
	panel := func(i, w int) []string {
		k := [2]int{i, w}
		if l, ok := drawn[k]; ok {
			return l
		}
		l := v.memoPanel(i, w)
		drawn[k] = l
		return l
	}
	for n := panelCount; n > 1; n-- {
		for _, gap := range []bool{true, false} {
			lines := compose(panel, w, n, gap)
			if n < panelCount {
				lines = append(lines, v.leftOut(w, n))
			}
			if len(lines) <= h {
				return strings.Join(lines, "\n")
			}
		}
	}
	// The rates and the balances do not fit whole: their rows give way,
	// named.
	if lines, ok := v.fitFirstTwo(panel, w, h); ok {
		return strings.Join(lines, "\n")
	}
	lines := compose(panel, w, 1, false)
	if len(lines) > h-1 {
		lines = lines[:max(h-1, 0)]
	}
	lines = append(lines, v.leftOut(w, panelBalances))
	return strings.Join(lines[max(len(lines)-h, 0):], "\n")
}

// compose draws the first n panels: the rates, the balances, then the
// payments beside (or above) the alerts and the health; gap puts a blank
// line between panels.
func compose(panel func(i, w int) []string, w, n int, gap bool) []string {
	then := func(out []string, lines ...string) []string {
		if gap {
			out = append(out, "")
		}
		return append(out, lines...)
	}
	out := append([]string(nil), panel(panelRates, w)...)
	if n > panelBalances {
		out = then(out, panel(panelBalances, w)...)
	}
	if n <= panelPayments {
		return out
	}
	if w >= sideBySide && n > panelAlerts {
		// The payments and the exposure, the denser, take a little more
		// than half: the alerts' titles are cut anyway, the figures not.
		lw := w * 11 / 20
		right := append([]string(nil), panel(panelAlerts, w-lw-2)...)
		if n > panelHealth {
			right = then(right, panel(panelHealth, w-lw-2)...)
		}
		left := append([]string(nil), panel(panelPayments, lw)...)
		left = then(left, panel(panelExposure, lw)...)
		return then(out, joinSide(left, right, lw)...)
	}
	out = then(out, panel(panelPayments, w)...)
	if n > panelExposure {
		out = then(out, panel(panelExposure, w)...)
	}
	if n > panelAlerts {
		out = then(out, panel(panelAlerts, w)...)
	}
	if n > panelHealth {
		out = then(out, panel(panelHealth, w)...)
	}
	return out
}

// panel draws panel i in width w.
func (v *View) panel(i, w int) []string {
	switch i {
	case panelRates:
		return v.ratesPanel(w)
	case panelBalances:
		return v.balancesPanel(w)
	case panelPayments:
		return v.paymentsPanel(w)
	case panelExposure:
		return v.exposurePanel(w)
	case panelAlerts:
		return v.alertsPanel(w)
	}
	return v.healthPanel(w)
}

// leftOut is the line that names the panels left out, and where they are.
func (v *View) leftOut(w, n int) string {
	var names []string
	for i := n; i < panelCount; i++ {
		names = append(names, panelName(i))
	}
	return v.ctx.Theme.Muted.Render(cut("not shown at this size: "+strings.Join(names, ", ")+" (see :payments, a)", w))
}
