// Package viewkit is what the dashboard's views share: table styles from
// the session theme, the status line that says how fresh a snapshot is,
// key/value detail blocks, money formatting, and commands that run client
// calls off the update loop and report back as messages.
package viewkit

import (
	"charm.land/bubbles/v2/key"
	"errors"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"treasury/desk/live"
	"treasury/figures/columns"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/wire/apierr"
	"treasury/wire/money"
)

// CallTimeout bounds one client call made from a view.
const CallTimeout = 30 * time.Second

// TableStyles are the table styles of a session theme.
func TableStyles(t ui.Theme) table.Styles {
	return table.Styles{Header: t.Header, Cell: t.Cell, Selected: t.Selected, Highlight: t.Changed, Stale: t.Stale, Dim: t.Dim}
}

// NewTable builds a table for a session.
func NewTable(ctx *ui.Context, cols []table.Column) *table.Model {
	t := table.New(cols, TableStyles(ctx.Theme))
	t.SetKeyMap(TableKeyMap(ctx))
	t.SetMarker(ctx.Plain()) // the selected row must show without colour
	shareLines(ctx, t)
	return t
}

// TableKeyMap is a table's bindings in force in the session's profile
// (keys:).
func TableKeyMap(ctx *ui.Context) table.KeyMap {
	k := ctx.Key
	unmark := k("clear_marks")
	return table.KeyMap{Up: k("up"), Down: k("down"), PageUp: k("page_up"), PageDown: k("page_down"),
		Home: k("top"), End: k("bottom"), SortNext: k("sort"), SortBack: k("sort_reverse"),
		Left: k("columns_left"), Right: k("columns_right"), Mark: k("mark"), MarkRange: k("mark_range"), Invert: k("invert_marks"),
		// esc (the shell's back) clears the marks too.
		Unmark: key.NewBinding(key.WithKeys(unmark.Keys()...), key.WithHelp(unmark.Help().Key+"/"+k("back").Help().Key, unmark.Help().Desc))}
}

// shareLines has t's rows formatted once for every session of the process
// with the session's styles (nil Kept: formatted for t alone).
func shareLines(ctx *ui.Context, t *table.Model) {
	if ctx.Kept != nil {
		t.ShareLines(ctx.Kept, ctx.StylesName())
	}
}

// Status is the line under a view's title: when its data was fetched, and
// STALE with the error when the last fetch failed or the data is older than
// twice its interval.
func Status(ctx *ui.Context, snap live.Snapshot) string {
	t := ctx.Theme
	now := ctx.Shown() // the age as of the last tick, as every age of the frame
	switch {
	case snap.FetchedAt.IsZero() && snap.Err == nil:
		return t.Muted.Render("loading…")
	case snap.FetchedAt.IsZero():
		return t.Bad.Render("failed: no data") + t.Muted.Render(" · "+Retrying(ctx, snap))
	case snap.Err != nil:
		return t.Stale.Render("STALE (fetched "+ui.Age(now, snap.FetchedAt)+" ago, "+Retrying(ctx, snap)+") ") + t.Bad.Render(ui.ErrorText(snap.Err))
	case snap.Stale(now):
		return t.Stale.Render("STALE: fetched " + ui.Age(now, snap.FetchedAt) + " ago")
	}
	return t.Muted.Render("fetched " + ui.Age(now, snap.FetchedAt) + " ago")
}

// KV renders a block of "label  value" lines; values are sanitized and
// wrapped to w cells under their column (w <= 0: not wrapped), so that a
// value a support desk copies (an id, a hash, a tracking reference) is
// shown whole, never cut at the edge. The label column is the block's
// longest label: every value starts in one column. A pair with an empty
// label is a blank line.
func KV(t ui.Theme, w int, pairs ...[2]string) string {
	return KVAt(t, w, LabelWidth(w, 0, pairs...), t.Cell, pairs...)
}

// LabelWidth is the label column of a block of pairs: its longest label,
// at least least (the blocks of one page line up), at most a third of w
// (a longer label wraps in it; w <= 0: no bound).
func LabelWidth(w, least int, pairs ...[2]string) int {
	lw := least
	for _, p := range pairs {
		lw = max(lw, ansi.StringWidth(sanitize.Line(p[0])))
	}
	if w > 0 {
		lw = min(lw, max(w/3, least, 1))
	}
	return lw
}

// KVAt is KV with the label column lw cells wide and the values in st.
func KVAt(t ui.Theme, w, lw int, st lipgloss.Style, pairs ...[2]string) string {
	var b strings.Builder
	vw := 0
	if w > 0 {
		vw = max(w-lw-2, 10)
	}
	for _, p := range pairs {
		if p[0] == "" {
			b.WriteString("\n")
			continue
		}
		labels := wrapCells(sanitize.Line(p[0]), lw)
		values := wrapCells(sanitize.Line(p[1]), vw)
		for i := range max(len(labels), len(values)) {
			label, value := "", ""
			if i < len(labels) {
				label = labels[i]
			}
			if i < len(values) {
				value = values[i]
			}
			b.WriteString(t.Muted.Render(PadRight(label, lw)))
			if value != "" {
				b.WriteString("  " + st.Render(value))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// wrapCells wraps s to lines of w cells: at spaces and hyphens where it
// can, inside a word (a hash, an id without breaks) where it must; w <= 0
// or a short s is one line.
func wrapCells(s string, w int) []string {
	if w <= 0 || ansi.StringWidth(s) <= w {
		return []string{s}
	}
	return strings.Split(ansi.Wrap(s, w, " "), "\n")
}

// PadRight left-aligns s in n cells (s wider than n is left as it is).
func PadRight(s string, n int) string {
	if sw := ansi.StringWidth(s); sw < n {
		return s + strings.Repeat(" ", n-sw)
	}
	return s
}

// WrapParts joins parts with sep into lines of at most w cells, a part
// never split (one wider than w stands alone on its line).
func WrapParts(parts []string, sep string, w int) []string {
	var out []string
	line := ""
	for _, p := range parts {
		switch {
		case line == "":
			line = p
		case ansi.StringWidth(line+sep+p) <= w:
			line += sep + p
		default:
			out = append(out, line)
			line = p
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// Section is a bold title line.
func Section(t ui.Theme, title string) string { return t.Title.Render(title) }

// Amount formats a decimal exactly (never rounded, every decimal it was
// received with, at least those of its currency: 2549.40 EUR), with the
// currency when given.
func Amount(d decimal.Decimal, currency string) string {
	s := money.Format(d, currency)
	if currency != "" {
		s += " " + sanitize.Line(currency)
	}
	return s
}

// Time formats a wire time for tables: UTC, to the second.
func Time(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// TimeAs formats a wire time in UTC with layout (a date, a time of day),
// and a missing time as a dash: cutting Time's text would fail on it.
func TimeAs(t time.Time, layout string) string {
	return columns.TimeAs(t, layout)
}

// Guidance explains an error for a detail pane: code, class and what to do.
func Guidance(err error) string {
	var ae *apierr.Error
	if errors.As(err, &ae) {
		return ae.Guidance()
	}
	return ""
}

// IDWidth is how much of an id a dialog that lists records shows (Head).
const IDWidth = 18

// Head cuts an id as a table's column does, keeping its start
// (columns.Head): a dialog listing the marked records names them as the
// table's rows do.
func Head(id string, n int) string { return columns.Head(id, n) }

// Short cuts an id for narrow columns, keeping its end (the part people
// compare and type in confirmations).
func Short(id string, n int) string {
	return columns.Short(id, n)
}

// Duration formats a window or interval briefly: 15m, 1h, 1h30m, 45s;
// from two days on, in days and hours: 7d, 2d5h.
func Duration(d time.Duration) string {
	if day := 24 * time.Hour; d >= 2*day {
		d = d.Round(time.Hour) // 2d23h40m is 3d, not 2d24h
		s, h := decimal.NewFromInt(int64(d/day)).String()+"d", (d%day)/time.Hour
		if h > 0 {
			s += decimal.NewFromInt(int64(h)).String() + "h"
		}
		return s
	}
	s := d.Round(time.Second).String()
	if strings.HasSuffix(s, "m0s") { // not of "40s"
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Span is what a chart's title says of the time it covers: a chart of the
// last win whose points held run from first to last. It names the window
// ("last 24h") only when the points reach back to its start; while the
// history held is shorter (after a start) it says how long it covers too
// ("last 24h window, 30m held"), as the overview's rates say "29m
// history". Zero times: no point held yet.
func Span(win time.Duration, first, last time.Time) string {
	window := "last " + Duration(win)
	held := last.Sub(first)
	switch {
	case first.IsZero() || last.IsZero():
		return window + " window, nothing held yet"
	case Whole(win, first, last):
		return window // "7d held" of 7 days is the whole window, as said
	case held <= 0:
		return window + " window, one point held"
	case held >= time.Minute:
		held = held.Round(time.Minute)
	}
	return window + " window, " + Duration(held) + " held"
}

// Whole reports whether points from first to last hold the whole window
// win, as Span says it (it then names no part held).
func Whole(win time.Duration, first, last time.Time) bool {
	held := last.Sub(first)
	return !first.IsZero() && !last.IsZero() &&
		(held >= win-min(time.Minute, win/10) || win >= 48*time.Hour && Duration(held) == Duration(win))
}

// SpanOf is Span of a series' points, oldest first.
func SpanOf(win time.Duration, pts []live.Point) string {
	if len(pts) == 0 {
		return Span(win, time.Time{}, time.Time{})
	}
	return Span(win, pts[0].At, pts[len(pts)-1].At)
}

// Reading is what a chart's title adds while history is being read back
// into the store (live.Store.SetReading): ", reading the platform's past
// quotes…"; "" otherwise.
func Reading(s *live.Store) string {
	if s == nil {
		return ""
	}
	if what := s.Reading(); what != "" {
		return ", reading " + what + "…"
	}
	return ""
}

// Dash shows an empty value as a dash.
func Dash(s string) string {
	return columns.Dash(s)
}

// WrapItems lays items (network text: each is sanitized) out after first,
// separated by " · ", wrapping at w between items (an item longer than a
// line is cut), the next lines indented by indent; nil for no item.
func WrapItems(first, indent string, items []string, w int) []string {
	if len(items) == 0 {
		return nil
	}
	var out []string
	line, lw := first, ansi.StringWidth(first)
	for i, it := range items {
		it = sanitize.Line(it)
		sep := ""
		if i > 0 {
			sep = " · "
		}
		iw := ansi.StringWidth(it)
		if i > 0 && lw+ansi.StringWidth(sep)+iw > w {
			out = append(out, line)
			line, lw, sep = indent, ansi.StringWidth(indent), ""
		}
		sw := ansi.StringWidth(sep)
		room := max(w-lw-sw, 1)
		line += sep + ansi.Truncate(it, room, "…")
		lw += sw + min(iw, room)
	}
	return append(out, line)
}

// ItemGroup is a label and its items, for FitGroups.
type ItemGroup struct {
	Label string
	Items []string
}

// FitGroups wraps each group's items under its label (WrapItems, the
// label padded to pad cells) in at most max lines of width w. When they
// do not all fit, the last line names the items left out, by their name
// (the text before their first digit: "USD", "first due"), per group,
// and where is says where they are all shown.
func FitGroups(t lipgloss.Style, groups []ItemGroup, pad, w, max int, where string) []string {
	wrap := func(g ItemGroup, items []string) []string {
		label := g.Label + strings.Repeat(" ", pad-ansi.StringWidth(g.Label))
		return WrapItems(t.Render(label), strings.Repeat(" ", pad), items, w)
	}
	var all []string
	for _, g := range groups {
		all = append(all, wrap(g, g.Items)...)
	}
	if len(all) <= max || max < 1 {
		return all
	}
	// Each group gets a line in turn, then another, while it needs more
	// and lines remain (one is the note's): every group shows its first
	// items.
	need := make([]int, len(groups))
	for i, g := range groups {
		need[i] = len(wrap(g, g.Items))
	}
	give := make([]int, len(groups))
	// The note takes two lines where there are five or more.
	noteLines := 1
	if max >= 5 {
		noteLines = 2
	}
	for left, more := max-noteLines, true; left > 0 && more; {
		more = false
		for i := range groups {
			if left > 0 && give[i] < need[i] {
				give[i]++
				left--
				more = true
			}
		}
	}
	var out, gone []string
	for i, g := range groups {
		k := len(g.Items)
		for ; k > 0; k-- {
			if len(wrap(g, g.Items[:k])) <= give[i] {
				break
			}
		}
		out = append(out, wrap(g, g.Items[:k])...)
		if k < len(g.Items) {
			names := make([]string, 0, len(g.Items)-k)
			for _, it := range g.Items[k:] {
				names = append(names, itemName(it))
			}
			label := strings.Fields(g.Label)
			gone = append(gone, label[len(label)-1]+" "+strings.Join(names, ", "))
		}
	}
	note := WrapItems(t.Render("… not shown: "), "  ", append(gone, "all in "+where), w)
	if len(note) > noteLines {
		note = note[:noteLines]
		note[noteLines-1] = ansi.Truncate(note[noteLines-1], w-1, "") + "…"
	}
	return append(out, note...)
}

// itemName is an item's name: its text before the first digit.
func itemName(it string) string {
	if i := strings.IndexAny(it, "0123456789"); i > 0 {
		it = it[:i]
	}
	return strings.TrimRight(strings.TrimSpace(sanitize.Line(it)), ":")
}
