package reports

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/kit/words"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/reporting"
)

// reportPage is one report: "loading…" while it downloads, the error if it
// fails, then its rows in the table of its type (inner).
type reportPage struct {
	v     *View
	rep   reporting.Report
	known bool // rep is the record, not only an id
	key   live.Key[*reporting.Download]
	seen  uint64 // the Seq of the key's snapshot taken

	loading bool
	dl      *reporting.Download
	err     error
	at      time.Time
	inner   viewkit.Page
}

func newReportPage(v *View, rep reporting.Report, known bool) *reportPage {
	return &reportPage{v: v, rep: rep, known: known}
}

// load downloads the report off the update loop: a download of it
// fetched after `after` is kept (viewkit.Fetch).
func (p *reportPage) load(after time.Time) tea.Cmd {
	if p.v.p == nil || p.v.p.Reporting == nil {
		p.loading, p.err = false, errors.New("this profile has no reporting interface")
		return nil
	}
	p.loading, p.err = true, nil
	// A record that was not READY when listed is asked for again by id:
	// it may be ready now (platform.Reads.Report).
	rep := p.rep
	if !p.known {
		rep = reporting.Report{ID: p.rep.ID}
	}
	p.key = live.Ask(p.v.ctx.Store, p.v.p.Reads.Report, rep)
	return viewkit.Fetch(p.v.ctx, p.key, after)
}

// answered takes the download's answer from the store, if it changed.
func (p *reportPage) answered() bool {
	got := live.Get(p.v.ctx.Store, p.key)
	if got.Seq == p.seen || (!got.Loaded() && got.Err == nil) {
		return false
	}
	p.seen = got.Seq
	p.loading, p.err = false, got.Err
	if d := got.Data; got.Loaded() && got.Err == nil && d != nil {
		p.dl, p.rep, p.known, p.at = d, d.Report, true, got.FetchedAt
		p.err = d.Unreadable
		p.inner = p.newInner()
	}
	return true
}

// Crumb names the report: type, format and first month.
func (p *reportPage) Crumb() string {
	if p.rep.Type == "" {
		return viewkit.Short(sanitize.Line(p.rep.ID), 10)
	}
	return sanitize.Line(p.rep.Type+"/"+p.rep.Format) + " " + p.rep.StartDate.UTC().Format("2006-01")
}

// Topics: a downloaded report does not follow the store.
func (p *reportPage) Topics() []live.Topic { return nil }

// snapshot is the status of the download for the tables' status line.
func (p *reportPage) snapshot() live.Snapshot {
	return live.Snapshot{FetchedAt: p.at, Err: p.err, Seq: p.seen}
}

func (p *reportPage) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case viewkit.Fetched:
		if !p.answered() {
			return nil
		}
		if p.inner != nil {
			return p.inner.Update(ui.StoreChanged{})
		}
		return nil
	case ui.Refresh:
		if p.inner == nil && !p.loading {
			return p.load(p.v.ctx.Store.Now())
		}
	case tea.KeyPressMsg:
		if key.Matches(msg, p.v.keys.Skipped) && len(p.skipped()) > 0 {
			return p.v.Stack.Push(newSkippedPage(p))
		}
	}
	if p.inner != nil {
		return p.inner.Update(msg)
	}
	return nil
}

// newInner is the table of the downloaded rows, by the report's type.
func (p *reportPage) newInner() viewkit.Page {
	if p.dl.Rows == nil {
		return nil
	}
	if p.dl.Rows.Type == reporting.TypeRecon {
		return newReconPage(p)
	}
	return newOpsPage(p)
}

// summary is the line above the rows: what the report is, the rows
// skipped, its size, and how to save it.
func (p *reportPage) summary(w int, counts string) string {
	t := p.v.ctx.Theme
	if p.rep.Type == "" { // only the id is known: the record could not be read
		return ansi.Truncate(t.Title.Render("report "+sanitize.Line(p.rep.ID)), w, "…")
	}
	s := t.Title.Render(sanitize.Line(p.rep.Type+" "+p.rep.Format)) + t.Muted.Render(" · "+period(p.rep))
	if counts != "" {
		s += t.Muted.Render(" · ") + counts
	}
	if n := rowsSkipped(p.skippedCount()); n != "" {
		s += t.Muted.Render(" · ") + t.Bad.Render(n)
	}
	if p.dl != nil {
		s += t.Muted.Render(fmt.Sprintf(" · %s · w saves it as downloaded", words.Bytes(uint64(len(p.dl.Raw)))))
	}
	return ansi.Truncate(s, w, "…")
}

// above is what goes above a table of rows in h lines: the summary, the
// lines given, then the first rows skipped.
func (p *reportPage) above(w, h int, counts string, lines ...string) string {
	out := append([]string{p.summary(w, counts)}, lines...)
	out = append(out, p.skippedAbove(w, h-len(out))...)
	return strings.Join(out, "\n")
}

// empty is the table's message when it has no rows: the report has none,
// or none could be read.
func (p *reportPage) empty() string {
	if n := p.skippedCount(); n > 0 {
		return fmt.Sprintf("no row could be read: %s (%s lists why)", rowsSkipped(n), p.v.keys.Skipped.Help().Key)
	}
	return "the report has no rows"
}

func (p *reportPage) Render(w, h int) string {
	if p.inner != nil {
		return p.inner.Render(w, h)
	}
	t := p.v.ctx.Theme
	lines := []string{viewkit.Status(p.v.ctx, live.Snapshot{Err: p.err}), p.summary(w, "")}
	switch {
	case p.loading:
		lines = append(lines, "", t.Muted.Render("downloading "+sanitize.Line(p.rep.ID)+" …"))
	case p.err != nil:
		if errors.Is(p.err, reporting.ErrNotReady) {
			lines = append(lines, "", "The report is still being generated (normally ready at 00:01 UTC).")
		} else {
			lines = append(append(lines, ""), failure(t, p.err, w)...)
		}
		if p.dl != nil {
			lines = append(lines, "", fmt.Sprintf("The content could not be read as %s; w saves the %d bytes as downloaded.",
				sanitize.Line(p.rep.Type+" "+p.rep.Format), len(p.dl.Raw)))
		}
		lines = append(lines, "", t.Muted.Render("r downloads it again · esc back"))
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

func (p *reportPage) Keys() []key.Binding {
	if p.inner != nil {
		if len(p.skipped()) > 0 {
			return append(p.inner.Keys(), p.v.keys.Skipped)
		}
		return p.inner.Keys()
	}
	return nil // r, the shell's refresh, downloads a failed report again
}

// NavKeys move in the downloaded rows.
func (p *reportPage) NavKeys() []key.Binding {
	if n, ok := p.inner.(viewkit.Navigator); ok {
		return n.NavKeys()
	}
	return nil
}

func (p *reportPage) Selected() (string, any, bool) {
	if p.inner != nil {
		return ui.SelectedOf(p.inner)
	}
	return p.rep.ID, p.rep, p.rep.ID != ""
}

func (p *reportPage) SetFilter(text string) tea.Cmd {
	if p.inner != nil {
		return ui.SetFilterOf(p.inner, text)
	}
	return nil
}

func (p *reportPage) Filter() string {
	if p.inner != nil {
		return ui.FilterOf(p.inner)
	}
	return ""
}

func (p *reportPage) CSV() func(io.Writer) error {
	if w := ui.CSVOf(p.inner); w != nil {
		return w
	}
	return func(io.Writer) error { return errors.New("the report has no rows to save yet") }
}
