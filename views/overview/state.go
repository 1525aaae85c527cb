package overview

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/ui"
)

// source is a store topic a panel reads.
type source live.Topic

// name names a source as a person knows it.
func (s source) name() string {
	switch live.Topic(s) {
	case live.LiquidityBalances:
		return "liquidity balances"
	case live.PaymentBalances:
		return "payments balances"
	case live.Ledger:
		return "ledger"
	}
	return string(s)
}

// short names a source in a title.
func (s source) short() string {
	switch live.Topic(s) {
	case live.LiquidityBalances:
		return "liquidity"
	case live.PaymentBalances:
		return "prefunded"
	case live.Ledger:
		return "ledger"
	}
	return string(s)
}

// The panels' sources.
const (
	srcQuotes    = source(live.Quotes)
	srcLiquidity = source(live.LiquidityBalances)
	srcPrefunded = source(live.PaymentBalances)
	srcLedger    = source(live.Ledger)
	srcPayments  = source(live.Payments)
)

// configured reports whether the profile has the source's interface.
func (v *View) configured(s source) bool { return v.ctx.Store.Has(live.Topic(s)) }

// age is a source's state for a panel's title: its age when fresh, marked
// stale or failed (✖) when so, "…" while loading.
func (v *View) age(s source) string {
	t := v.ctx.Theme
	if !v.configured(s) {
		return t.Muted.Render(s.short() + " not configured")
	}
	sn := v.snapshot(live.Topic(s))
	now := v.ctx.Shown() // ages as of the last tick (ui.Context.Shown)
	switch {
	case !sn.Loaded() && sn.Err == nil:
		return t.Muted.Render(s.short() + " …")
	case !sn.Loaded():
		return t.Bad.Render(s.short() + " ✖")
	case sn.Err != nil:
		return t.Bad.Render(s.short() + " ✖ " + v.ageText(now, sn.FetchedAt))
	case v.stale(sn, now):
		return t.Stale.Render(s.short() + " STALE " + v.ageText(now, sn.FetchedAt))
	}
	return t.Muted.Render(s.short() + " " + v.ageText(now, sn.FetchedAt))
}

// ages are the states of a panel's sources, for its title.
func (v *View) ages(srcs ...source) string {
	parts := make([]string, len(srcs))
	for i, s := range srcs {
		parts[i] = v.age(s)
	}
	return strings.Join(parts, v.ctx.Theme.Muted.Render(" · "))
}

// loaded reports whether a source has answered.
func (v *View) loaded(s source) bool {
	return v.configured(s) && v.snapshot(live.Topic(s)).Loaded()
}

// notes are a panel's lines about sources that are not current: one that
// loads ("loading ledger… (3s)"), one that failed (its error named, cut
// to the width), one not configured. Sources that answered and are
// current say nothing.
func (v *View) notes(w int, srcs ...source) []string {
	t := v.ctx.Theme
	now := v.ctx.Shown()
	var out []string
	for _, s := range srcs {
		if !v.configured(s) {
			out = append(out, t.Muted.Render(cut(fmt.Sprintf("%s: the profile %q does not configure its interface", s.name(), v.ctx.Profile), w)))
			continue
		}
		sn := v.snapshot(live.Topic(s))
		switch {
		case sn.Err != nil:
			what := s.name() + ": "
			if sn.Loaded() {
				what = s.name() + " (last good " + v.ageText(now, sn.FetchedAt) + " ago): "
			}
			out = append(out, t.Bad.Render(cut(what+ui.ErrorText(sn.Err), w)))
		case !sn.Loaded():
			msg := "loading " + s.name() + "…"
			if !sn.Since.IsZero() {
				e := now.Sub(sn.Since)
				msg += fmt.Sprintf(" (%ds)", int(e.Seconds()))
				v.changesIn(e.Truncate(time.Second) + time.Second - e) // the next second
			}
			out = append(out, t.Muted.Render(cut(msg, w)))
		case sn.Partial != nil:
			out = append(out, t.Warn.Render(cut("⚠ "+s.name()+" incomplete: "+ui.ErrorText(sn.Partial), w)))
		}
	}
	return out
}

// cut shortens plain text to w cells.
func cut(s string, w int) string { return ansi.Truncate(s, max(w, 1), "…") }

// title is a panel's title line: its name on the left, the state of its
// sources on the right (left out when the width cannot hold both).
func (v *View) title(w int, name, right string) string {
	left := v.ctx.Theme.Title.Render(name)
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if right == "" || gap < 2 {
		if right != "" && w-ansi.StringWidth(left) >= 12 {
			return left + "  " + ansi.Truncate(right, w-ansi.StringWidth(left)-2, "…")
		}
		return ansi.Truncate(left, w, "…")
	}
	return left + strings.Repeat(" ", gap) + right
}
