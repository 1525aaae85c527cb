package ui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/kit/words"
	"treasury/ui/sanitize"
	"treasury/wire"
	"treasury/wire/apierr"
)

// View is the whole frame, on the alternate screen, with the mouse
// reported when the profile asks for it (mouse: true). bubbletea draws
// only the cells that changed, in one synchronized update.
func (a *App) View() tea.View {
	v := tea.NewView(a.Frame())
	v.AltScreen = true
	if a.ctx.Mouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	return v
}

// Frame draws the whole frame: the text of View.
func (a *App) Frame() string {
	if a.quit {
		return ""
	}
	if a.width == 0 || a.height == 0 {
		return "starting…"
	}
	var b strings.Builder
	b.WriteString(a.header())
	b.WriteByte('\n')
	b.WriteString(a.tabs())
	b.WriteByte('\n')
	h := a.ctx.Height
	var body string
	switch {
	case a.top() != nil:
		body = a.top().draw(a, a.width, h)
	case a.paused():
		body = a.pausedBody(a.width, h)
	default:
		body = a.Active().Render(a.width, h)
	}
	b.WriteString(a.fitBody(body, a.width, h))
	b.WriteByte('\n')
	b.WriteString(a.footer())
	return b.String()
}

// fit pads or cuts s to exactly h lines, each at most w cells wide.
func fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = fitLine(l, w)
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// fitLine cuts l to at most w cells.
func fitLine(l string, w int) string {
	if ansi.StringWidth(l) > w {
		return ansi.Truncate(l, w, "…")
	}
	return l
}

// header is the header's two lines. The clock is to the minute, and the
// ages of the health line step by ten seconds under a minute (Age): an
// idle session's header changes a few times a minute, not every second,
// and the frame it is part of is drawn only when it changes.
func (a *App) header() string {
	t := &a.ctx.Theme
	now := a.ctx.Shown().UTC()
	parts := []string{a.styled(&t.Title, "treasury"), a.styled(&t.Bold, sanitize.Line(a.ctx.Profile))}
	switch a.ctx.Environment {
	case "prod":
		parts = append(parts, a.styled(&t.BadgeProd, "[PROD]"))
	default:
		parts = append(parts, a.styled(&t.BadgeTest, "[TEST]"))
	}
	if a.ctx.ReadOnly {
		parts = append(parts, a.styled(&t.BadgeRO, "READ-ONLY"))
	}
	var alerts []live.Alert
	if s := a.ctx.Store; s != nil {
		alerts = s.Alerts()
	}
	for _, b := range banners(alerts) {
		parts = append(parts, a.styled(&t.Bad, b))
	}
	clock := len(parts)
	parts = append(parts, now.Format(clockDate)+" UTC")
	skew, calm, count := -1, -1, -1 // the platform clock's badge, a token badge of no concern, the alerts' count
	var alertsShort []string
	if s := a.ctx.Store; s != nil {
		if st, b := clockBadge(t, s.Health()); b != "" {
			skew = len(parts)
			parts = append(parts, a.styled(st, b))
		}
	}
	if s := a.ctx.Store; s != nil {
		snap := live.Get(s, live.TokenExpiryKey)
		exp, ok := tokenExpiry(snap, a.ctx.Token)
		// A deadline: how long is left is read now, not at the tick.
		switch left := exp.Sub(a.ctx.Clock()); {
		case snap.Err != nil:
			// The last test failed: the expiry held is no longer known.
			parts = append(parts, a.styled(&t.Bad, "token ✖"))
		case !ok:
		case left <= 0:
			parts = append(parts, a.styled(&t.Bad, "token expired"))
		case left < 5*time.Minute:
			parts = append(parts, a.styled(&t.Warn, "token "+short(left)))
		default:
			calm = len(parts)
			parts = append(parts, a.styled(&t.Muted, "token "+short(left)))
		}
		count = len(parts)
		st, badge := alertBadge(t, s, len(alerts))
		parts = append(parts, a.styled(st, badge))
		if len(alerts) > 0 {
			alertsShort = []string{a.styled(st, "⚠ "+words.Count(len(alerts), "alert")), a.styled(st, "⚠ "+fmt.Sprint(len(alerts)))}
		}
	}
	if a.paused() {
		parts = append(parts, a.styled(&t.Warn, a.pausedBadge()))
	}
	if n := MarksOf(a.Active()); n > 0 {
		parts = append(parts, a.styled(&t.Accent, fmt.Sprintf("✓ %d marked", n)))
	}
	// Too long (80 columns, read-only, a long profile name, a banner): the
	// clock without its date, then without the program's name, then
	// without the clock, before the alerts at the end are cut. The line is
	// measured once per text.
	line1 := strings.Join(parts, "  ")
	fitted, known := a.memo().fits[fitKey{line1, a.width, -1}] // h -1: the header's first line as it shows
	if !known {
		full := line1
		if lipgloss.Width(line1) > a.width {
			parts[clock] = now.Format(clockTime) + " UTC"
			line1 = strings.Join(parts, "  ")
		}
		if lipgloss.Width(line1) > a.width {
			line1 = strings.Join(parts[1:], "  ")
		}
		// Then the platform clock's badge and a token of no concern; then
		// the clock (banners, an audit log broken or every action refused,
		// and the alerts come before it); then the alerts in short: the
		// count stays whole.
		for _, drop := range []int{skew, calm, clock} {
			if lipgloss.Width(line1) > a.width && drop >= 0 {
				parts[drop] = ""
				line1 = joinParts(parts[1:])
			}
		}
		for _, short := range alertsShort {
			if lipgloss.Width(line1) > a.width {
				parts[count] = short
				line1 = joinParts(parts[1:])
			}
		}
		fitted = fit(line1, a.width, 1)
		a.remember(fitKey{full, a.width, -1}, fitted)
	}
	// Too long for the terminal: every interface's state in short (the
	// code of a failure, then the mark alone), rather than the first ones
	// in full and the last cut off.
	line2 := a.healthLine(now, 0)
	health, known := a.memo().fits[fitKey{line2, a.width, -2}] // h -2: the health line as it shows
	if !known {
		full := line2
		for level := 1; level <= 2 && lipgloss.Width(line2) > a.width; level++ {
			line2 = a.healthLine(now, level)
		}
		health = fit(line2, a.width, 1)
		a.remember(fitKey{full, a.width, -2}, health)
	}
	return fitted + "\n" + health
}

// joinParts joins the header's parts, two spaces apart, skipping those
// dropped to fit.
func joinParts(parts []string) string {
	kept := make([]string, 0, len(parts))
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "  ")
}

// tokenExpiry is when the payments token expires, as the header shows it:
// the token the client holds now (held, when the session knows it), the
// last token test's reading only while that token is the one tested and
// the issuer counts it expiring sooner. The test is read every
// platform.TokenInterval and the client replaces its token before expiry
// in between: the reading alone, past its expiry, would say "token
// expired" of a token no longer used (at a sandbox clock running 240
// times real time, a token's hour is 15 s, the test's interval 2 h),
// while every call works with its successor. ok is false when neither
// tells an expiry (no token held yet).
func tokenExpiry(snap live.Snap[time.Time], held func() (issued, expiry time.Time)) (time.Time, bool) {
	if held == nil {
		return snap.Data, snap.Loaded()
	}
	issued, exp := held()
	switch {
	case exp.IsZero():
		return time.Time{}, false
	case snap.Loaded() && snap.Err == nil && !issued.After(snap.FetchedAt) && snap.Data.Before(exp):
		return snap.Data, true
	}
	return exp, true
}

// The header's clock, with its date and without: to the minute, as a
// clock on a desk reads.
const (
	clockDate = "2006-01-02 15:04"
	clockTime = "15:04"
)

// clockBadge says how far the platform's clock is from this host's when
// an interface's answers put it more than a second away (the largest):
// ages and windows are on the platform's clock, the clock shown is the
// host's: its style and text ("" when within the tolerance).
//
// The interfaces whose offset reads the same as the largest are named
// together, in the health line's order, so the badge does not jump from
// one to another as their estimates move by a second: "platform clock"
// when every interface whose clock is known reads so (a sandbox's clock,
// or a host's own clock off), the one's name when one does, "custody,
// wallet clocks" for two, "3 clocks" for more.
func clockBadge(t *Theme, hs []live.Health) (*lipgloss.Style, string) {
	var worst time.Duration
	known := 0
	for _, h := range hs {
		if h.ClockKnown {
			known++
			if h.ClockOffset.Abs() > worst.Abs() {
				worst = h.ClockOffset
			}
		}
	}
	if worst.Abs() <= live.ClockTolerance() {
		return nil, ""
	}
	shown := offsetText(worst)
	var same []string
	for _, h := range hs {
		if h.ClockKnown && offsetText(h.ClockOffset) == shown {
			same = append(same, string(h.Interface))
		}
	}
	var who string
	switch {
	case len(same) == known && known > 1:
		who = "platform clock"
	case len(same) == 1:
		who = same[0] + " clock"
	case len(same) == 2:
		who = same[0] + ", " + same[1] + " clocks"
	default:
		who = fmt.Sprintf("%d clocks", len(same))
	}
	return &t.Warn, who + " " + shown
}

// offsetText is a clock offset as the badge shows it: "+10m", "-21d".
func offsetText(d time.Duration) string {
	if d < 0 {
		return short(d)
	}
	return "+" + short(d)
}

// alertBadge counts the open alerts; "no alerts" only when every topic
// whose data raises alerts was read and its last read succeeded: before,
// or while one fails, the absence of an alert says nothing. Its style
// and text.
func alertBadge(t *Theme, s *live.Store, n int) (*lipgloss.Style, string) {
	loading, failed := AlertGaps(s)
	switch {
	case n > 0 && len(failed) > 0:
		return &t.Bad, "⚠ " + words.Count(n, "alert") + ", more unknown (a)"
	case n > 0:
		return &t.Bad, "⚠ " + words.Count(n, "alert") + " (a)"
	case len(failed) > 0:
		return &t.Warn, "alerts unknown (a)"
	case len(loading) > 0:
		return &t.Muted, "alerts: checking…"
	}
	return &t.OK, "no alerts"
}

// banners are the header's words of the open alerts that have some
// (live.Alert.Banner), each once, most severe first.
func banners(alerts []live.Alert) []string {
	var out []string
	for _, a := range alerts {
		if a.Banner != "" && !slices.Contains(out, a.Banner) {
			out = append(out, sanitize.Line(a.Banner))
		}
	}
	return out
}

// AlertGaps are the topics whose data raises alerts (low balances,
// declines) that have not answered yet, and those whose last read failed:
// the alerts they would raise are unknown.
func AlertGaps(s *live.Store) (loading, failed []live.Topic) {
	for _, tp := range s.AlertTopics() {
		switch sn := s.Snapshot(tp); {
		case sn.Err != nil:
			failed = append(failed, tp)
		case !sn.Loaded():
			loading = append(loading, tp)
		}
	}
	return loading, failed
}

// healthLine is each interface's state: in full (level 0), with a
// failure's code but no counts or ages (1), or the mark alone (2).
func (a *App) healthLine(now time.Time, level int) string {
	brief := level > 0
	t := &a.ctx.Theme
	if a.ctx.Store == nil {
		return ""
	}
	var parts []string
	if pl := a.pollerPart(level); pl != "" {
		parts = append(parts, pl)
	}
	if h := a.webhookHealth(); h != "" {
		parts = append(parts, h)
	}
	// What this session has polled (a topic of its open view, or one
	// always polled): another session's view may poll more, but what this
	// one shows does not depend on it.
	var polled map[apierr.Interface]bool
	if a.sub != nil {
		polled = a.sub.Polled()
	}
	for _, h := range a.ctx.Store.Health() {
		name := string(h.Interface)
		okAge := "never ok"
		if !h.LastSuccess.IsZero() {
			okAge = "ok " + Age(now, h.LastSuccess) + " ago"
		}
		switch {
		case h.LastAttempt.IsZero() && brief:
			parts = append(parts, a.styled(&t.Muted, name+" ○"))
		case h.LastAttempt.IsZero():
			parts = append(parts, a.styled(&t.Muted, name+" ○ idle"))
		case h.Retrying != nil && h.ConsecutiveFailures == 0 && h.FailedPolls == 0:
			// The mark turns at the first failed attempt, not when the
			// retries are given up; the age is the last success's.
			what := retryWhat(h.Retrying)
			switch level {
			case 2:
				parts = append(parts, a.styled(&t.Warn, name+" ↻"))
			case 1:
				parts = append(parts, a.styled(&t.Warn, name+" ↻ "+what))
			default:
				parts = append(parts, a.styled(&t.Warn, fmt.Sprintf("%s ↻ retrying %s, %s", name, what, okAge)))
			}
		case h.ConsecutiveFailures > 0 || h.FailedPolls > 0 || h.Retrying != nil:
			// Given up: ✖ until a call succeeds, also while the next call
			// is being retried (said after the code).
			code := "error"
			var ae *apierr.Error
			var part *wire.Partial
			switch {
			case errors.As(h.LastError, &ae) || errors.As(h.PollError, &ae):
				code = errorCode(ae)
			case errors.As(h.PollError, &part):
				// Some of the poll's reads failed (a page, a record read
				// by id): :errors names them.
				code = fmt.Sprintf("%d of %d reads", len(part.Failed), part.Of)
			default:
				code = plainCode(cmp.Or(h.LastError, h.PollError))
			}
			// Distinct failures, not attempts or polls: the count stays
			// put while the same failure repeats.
			if h.Failing > 1 && !brief {
				code += fmt.Sprintf(" +%d", h.Failing-1)
			}
			if level > 1 {
				parts = append(parts, a.styled(&t.Bad, name+" ✖"))
				continue
			}
			if brief {
				parts = append(parts, a.styled(&t.Bad, name+" ✖ "+sanitize.Line(code)))
				continue
			}
			again := ""
			if h.Retrying != nil {
				again = ", retrying " + retryWhat(h.Retrying)
			}
			parts = append(parts, a.styled(&t.Bad, fmt.Sprintf("%s ✖ %s%s, %s", name, sanitize.Line(code), again, okAge)))
		case !polled[h.Interface] && brief:
			parts = append(parts, a.styled(&t.Muted, name+" ○"))
		case !polled[h.Interface]:
			// Nobody watches it now: its age grows, nothing is stale.
			parts = append(parts, a.styled(&t.Muted, name+" ○ idle "+Age(now, h.LastSuccess)))
		case brief:
			parts = append(parts, a.styled(&t.OK, name+" ●"))
		default:
			parts = append(parts, a.styled(&t.OK, name+" ●")+" "+a.styled(&t.Muted, Age(now, h.LastSuccess)))
		}
	}
	return strings.Join(parts, "  ")
}

// pollerPart is who polls the platform for this session's site, first in
// the health line: nothing without a site; in full (level 0), without
// the reason or this node's name (1), or the node alone (2).
func (a *App) pollerPart(level int) string {
	t := &a.ctx.Theme
	pl := a.ctx.Store.Poller()
	node := sanitize.Line(pl.Node)
	since := ""
	if level < 2 && !pl.Since.IsZero() { // unknown for a moment (a process just resumed): not 00:00
		since = " since " + pl.Since.UTC().Format("15:04")
	}
	switch {
	case pl.Alone != "" && level > 0:
		return a.styled(&t.Bad, "polls alone"+since)
	case pl.Alone != "":
		return a.styled(&t.Bad, "polls alone"+since+": "+sanitize.Line(pl.Alone))
	case pl.Here && pl.Node == "":
		return "" // no site: this process is the poller
	case pl.Here && level > 0:
		return a.styled(&t.Muted, "polled here"+since)
	case pl.Here:
		return a.styled(&t.Muted, "polled here ("+node+")"+since)
	case pl.Node == "":
		return a.styled(&t.Warn, "no poller yet")
	}
	return a.styled(&t.Muted, "polled by "+node+since)
}

// retryWhat is a call being retried: "2/5 503" (its attempt, of how many,
// and the status of the failed one).
func retryWhat(r *live.Retry) string {
	what := fmt.Sprintf("%d/%d", r.Attempt, r.Of)
	if r.Status != 0 {
		what += fmt.Sprintf(" %d", r.Status)
	}
	return what
}

// webhookHealth is the receiver's part of the health line, first, and only
// when something is wrong: it does not listen (payment states then come
// from polling alone), or it refused notifications. The errors view says
// more.
func (a *App) webhookHealth() string {
	if a.ctx.Webhooks == nil {
		return ""
	}
	t := &a.ctx.Theme
	st := a.ctx.Webhooks()
	switch {
	case st.InUse():
		return a.styled(&t.Bad, "webhooks ✖ port in use: polling only (:errors)")
	case !st.Listening():
		return a.styled(&t.Bad, "webhooks ✖ not listening: polling only (:errors)")
	case st.Rejected() > 0:
		return a.styled(&t.Warn, fmt.Sprintf("webhooks ⚠ %d rejected (:errors)", st.Rejected()))
	}
	return ""
}

// tabs is the tab line, drawn again only when the view shown, the trail,
// the width or the number of views (one saved) changed.
func (a *App) tabs() string {
	trail := a.tabTrail()
	p := a.memo()
	k := fmt.Sprintf("%d\x00%d\x00%d\x00%s", a.width, a.active, len(a.views), trail)
	if p.tabs == "" || p.tabsKey != k {
		p.tabsKey, p.tabs = k, fit(a.tabLabels(a.tabForm(lipgloss.Width(trail)))+trail, a.width, 1)
	}
	return p.tabs
}

// tabTrail is what follows the tabs: the breadcrumb trail and the filter.
func (a *App) tabTrail() string {
	t := &a.ctx.Theme
	var trail string
	if tr := a.trail(); tr != "" {
		trail = "  " + a.styled(&t.Accent, tr)
	}
	if f := FilterOf(a.Active()); f != "" && a.overlayKind() != filterOverlay {
		trail += "  " + a.styled(&t.Warn, "/"+f)
	}
	return trail
}

// Tab label forms, longest first.
const (
	tabsFull    = iota // "1 Quotes" … "Ledger"
	tabsNumbers        // the views with a number key named, the others by initial
	tabsShort          // only the active view named, the others by key
)

// tabForm is the longest form of the tabs that fits beside a trail of
// width trail: the trail (where the user is) is never the part cut off.
func (a *App) tabForm(trail int) int {
	for form := tabsFull; form < tabsShort; form++ {
		if lipgloss.Width(a.tabLabels(form))+trail <= a.width {
			return form
		}
	}
	return tabsShort
}

// trail is the breadcrumb trail of the view shown: "payments › FAILED",
// or "" at its root.
func (a *App) trail() string {
	crumbs := a.Active().Crumbs()
	if len(crumbs) == 0 {
		return ""
	}
	parts := make([]string, len(crumbs))
	for i, c := range crumbs {
		parts[i] = sanitize.Line(c)
	}
	return string(a.Active().Name()) + " › " + strings.Join(parts, " › ")
}

// tabLabel is the label of view i in a form: "1 Quotes" (in brackets when
// open in a session without styles), or only its key or initial.
func (a *App) tabLabel(i int, v View, form int) string {
	label := v.Title()
	named := i == a.active || form == tabsFull || (form == tabsNumbers && i < 9)
	switch {
	case i < 9 && named:
		label = fmt.Sprintf("%d %s", i+1, label)
	case i < 9:
		label = fmt.Sprint(i + 1)
	case named:
		if l := a.letterOf(i); l != "" {
			label = l + " " + label
		}
	default:
		label = a.letterOf(i)
		if label == "" {
			label = string([]rune(v.Title())[:1])
		}
	}
	if i == a.active && a.ctx.Plain() {
		label = "[" + label + "]" // reverse video does not show
	}
	return label
}

// letterOf is the key of view i past the ninth ("" for none).
func (a *App) letterOf(i int) string {
	for l, v := range a.letters {
		if v == i {
			return l
		}
	}
	return ""
}

// tabLabels are the views' tabs: "1 Quotes"; views past the ninth have no
// number key and are reached with tab or the palette.
func (a *App) tabLabels(form int) string {
	t := &a.ctx.Theme
	var b strings.Builder
	for i, v := range a.views {
		label := a.tabLabel(i, v, form)
		if i == a.active {
			b.WriteString(a.styled(&t.TabActive, label))
		} else {
			b.WriteString(a.styled(&t.Tab, label))
		}
	}
	return b.String()
}

func (a *App) footer() string {
	t := &a.ctx.Theme
	if f, ok := topOf[*filterLayer](a); ok {
		hint := ""
		if f.replace {
			hint = a.styled(&t.Muted, "typing replaces it, ←/⌫ edit it") + "   "
		}
		return fit(a.filter.View()+"   "+hint+a.shortHelp([]key.Binding{a.keys.FilterKeep, a.keys.FilterClear}, 0), a.width, 1)
	}
	if a.flash.Err != nil {
		text := ErrorText(a.flash.Err)
		if a.flash.Text != "" {
			text = sanitize.Line(a.flash.Text) + " " + text
		}
		return fit(a.styled(&t.FlashError, text), a.width, 1)
	}
	if a.flash.Text != "" {
		style := t.FlashInfo
		if a.flash.Warn {
			style = t.Warn
		}
		return fit(style.Render(sanitize.Line(a.flash.Text)), a.width, 1)
	}
	if d := a.shownDialog(); d != nil {
		return fit(a.shortHelp(d.bindings(), a.width), a.width, 1)
	}
	var parts []string
	for _, d := range a.background {
		parts = append(parts, a.styled(&t.Warn, "⋯ "+sanitize.Line(d.c.Title)+" running "+short(a.ctx.Clock().Sub(d.started))))
	}
	// The shell's palette, help and quit always show; the view's keys
	// take the room left, cut with an ellipsis.
	shell := a.helpMemo(a.keys.ShortHelp(), 0)
	used := 0
	if len(parts) > 0 {
		used = lipgloss.Width(strings.Join(parts, "  ")) + 2
	}
	if room := a.width - used - lipgloss.Width(shell) - 2; room > 0 {
		keys := slices.Concat(a.Active().Keys(), a.commandBindings())
		view := a.helpMemo(keys, room)
		// help's own cut can pass its width by its ellipsis: ask for less
		// until the keys shown, whole, fit.
		for w := room - 1; lipgloss.Width(view) > room && w > 0; w-- {
			view = a.helpMemo(keys, w)
		}
		if view != "" {
			parts = append(parts, view)
		}
	}
	parts = append(parts, shell)
	return a.fitMemo(strings.Join(parts, "  "), a.width, 1)
}

// shortHelp renders bindings on one line with bubbles/help, in the
// session's theme, at most width cells (0: no limit).
func (a *App) shortHelp(bs []key.Binding, width int) string {
	h := a.help
	h.SetWidth(width)
	return h.ShortHelpView(bs)
}

// helpModel is bubbles/help styled by the session's theme (so an SSH
// client gets its own colours).
func newHelpModel(t Theme) help.Model {
	h := help.New()
	h.ShortSeparator, h.FullSeparator, h.Ellipsis = "  ", "    ", "…"
	plain := lipgloss.NewStyle()
	h.Styles = help.Styles{ShortKey: t.Key, ShortDesc: t.KeyDesc, ShortSeparator: plain, Ellipsis: t.Muted,
		FullKey: t.Key, FullDesc: t.KeyDesc, FullSeparator: plain}
	return h
}

// plainCode names a failure that is not the platform's answer: a timeout,
// a connection that could not be made or was lost; "error" otherwise.
func plainCode(err error) string {
	var ne net.Error
	switch {
	case err == nil:
		return "error"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.As(err, &ne):
		return "network"
	}
	return "error"
}
