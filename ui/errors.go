package ui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"treasury/ui/sanitize"
	"treasury/wire"
	"treasury/wire/apierr"
)

// ErrorText is how an error reads in one line: for platform errors the
// code, what failed and the guidance; for a partial read, which sources
// failed and how.
func ErrorText(err error) string {
	if err == nil {
		return ""
	}
	// A partial read names its sources first: errors.As would otherwise
	// find the first failure inside it and drop which source it was.
	var part *wire.Partial
	if errors.As(err, &part) {
		var b strings.Builder
		fmt.Fprintf(&b, "✖ %s: %d of %d could not be read", part.What, len(part.Failed), part.Of)
		for i, f := range part.Failed {
			if i == 3 {
				fmt.Fprintf(&b, "; and %d more", len(part.Failed)-i)
				break
			}
			fmt.Fprintf(&b, "; %s: %s", f.Name, strings.TrimPrefix(ErrorText(f.Err), "✖ "))
		}
		return sanitize.Line(b.String())
	}
	var ae *apierr.Error
	if errors.As(err, &ae) {
		msg := ae.Summary()
		if msg == "" {
			msg = ae.Class.String()
		}
		return sanitize.Line(fmt.Sprintf("✖ %s %s: %s — %s", errorCode(ae), ae.Interface, msg, ae.Guidance()))
	}
	return sanitize.Line("✖ " + oneLine(err.Error()))
}

// oneLine puts the errors errors.Join made into one (each on a line of
// its own) on one line: "a; b", never an escaped newline between them.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")
}

// errorCode is the short code of an error: the platform's code, else the
// HTTP status, else the class ("unreachable", "timed out").
func errorCode(ae *apierr.Error) string {
	switch {
	case ae.Label() != "":
		return ae.Label()
	case ae.Class == apierr.ClassMalformed:
		// A body that could not be read came with a success status:
		// "200" would say nothing went wrong.
		return "malformed"
	case ae.HTTPStatus != 0:
		return fmt.Sprint(ae.HTTPStatus)
	}
	return ae.Class.String()
}

// ErrorLines describe err in full, wrapped to width, for where the data
// would be (a view that could not read its data) and the errors view: what
// was called, the code, type and status, the server's time, the request
// id, the whole message and what to do. A partial read lists each source
// that failed.
func ErrorLines(t Theme, err error, width int) []string {
	width = max(width, 20)
	wrap := func(style func(...string) string, prefix, s string) []string {
		var out []string
		for i, l := range strings.Split(ansi.Wrap(sanitize.Line(s), width-len(prefix), " /"), "\n") {
			p := prefix
			if i > 0 {
				p = strings.Repeat(" ", len(prefix))
			}
			out = append(out, style(p+l))
		}
		return out
	}
	var part *wire.Partial
	if errors.As(err, &part) {
		out := wrap(t.Bad.Render, "✖ ", fmt.Sprintf("%s: %d of %d could not be read", part.What, len(part.Failed), part.Of))
		for _, f := range part.Failed {
			out = append(out, wrap(t.Bold.Render, "  ", f.Name+":")...)
			for _, l := range ErrorLines(t, f.Err, width-4) {
				out = append(out, "    "+l)
			}
		}
		return out
	}
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		return wrap(t.Bad.Render, "✖ ", err.Error())
	}
	call := ae.Call()
	if ae.URL != "" && ae.Poll == "" {
		call = ae.Method + " " + ae.URL // the address is what to check
	}
	out := wrap(t.Bad.Render, "✖ ", fmt.Sprintf("%s %s", ae.Interface, call))
	var facts []string
	facts = append(facts, "code "+errorCode(ae))
	if ae.Type != "" {
		facts = append(facts, "type "+ae.Type)
	}
	if ae.HTTPStatus != 0 {
		facts = append(facts, fmt.Sprintf("HTTP %d", ae.HTTPStatus))
	}
	if ae.Timestamp != "" {
		facts = append(facts, "server time "+ae.Timestamp)
	}
	if ae.RequestID != "" {
		facts = append(facts, "requestId "+ae.RequestID)
	}
	if ae.Attempts > 1 {
		facts = append(facts, fmt.Sprintf("%d attempts", ae.Attempts))
	}
	out = append(out, wrap(t.Muted.Render, "  ", strings.Join(facts, " · "))...)
	if ae.Title != "" && ae.Title != ae.Message {
		out = append(out, wrap(t.Bold.Render, "  ", ae.Title)...)
	}
	if ae.Message != "" {
		out = append(out, wrap(t.Cell.Render, "  ", ae.Message)...)
	}
	out = append(out, wrap(t.Warn.Render, "  what to do: ", ae.Guidance())...)
	return out
}
