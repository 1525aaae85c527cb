package reports

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/kit/words"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/reporting"
)

// skippedShown is how many skipped rows the page names above its table;
// the skipped page lists them all.
const skippedShown = 3

// skipped are the rows of the download that could not be read.
func (p *reportPage) skipped() []*reporting.ParseError {
	if p.dl == nil || p.dl.Rows == nil {
		return nil
	}
	return p.dl.Rows.Skipped
}

// skippedCount is how many rows of the download could not be read (the
// parse lists at most reporting.MaxSkipped of them).
func (p *reportPage) skippedCount() int {
	if p.dl == nil || p.dl.Rows == nil {
		return 0
	}
	return p.dl.Rows.Skips()
}

// skipLine is one skipped row as shown: where, and why (sanitized).
type skipLine struct {
	Line   int    `json:"line"`
	Column string `json:"column,omitempty"`
	Reason string `json:"reason"`
}

func (s skipLine) String() string {
	where := fmt.Sprintf("line %d", s.Line)
	if s.Column != "" {
		where += " · " + s.Column
	}
	return where + ": " + s.Reason
}

func skipLines(skipped []*reporting.ParseError) []skipLine {
	out := make([]skipLine, len(skipped))
	for i, e := range skipped {
		out[i] = skipLine{Line: e.Line, Column: sanitize.Line(e.Column), Reason: sanitize.Line(e.Err.Error())}
	}
	return out
}

// listed is "all N", or "the first L of N" when the parse listed fewer
// than it skipped.
func listed(l, n int) string {
	if l < n {
		return fmt.Sprintf("the first %d of %d", l, n)
	}
	return fmt.Sprintf("all %d", n)
}

// rowsSkipped is "N rows skipped", or "" when none were.
func rowsSkipped(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return "1 row skipped"
	}
	return words.Count(n, "row") + " skipped"
}

// skippedAbove names the first skipped rows in at most h lines of width
// w, and how to see them all.
func (p *reportPage) skippedAbove(w, h int) []string {
	sk := p.skipped()
	if len(sk) == 0 || h <= 0 {
		return nil
	}
	t := p.v.ctx.Theme
	n := min(len(sk), skippedShown, h)
	out := make([]string, 0, n)
	for i, s := range skipLines(sk[:n]) {
		text := "skipped " + s.String()
		if i == n-1 {
			text += " · " + p.v.keys.Skipped.Help().Key + " lists " + listed(len(sk), p.skippedCount())
		}
		out = append(out, ansi.Truncate(t.Warn.Render(text), w, "…"))
	}
	return out
}

// newSkippedPage lists every skipped row of the download, scrollable.
func newSkippedPage(p *reportPage) *viewkit.DetailPage[[]skipLine] {
	lines := skipLines(p.skipped())
	return viewkit.NewDetailPage(p.v.ctx, viewkit.DetailSpec[[]skipLine]{
		Crumb: "skipped",
		Get:   func() ([]skipLine, bool, live.Snapshot) { return lines, true, p.snapshot() },
		ID:    func([]skipLine) string { return p.rep.ID },
		Body: func(ls []skipLine, w int) string {
			t := p.v.ctx.Theme
			var b strings.Builder
			head := rowsSkipped(p.skippedCount()) + " of " + sanitize.Line(p.rep.Type+" "+p.rep.Format) + " " + period(p.rep) +
				": they could not be read. The other rows are shown; w saves the file as downloaded."
			if len(ls) < p.skippedCount() {
				head += fmt.Sprintf(" The first %d are listed.", len(ls))
			}
			b.WriteString(t.Title.Render(ansi.Wrap(head, w, " ")) + "\n\n")
			for _, l := range ls {
				b.WriteString(ansi.Wrap(l.String(), w, " ") + "\n")
			}
			return b.String()
		},
		Fields: func(ls []skipLine) [][2]string {
			out := make([][2]string, len(ls))
			for i, l := range ls {
				out[i] = [2]string{fmt.Sprintf("line %d %s", l.Line, l.Column), l.Reason}
			}
			return out
		},
	})
}

// failure is a failed download where its rows would be: the error's code,
// message and what to do, sanitized, wrapped to w.
func failure(t ui.Theme, err error, w int) []string {
	var pairs [][2]string
	var ae *apierr.Error
	if errors.As(err, &ae) {
		code := ae.Label()
		if ae.HTTPStatus != 0 {
			code = strings.TrimSpace(fmt.Sprintf("%s HTTP %d", code, ae.HTTPStatus))
		}
		pairs = append(pairs, [2]string{"code", viewkit.Dash(code)}, [2]string{"message", viewkit.Dash(ae.Summary())},
			[2]string{"request", ae.Method + " " + ae.Path}, [2]string{"what to do", ae.Guidance()})
	} else {
		pairs = append(pairs, [2]string{"error", err.Error()})
	}
	for i := range pairs {
		pairs[i][1] = sanitize.Line(pairs[i][1])
	}
	out := []string{t.Bad.Render("The download failed.")}
	return append(out, strings.Split(strings.TrimRight(kv(t, pairs, w), "\n"), "\n")...)
}
