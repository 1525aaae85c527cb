package ui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/ui/sanitize"
)

// A new critical alert reaches the person at the terminal even when the
// dashboard is not in front: each session rings its terminal's bell (BEL)
// and raises a desktop notification (OSC 9, which iTerm2, WezTerm and
// Ghostty show, and OSC 777, which rxvt-unicode, foot, WezTerm, Ghostty
// and Konsole show; others ignore them), once per alert, on its own output (an SSH client's terminal,
// never the server's). The store notes the alerts' changes once for every
// session (live.Store.AlertEvents); a session keeps only its mark, taken
// when it starts, so what was open before it came rings nothing. Inside
// tmux the OSCs are also sent wrapped for passthrough (allow-passthrough
// on); tmux passes the bell on itself. The profile's alerts.terminal
// turns either off.

// maxNotice bounds a notification's text.
const maxNotice = 160

// notifyAlerts tells the terminal of the new critical alerts since the
// session last looked.
func (a *App) notifyAlerts() tea.Cmd {
	s := a.ctx.Store
	if s == nil {
		return nil
	}
	evs, mark := s.AlertEvents(a.alertMark)
	a.alertMark = mark
	if !a.ctx.Terminal || a.ctx.AlertTerminal == nil {
		return nil
	}
	bell, desktop := a.ctx.AlertTerminal()
	if !bell && !desktop {
		return nil
	}
	var news []live.Alert
	for _, e := range evs {
		if e.Notable(live.High) {
			news = append(news, e.Alert)
		}
	}
	if len(news) == 0 {
		return nil
	}
	// Written by the program between frames, never in the middle of one.
	return tea.Raw(notice(news, a.ctx.Profile, bell, desktop && a.ctx.Term != "dumb", a.wrapForTmux()))
}

// wrapForTmux says whether the session's terminal is tmux (or screen),
// which passes an OSC on only wrapped.
func (a *App) wrapForTmux() bool {
	t := a.ctx.Term
	return a.ctx.LocalTmux || strings.HasPrefix(t, "tmux") || strings.HasPrefix(t, "screen")
}

// notice is what a session writes for new critical alerts: a bell, and a
// desktop notification naming the first (and how many more).
func notice(news []live.Alert, profile string, bell, desktop, tmux bool) string {
	var b strings.Builder
	if bell {
		b.WriteByte('\a')
	}
	if !desktop {
		return b.String()
	}
	title := "treasury " + oneField(profile)
	body := oneField(news[0].Severity.String() + " " + news[0].Code + ": " + news[0].Title)
	if len(news) > 1 {
		body += " (+" + strconv.Itoa(len(news)-1) + " more)"
	}
	body = ansi.Truncate(body, maxNotice, "…")
	seqs := []string{"\x1b]9;" + title + ": " + body + "\x1b\\", "\x1b]777;notify;" + title + ";" + body + "\x1b\\"}
	for _, s := range seqs {
		b.WriteString(s)
		if tmux {
			b.WriteString("\x1bPtmux;" + strings.ReplaceAll(s, "\x1b", "\x1b\x1b") + "\x1b\\")
		}
	}
	return b.String()
}

// oneField is text fit for an OSC field: sanitized (no control or escape
// can end the sequence early or start another), and without ";", which
// separates OSC 777's fields.
func oneField(s string) string {
	return strings.ReplaceAll(sanitize.Line(s), ";", ",")
}
