package overview

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/figures"
	"treasury/kit/words"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
)

// maxAlerts is how many open alerts the alerts panel lists.
const maxAlerts = 5

// paymentsPanel: the payments initiated in the window by state, the
// failure rate and the top reason codes.
func (v *View) paymentsPanel(w int) []string {
	t := v.ctx.Theme
	win := windows[v.window]
	span := v.paymentsSpan(win)
	out := []string{v.title(w, "Payments · initiated in the "+span, v.ages(srcPayments))}
	snap := get(v, v.pay[v.window])
	if !v.loaded(srcPayments) || !snap.Loaded() || !snap.Data.Loaded {
		notes := v.notes(w, srcPayments)
		if len(notes) == 0 {
			notes = []string{t.Muted.Render("counting the payments…")}
		}
		return append(out, notes...)
	}
	s := snap.Data
	if s.Counts[paystats.All] == 0 {
		return append(append(out, t.Muted.Render("no payment initiated in the "+span)), v.notes(w, srcPayments)...)
	}
	var parts []string
	for sc := paystats.All; sc < paystats.NScopes; sc++ {
		if sc == paystats.Retryable || sc == paystats.Owed {
			continue // a verdict, and what the exposure says: :payments retryable, :payments owed list them
		}
		n := strconv.Itoa(s.Counts[sc])
		if (sc == paystats.Failed || sc == paystats.Declined) && s.Counts[sc] > 0 {
			n = t.Bad.Render(n)
		}
		parts = append(parts, sc.Label()+" "+n)
	}
	out = append(out, viewkit.WrapParts(parts, "  ", w)...)
	// The failure rate is the FAILURE_RATE alert's: of the payments that
	// finished in the window, whenever initiated.
	if rate, ok := s.Rate.Percent(); ok {
		line := "failure rate " + rate.StringFixed(1) + "%"
		st := t.OK
		if s.Rate.Failed > 0 {
			st = t.Bad
		}
		out = append(out, st.Render(line)+t.Muted.Render(cut(fmt.Sprintf(" (%d of the %d finished in the %s)",
			s.Rate.Failed, s.Rate.Finished, figures.WindowWord(win)), w-len(line))))
	} else {
		out = append(out, t.Muted.Render("failure rate: no payment finished in the "+figures.WindowWord(win)))
	}
	if len(s.Top) > 0 || s.Unread > 0 {
		head := "top reasons"
		switch {
		case s.Reasons > len(s.Top) && s.Unread > 0:
			head += fmt.Sprintf(" (%d of %d codes, %d not read; :payments failed)", len(s.Top), s.Reasons, s.Unread)
		case s.Reasons > len(s.Top):
			head += fmt.Sprintf(" (%d of %d codes; :payments failed)", len(s.Top), s.Reasons)
		case s.Unread > 0:
			head += fmt.Sprintf(" (%d not read; :payments failed)", s.Unread)
		}
		out = append(out, t.Muted.Render(cut(head, w)))
		for _, r := range s.Top {
			line := fmt.Sprintf("  %-8s %5d  %-8s %s", sanitize.Line(r.Code), r.Count, r.State, sanitize.Line(r.Title))
			out = append(out, cut(line, w))
		}
	}
	return append(out, v.notes(w, srcPayments)...)
}

// paymentsSpan says what the payments counted cover: "last 7d", or, when
// the store holds less of the window (its payments window is a day unless
// a view asks more: the payments are not in the history file), "last 7d
// window, 1d held".
func (v *View) paymentsSpan(win time.Duration) string {
	snap := get(v, live.PaymentsKey)
	since := snap.Data.Since()
	at := v.platformTime(apierr.Payments, snap.FetchedAt)
	if !snap.Loaded() || since.IsZero() || !since.After(at.Add(-win)) {
		return "last " + viewkit.Duration(win)
	}
	return viewkit.Span(win, since, at)
}

// alertsPanel: the open alerts, most severe first.
func (v *View) alertsPanel(w int) []string {
	t := v.ctx.Theme
	if !v.read {
		v.readStore()
	}
	v.alertsRead()
	n, failed := len(v.alerts), len(v.alertsFailed)
	head := fmt.Sprintf("Open alerts (%d)", n)
	if failed > 0 {
		head = fmt.Sprintf("Open alerts (%d, more unknown)", n)
	}
	out := []string{v.title(w, head, t.Muted.Render("a: all"))}
	if failed > 0 {
		names := make([]string, failed)
		for i, tp := range v.alertsFailed {
			names[i] = string(tp)
		}
		out = append(out, t.Warn.Render(cut("unknown: "+strings.Join(names, ", ")+" could not be read", w)))
	}
	switch {
	case n > 0:
	case failed > 0:
		return out
	case len(v.alertsLoading) > 0:
		return append(out, t.Muted.Render("checking…"))
	default:
		return append(out, t.OK.Render("none open"))
	}
	now := v.ctx.Shown()
	for i, a := range v.alerts {
		if i == maxAlerts {
			out = append(out, t.Muted.Render(fmt.Sprintf("+%d more (a)", n-maxAlerts)))
			break
		}
		sev := a.Severity.String()
		st := t.Warn
		if a.Severity == live.High {
			st = t.Bad
		}
		rest := fmt.Sprintf(" %s %s (%s)", sanitize.Line(a.Code), sanitize.Line(a.Title), v.ageText(now, a.Since))
		out = append(out, st.Render(sev)+cut(rest, w-len(sev)))
	}
	return out
}

// healthPanel: each interface's last call, its latency and, when
// failing, the error and how long since it last worked.
func (v *View) healthPanel(w int) []string {
	t := v.ctx.Theme
	if !v.read {
		v.readStore()
	}
	v.healthRead()
	out := []string{v.title(w, "Interfaces", "")}
	if len(v.health) == 0 {
		return append(out, t.Muted.Render("no interface configured"))
	}
	now := v.ctx.Shown()
	width := 0
	for _, h := range v.health {
		width = max(width, len(h.Interface))
	}
	for _, h := range v.health {
		name := fmt.Sprintf("%-*s ", width, h.Interface)
		var line string
		switch {
		case h.LastAttempt.IsZero():
			line = t.Muted.Render(name + "○ idle: not polled yet")
		case h.Retrying != nil && h.ConsecutiveFailures == 0 && h.FailedPolls == 0:
			// As the header: the mark turns at the first failed attempt.
			r := h.Retrying
			what := fmt.Sprintf("%d/%d", r.Attempt, r.Of)
			if r.Status != 0 {
				what += fmt.Sprintf(" (HTTP %d)", r.Status)
			}
			since := "never ok"
			if !h.LastSuccess.IsZero() {
				since = "ok " + v.ageText(now, h.LastSuccess) + " ago"
			}
			line = t.Warn.Render(name+"↻ retrying "+what) + t.Muted.Render(", "+since)
		case h.ConsecutiveFailures > 0 || h.FailedPolls > 0 || h.Retrying != nil:
			code := "error"
			var ae *apierr.Error
			if errors.As(h.LastError, &ae) || errors.As(h.PollError, &ae) {
				code = ae.Label()
				if code == "" {
					code = ae.Class.String()
				}
			}
			v.changesIn(ui.AgeChange(now, h.LastSuccess)) // failingLine's age
			line = t.Bad.Render(failingLine(name, sanitize.Line(code), h, now, w))
		default:
			line = t.OK.Render(name+"● up") + t.Muted.Render(fmt.Sprintf("  %s ago, %s", v.ageText(now, h.LastSuccess), latency(h)))
		}
		out = append(out, line)
	}
	return out
}

// failingLine is a failing interface's line: its error, since when it
// last worked, how many polls in a row failed (as the views count them:
// each poll once, not each call or retry) and, when several of its
// endpoints fail differently, how many. What does not fit w is left out a
// whole part at a time, the least useful first, never cut mid-word.
func failingLine(name, code string, h live.Health, now time.Time, w int) string {
	head := name + "✖ " + code
	since := "never ok"
	if !h.LastSuccess.IsZero() {
		since = "ok " + ui.Age(now, h.LastSuccess) + " ago"
	}
	var polls, pollsShort string
	switch n := h.FailedPolls; {
	case n == 1:
		polls, pollsShort = "1 failed poll", "1 failed poll"
	case n > 1:
		polls, pollsShort = fmt.Sprintf("%d failed polls in a row", n), fmt.Sprintf("%d failed polls", n)
	}
	endpoints := ""
	if h.Failing > 1 {
		endpoints = words.Count(h.Failing, "endpoint") + " failing"
	}
	again := ""
	if r := h.Retrying; r != nil {
		again = fmt.Sprintf("retrying %d/%d", r.Attempt, r.Of)
	}
	return firstFit(w,
		join(head, again, since, polls, endpoints),
		join(head, again, since, polls),
		join(head, since, polls),
		join(head, since, pollsShort),
		join(head, since),
		head,
		strings.TrimRight(name, " ")+" ✖")
}

// join joins the non-empty parts with ", ".
func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// firstFit is the first of lines that fits w cells; the last, cut, when
// none does.
func firstFit(w int, lines ...string) string {
	for _, l := range lines {
		if ansi.StringWidth(l) <= w {
			return l
		}
	}
	return cut(lines[len(lines)-1], w)
}

func latency(h live.Health) string {
	ms := h.Latency.Milliseconds()
	if ms == 0 && h.Latency > 0 {
		return "<1 ms"
	}
	return strconv.FormatInt(ms, 10) + " ms"
}

// joinSide puts two blocks side by side: left padded to lw cells, two
// spaces, then right.
func joinSide(left, right []string, lw int) []string {
	n := max(len(left), len(right))
	left = pad(append(append([]string(nil), left...), make([]string, n-len(left))...), lw)
	out := make([]string, n)
	for i := range out {
		r := ""
		if i < len(right) {
			r = right[i]
		}
		out[i] = strings.TrimRight(left[i]+"  "+r, " ")
	}
	return out
}
