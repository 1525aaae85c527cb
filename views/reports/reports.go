// Package reports is the reports view: the reporting interface's list of
// reports (type, format, period, status, when generated); enter downloads
// one and shows its rows, PAYMENT_OPS as a table of payments and RECON
// grouped per payment with totals (enter on a payment shows its lines);
// w saves the report to the session's save directory exactly as downloaded.
package reports

import (
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"treasury/data/live"
	"treasury/data/platform"
	"treasury/data/reporting"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// View is the reports view.
type View struct {
	viewkit.Stack
	ctx  *ui.Context
	p    *platform.Platform
	list *viewkit.TablePage[reporting.Report]
	open *reportPage // the report shown, while the stack is above the list
	keys keys
}

type keys struct{ Save key.Binding }

// New builds the reports view; p.Reporting downloads the reports.
func New(ctx *ui.Context, p *platform.Platform) *View {
	v := &View{ctx: ctx, p: p, keys: keys{
		Save: key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "save report file as downloaded")),
	}}
	v.list = viewkit.NewTablePage(ctx, viewkit.TableSpec[reporting.Report]{
		Columns: []table.Column{
			{Title: "Type", Width: 11}, {Title: "Format", Width: 6}, {Title: "Period (UTC)", Width: 23},
			{Title: "Status", Width: 8}, {Title: "Generated (UTC)", Width: 16}, {Title: "Report id", Width: 10, Flex: 1},
		},
		Topics: []live.Topic{live.Reports},
		Read: func() ([]reporting.Report, live.Snapshot) {
			snap := ctx.Store.Snapshot(live.Reports)
			all, _ := snap.Data.([]reporting.Report)
			return all, snap
		},
		Row: func(r reporting.Report) table.Row {
			return table.Row{ID: r.ID, Cells: []string{
				sanitize.Line(r.Type), sanitize.Line(r.Format), period(r), sanitize.Line(r.Status),
				generated(r), sanitize.Line(r.ID),
			}, Keys: []table.Key{{}, {}, table.Time(r.StartDate), {}, table.Time(generated0(r))}}
		},
		Enter: func(r reporting.Report) tea.Cmd { return v.openReport(r, true) },
		Empty: "no reports",
	})
	v.Stack.Reset(v.list)
	return v
}

// period is the report's period as dates, both inclusive (2.4).
func period(r reporting.Report) string {
	return r.StartDate.UTC().Format("2006-01-02") + " … " + r.EndDate.UTC().Format("2006-01-02")
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
func (v *View) Name() string { return "reports" }

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
	return tea.Batch(v.Stack.Push(v.open), v.open.load())
}

// Update handles the save key and palette opens, and delegates the rest.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if key.Matches(msg, v.keys.Save) {
			if v.Stack.Depth() > 1 && v.open != nil {
				return v.open.save()
			}
			if r, ok := v.list.SelectedRecord(); ok {
				return v.downloadAndSave(r)
			}
		}
	case viewkit.Loaded:
		if strings.HasPrefix(msg.Key, saveKey) {
			return v.saveLoaded(msg)
		}
	case ui.Open:
		if len(msg.Args) > 1 && msg.Args[0] == "report" {
			return v.openByID(msg.Args[1])
		}
		for v.Stack.Depth() > 1 {
			v.Stack.Back()
		}
		v.list.SetFilter(strings.Join(msg.Args, " "))
		return v.Stack.Update(ui.StoreChanged{})
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

// Back leaves the report when its page is popped.
func (v *View) Back() bool {
	ok := v.Stack.Back()
	if v.Stack.Depth() == 1 {
		v.open = nil
	}
	return ok
}

// Keys are the view's bindings.
func (v *View) Keys() []key.Binding { return append(v.Stack.Keys(), v.keys.Save) }

// Commands offer ":reports [filter]" and ":report <id>".
func (v *View) Commands() []ui.Command {
	return []ui.Command{
		{Name: "reports", Args: "[filter]", Help: "reports, filtered (PAYMENT_OPS, RECON, CSV, JSON, a month)", View: v.Name(),
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
