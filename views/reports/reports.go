// Package reports is the reports view: the reporting interface's list of
// reports (type, format, period, status, when generated); enter downloads
// one and shows its rows, PAYMENT_OPS as a table of payments and RECON
// grouped per payment with totals (enter on a payment shows its lines, on
// a row every field, the columns the spec does not name included);
// w saves the report to the session's save directory exactly as downloaded.
//
// Nothing untrue is shown: an absent amount is "—", never 0; rows that
// could not be read are counted above the table, the first few with their
// line, column and reason, and ! lists them all; a failed download shows
// the error's code, message and guidance where the rows would be, and the
// list says "no reports" only when the server said so.
package reports

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/reporting"
)

// View is the reports view.
type View struct {
	viewkit.Stack
	ctx   *ui.Context
	p     *platform.Platform
	list  *viewkit.TablePage[reporting.Report]
	open  *reportPage // the report shown, while the stack is above the list
	keys  keys
	empty string // the list's message when it has no report
}

type keys struct{ Save, Skipped key.Binding }

// New builds the reports view; p.Reporting downloads the reports.
func New(ctx *ui.Context, p *platform.Platform) *View {
	v := &View{ctx: ctx, p: p, keys: keys{
		Save: ctx.Key("save_report"), Skipped: ctx.Key("skipped_rows"),
	}}
	v.list = viewkit.NewOwnTable(ctx, viewkit.TableSpec[reporting.Report]{
		Columns: []table.Column{
			{Title: "Type", Width: 11}, {Title: "Format", Width: 6}, {Title: "Period (UTC)", Width: 23},
			{Title: "Status", Width: 8}, {Title: "Generated (UTC)", Width: 16}, {Title: "Report id", Width: 10, Flex: 1},
		},
		Topics: []live.Topic{live.Reports},
		Enter:  func(r reporting.Report) tea.Cmd { return v.openReport(r, true) },
		Empty:  "no reports",
		Export: listExport,
	}, viewkit.Own[reporting.Report]{
		Read: func() ([]reporting.Report, live.Snapshot) {
			got := live.Get(ctx.Store, live.ReportsKey)
			snap, all := got.Snapshot, got.Data
			if msg := listEmpty(snap); msg != v.empty {
				v.empty = msg
				v.list.Table().SetEmptyMessage(msg)
			}
			return all, snap
		},
		Row: func(r reporting.Report) table.Row {
			return table.Row{ID: r.ID, Cells: []string{
				sanitize.Line(r.Type), sanitize.Line(r.Format), period(r), sanitize.Line(r.Status),
				generated(r), sanitize.Line(r.ID),
			}, Keys: []table.Key{{}, {}, table.Time(r.StartDate), {}, table.Time(generated0(r))}}
		},
	})
	v.Stack.Reset(v.list)
	return v
}

// listEmpty is what the list says when it has no report: the server said
// there are none, or no list has been read yet (the status line says why).
func listEmpty(snap live.Snapshot) string {
	switch {
	case snap.FetchedAt.IsZero() && snap.Err == nil:
		return "loading the report list…"
	case snap.FetchedAt.IsZero():
		return "the report list could not be read: r tries again"
	}
	return "no reports"
}

// period is the report's period as dates, both inclusive (2.4); a date
// the server left out is "—".
func period(r reporting.Report) string {
	date := func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02")
	}
	return date(r.StartDate) + " … " + date(r.EndDate)
}

// generated0 is when the report was generated: reports are generated at
// 00:00 UTC after their period (2.4), so the first midnight at or after
// end_date. It is derived from the record, which has no such field.
func generated0(r reporting.Report) time.Time {
	end := r.EndDate.UTC()
	day := end.Truncate(24 * time.Hour)
	if day.Equal(end) {
		return day
	}
	return day.Add(24 * time.Hour)
}

func generated(r reporting.Report) string {
	if r.EndDate.IsZero() {
		return "—"
	}
	return generated0(r).Format("2006-01-02 15:04")
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Reports }

// Title is the tab label.
func (v *View) Title() string { return "Reports" }

// Init does nothing: the store pushes the list.
func (v *View) Init() tea.Cmd { return nil }

// openReport shows a report above the list and downloads it; known says
// whether rep is the record (type and format known) or only its id.
func (v *View) openReport(rep reporting.Report, known bool) tea.Cmd {
	for v.Stack.Depth() > 1 {
		v.Stack.Back()
	}
	v.open = newReportPage(v, rep, known)
	return tea.Batch(v.Stack.Push(v.open), v.open.load(time.Time{})) // a report's file does not change: a download held is kept
}

// Update handles the save key and palette opens, and delegates the rest.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if key.Matches(msg, v.keys.Save) {
			if v.Stack.Depth() > 1 && v.open != nil {
				return v.open.save()
			}
			if r, ok := v.list.SelectedRecord(); ok {
				return v.downloadAndSave(r)
			}
		}
	case downloaded:
		return v.saveDownloaded(msg)
	case ui.Open:
		if len(msg.Args) > 1 && msg.Args[0] == "report" {
			return v.openByID(msg.Args[1])
		}
		for v.Stack.Depth() > 1 {
			v.Stack.Back()
		}
		return tea.Batch(v.list.SetFilter(strings.Join(msg.Args, " ")), v.Stack.Update(ui.StoreChanged{}))
	}
	return v.Stack.Update(msg)
}

// openByID opens a report by id or unique id prefix from the list, or by
// asking the reporting interface for an id the list does not hold.
func (v *View) openByID(id string) tea.Cmd {
	var hits []reporting.Report
	for _, r := range v.list.Records() {
		if r.ID == id {
			return v.openReport(r, true)
		}
		if strings.HasPrefix(strings.ToLower(r.ID), strings.ToLower(id)) {
			hits = append(hits, r)
		}
	}
	if len(hits) == 1 {
		return v.openReport(hits[0], true)
	}
	if len(hits) > 1 {
		return ui.FlashCmd("report id " + sanitize.Line(id) + " is ambiguous: type more of it")
	}
	return v.openReport(reporting.Report{ID: id}, false)
}

// Selected is the record under the cursor; a report record is given as
// the JSON it arrived as, for the raw pager.
func (v *View) Selected() (string, any, bool) {
	id, rec, ok := ui.SelectedOf(v.Stack.Top())
	if r, isReport := rec.(reporting.Report); isReport && r.RawJSON() != nil {
		rec = r.RawJSON()
	}
	return id, rec, ok
}

// Back leaves the report when its page is popped.
func (v *View) Back() bool {
	ok := v.Stack.Back()
	if v.Stack.Depth() == 1 {
		v.open = nil
	}
	return ok
}

// Keys are the view's bindings.
func (v *View) Keys() []key.Binding { return v.Stack.KeysWith(v.keys.Save) }

// Commands offer ":reports [filter]" and ":report <id>".
func (v *View) Commands() []ui.Command {
	return []ui.Command{
		{Name: string(v.Name()), Args: "[filter]", Help: "reports, filtered (PAYMENT_OPS, RECON, CSV, JSON, a month)", View: v.Name(),
			Run: func(args []string) tea.Cmd { return ui.OpenCmd(v.Name(), args...) }},
		{Name: "report", Args: "<id>", Help: "download and show a report", View: v.Name(),
			Complete: func(prefix string) []string {
				var out []string
				for _, r := range v.list.Records() {
					if strings.HasPrefix(strings.ToLower(r.ID), strings.ToLower(prefix)) {
						out = append(out, sanitize.Line(r.ID))
					}
				}
				slices.Sort(out)
				return out
			},
			Run: func(args []string) tea.Cmd {
				if len(args) == 0 {
					return ui.FlashCmd("report: give a report id (tab completes)")
				}
				return ui.OpenCmd(v.Name(), "report", args[0])
			}},
	}
}
