package viewkit

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/kit/words"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/wire"
	"treasury/wire/apierr"
)

// The three states of a page's data (design.md), never confused: loading
// (no answer yet), failed (no good data: the error where the data would
// be) and loaded (a successful answer, which alone may say "no records").
// Stale data stays shown, marked with its age and the last error.

// StateBody is what a page shows instead of its records while it has none
// it may show: "loading… (N s)" before the first answer, the error in full
// when the reads failed, or, when the profile configures none of the
// interfaces of the page's topics, that. ok is false once the data is
// loaded: the page draws it (an empty list then truly means none).
func StateBody(ctx *ui.Context, topics []live.Topic, snap live.Snapshot, what string, w int) (body string, ok bool) {
	t := ctx.Theme
	if snap.Loaded() {
		return "", false
	}
	if snap.Err == nil && Unconfigured(ctx, topics) {
		names := make([]string, len(topics))
		for i, tp := range topics {
			names[i] = string(tp)
		}
		return t.Muted.Render(sanitize.Line(fmt.Sprintf("The profile %q does not configure the interface of %s (%s).",
			ctx.Profile, what, strings.Join(names, ", ")))), true
	}
	lines, _ := Part(ctx, snap, what, w)
	if snap.Err != nil {
		lines = append(lines, "", t.Muted.Render(ctx.Key("open").Help().Key+": every failed call of this interface (:errors)"))
	}
	return strings.Join(lines, "\n"), true
}

// Unconfigured reports whether the profile configures none of topics (the
// store has no feed for any): their data will never come.
func Unconfigured(ctx *ui.Context, topics []live.Topic) bool {
	if len(topics) == 0 || ctx.Store == nil {
		return false
	}
	for _, tp := range topics {
		if ctx.Store.Has(tp) {
			return false
		}
	}
	return true
}

// Part is what one part of a page (a section of a detail, the answer of
// one of the page's calls) shows about the read it comes from, whose
// state is snap (a store topic's, or one built with Asked and Answered).
// Before a good answer it is "loading what… (N s)" or the error in full,
// and ok is false: the part has no data to draw, so it draws no empty
// list, zero or total. After one, it is the line saying the data is stale
// (its age and the last error) when the last read failed, and the notes on
// incomplete data; ok is true and the part draws its data, where an empty
// list truly means none.
func Part(ctx *ui.Context, snap live.Snapshot, what string, w int) (lines []string, ok bool) {
	t := ctx.Theme
	what = sanitize.Line(what) // it may name a record
	now := ctx.Clock()
	if snap.Loaded() {
		// One line each, code and summary first: what does not fit the
		// width is cut, the data keeps the room.
		if snap.Err != nil {
			lines = append(lines, t.Stale.Render("STALE ("+what+" read "+ui.Age(now, snap.FetchedAt)+" ago, "+Retrying(ctx, snap)+") ")+
				t.Bad.Render(ui.ErrorText(snap.Err)))
		}
		return append(lines, Notes(ctx, snap)...), true
	}
	if snap.Err == nil {
		msg := "loading " + what + "…"
		if !snap.Since.IsZero() {
			msg += fmt.Sprintf(" (%ds)", max(int(now.Sub(snap.Since).Seconds()), 0))
		}
		return []string{t.Muted.Render(msg)}, false
	}
	lines = []string{t.Bad.Render("Could not read " + what + ":")}
	return append(lines, ui.ErrorLines(t, snap.Err, w)...), false
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
	return ui.OpenCmd(route.Errors, args...)
}

// Retrying says when the data is tried again ("next try in 40s, r: now").
func Retrying(ctx *ui.Context, snap live.Snapshot) string {
	tries := ""
	if snap.Failures > 1 {
		tries = "failed " + words.Count(snap.Failures, "time") + " in a row; "
	}
	if snap.NextTry.IsZero() {
		return tries + "r: try again"
	}
	left := snap.NextTry.Sub(ctx.Clock())
	if left <= 0 {
		return tries + "trying again…"
	}
	return tries + "next try " + ui.Until(ctx.Clock(), snap.NextTry) + " (r: now)"
}

// maxNoted is how many failed sources of a partial read Notes names.
const maxNoted = 3

// Notes are the warnings about data that is shown but incomplete: sources
// of a partial read that failed, records that could not be read.
func Notes(ctx *ui.Context, snap live.Snapshot) []string {
	t := ctx.Theme
	var out []string
	var part *wire.Partial
	switch {
	case errors.As(snap.Partial, &part):
		// One line per source that failed, so that each is named with
		// its own error whatever the width.
		out = append(out, t.Warn.Render(sanitize.Line(fmt.Sprintf("⚠ incomplete: %s: %d of %d could not be read", part.What, len(part.Failed), part.Of))))
		for i, f := range part.Failed {
			if i == maxNoted {
				out = append(out, t.Warn.Render(fmt.Sprintf("  and %d more", len(part.Failed)-i)))
				break
			}
			out = append(out, "  "+t.Bold.Render(sanitize.Line(f.Name)+": ")+ui.ErrorText(f.Err))
		}
	case snap.Partial != nil:
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

// SameFailure reports whether two reads failed the same way (one
// operation, code and class: the same refused credential), so that a
// page shows the second as "the same failure" rather than twice in full.
func SameFailure(a, b error) bool {
	ea, oka := apierr.As(a)
	eb, okb := apierr.As(b)
	return oka && okb && live.FailureKey(ea) == live.FailureKey(eb)
}
