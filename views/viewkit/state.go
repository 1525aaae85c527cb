package viewkit

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"strings"
	"time"
	"treasury/data/apierr"

	"treasury/data/live"
	"treasury/data/wire"
	"treasury/ui"
	"treasury/ui/sanitize"
)

// The three states of a page's data (design.md), never confused: loading
// (no answer yet), failed (no good data: the error where the data would
// be) and loaded (a successful answer, which alone may say "no records").
// Stale data stays shown, marked with its age and the last error.

// StateBody is what a page shows instead of its records while it has none
// it may show: "loading… (N s)" before the first answer, the error in full
// when the reads failed, or, when the profile lacks the interface of the
// page's topic, that. ok is false once the data is loaded: the page draws
// it (an empty list then truly means none).
func StateBody(ctx *ui.Context, topics []live.Topic, snap live.Snapshot, what string, w int) (body string, ok bool) {
	t := ctx.Theme
	if snap.Loaded() {
		return "", false
	}
	if len(topics) > 0 && ctx.Store != nil && !ctx.Store.Has(topics[0]) && snap.Err == nil {
		return t.Muted.Render(sanitize.Line(fmt.Sprintf("The profile %q does not configure the interface of %s (%s).",
			ctx.Profile, what, topics[0]))), true
	}
	now := ctx.Clock()
	if snap.Err == nil {
		msg := "loading " + what + "…"
		if !snap.Since.IsZero() {
			msg += fmt.Sprintf(" (%ds)", int(now.Sub(snap.Since).Seconds()))
		}
		return t.Muted.Render(msg), true
	}
	lines := []string{t.Bad.Render("Could not read " + what + ":")}
	lines = append(lines, ui.ErrorLines(t, snap.Err, w)...)
	lines = append(lines, "", t.Muted.Render("enter: every failed call of this interface (:errors)"))
	return strings.Join(lines, "\n"), true
}

// OpenErrors is the command of enter on a page that could not read its
// data: the errors view, filtered to the interface that failed.
func OpenErrors(snap live.Snapshot) tea.Cmd {
	if snap.Loaded() || snap.Err == nil {
		return nil
	}
	var args []string
	if e, ok := apierr.As(snap.Err); ok {
		args = []string{string(e.Interface)}
	}
	return ui.OpenCmd("errors", args...)
}

// Retrying says when the data is tried again ("next try in 40s, r: now").
func Retrying(ctx *ui.Context, snap live.Snapshot) string {
	tries := ""
	if snap.Failures > 1 {
		tries = fmt.Sprintf("failed %d times in a row; ", snap.Failures)
	}
	if snap.NextTry.IsZero() {
		return tries + "r: try again"
	}
	left := snap.NextTry.Sub(ctx.Clock())
	if left <= 0 {
		return tries + "trying again…"
	}
	return tries + "next try in " + ui.Age(snap.NextTry, ctx.Clock()) + " (r: now)"
}

// Notes are the warnings about data that is shown but incomplete: sources
// of a partial read that failed, records that could not be read.
func Notes(ctx *ui.Context, snap live.Snapshot) []string {
	t := ctx.Theme
	var out []string
	if snap.Partial != nil {
		out = append(out, t.Warn.Render("⚠ incomplete: ")+ui.ErrorText(snap.Partial))
	}
	if snap.Skipped > 0 {
		out = append(out, t.Warn.Render("⚠ "+sanitize.Line(wire.Summary(snap.Skipped, snap.SkippedFirst))))
	}
	return out
}

// Answered folds the answer of a page's own call into the snapshot the
// page shows: a success is data (FetchedAt set, the error cleared); a
// failure keeps the data held, if any, and its time, and sets the error.
func Answered(prev live.Snapshot, now time.Time, err error) live.Snapshot {
	s := prev
	s.Seq++
	s.Err = err
	s.NextTry = time.Time{}
	if err == nil {
		s.FetchedAt = now
		s.Failures = 0
	} else {
		s.Failures++
	}
	return s
}

// Asked marks a page's own call as sent: the snapshot is loading since now
// (when it held nothing yet).
func Asked(prev live.Snapshot, now time.Time) live.Snapshot {
	if prev.Since.IsZero() {
		prev.Since = now
	}
	return prev
}
