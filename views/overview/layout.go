package overview

import (
	"strings"
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
	panelAlerts
	panelHealth
	panelCount
)

// panelName names a panel in the line that says what was left out.
func panelName(i int) string {
	return [panelCount]string{"rates", "balances", "payments", "alerts", "health"}[i]
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
	for n := panelCount; n > 1; n-- {
		for _, gap := range []bool{true, false} {
			lines := v.compose(w, n, gap)
			if n < panelCount {
				lines = append(lines, v.leftOut(w, n))
			}
			if len(lines) <= h {
				return strings.Join(lines, "\n")
			}
		}
	}
	lines := v.compose(w, 1, false)
	if len(lines) > h {
		lines = lines[:max(h, 0)]
	}
	return strings.Join(lines, "\n")
}

// compose draws the first n panels: the rates, the balances, then the
// payments beside (or above) the alerts and the health; gap puts a blank
// line between panels.
func (v *View) compose(w, n int, gap bool) []string {
	then := func(out []string, panel ...string) []string {
		if gap {
			out = append(out, "")
		}
		return append(out, panel...)
	}
	out := v.ratesPanel(w)
	if n > panelBalances {
		out = then(out, v.balancesPanel(w)...)
	}
	if n <= panelPayments {
		return out
	}
	if w >= sideBySide && n > panelAlerts {
		lw := w / 2
		right := v.alertsPanel(w - lw - 2)
		if n > panelHealth {
			right = then(right, v.healthPanel(w-lw-2)...)
		}
		return then(out, joinSide(v.paymentsPanel(lw), right, lw)...)
	}
	out = then(out, v.paymentsPanel(w)...)
	if n > panelAlerts {
		out = then(out, v.alertsPanel(w)...)
	}
	if n > panelHealth {
		out = then(out, v.healthPanel(w)...)
	}
	return out
}

// leftOut is the line that names the panels left out, and where they are.
func (v *View) leftOut(w, n int) string {
	var names []string
	for i := n; i < panelCount; i++ {
		names = append(names, panelName(i))
	}
	return v.ctx.Theme.Muted.Render(cut("not shown at this size: "+strings.Join(names, ", ")+" (see :payments, a, the header)", w))
}
