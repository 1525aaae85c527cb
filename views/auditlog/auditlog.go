// Package auditlog is the audit view: every action attempted from this
// process's dashboards (and SSH sessions), newest first, as the append-only
// audit log records it.
package auditlog

import (
	"os"
	"slices"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"treasury/data/audit"
	"treasury/data/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// View is the audit view.
type View struct {
	viewkit.Stack
	ctx  *ui.Context
	log  *audit.Log
	recs []audit.Entry
	snap live.Snapshot
	size int64
}

// New builds the audit view over the process's log.
func New(ctx *ui.Context, log *audit.Log) *View {
	v := &View{ctx: ctx, log: log}
	v.Stack.Reset(viewkit.NewTablePage(ctx, viewkit.TableSpec[audit.Entry]{
		Columns: []table.Column{
			{Title: "Time (UTC)", Width: 19}, {Title: "Operator", Width: 10, Flex: 1}, {Title: "Env", Width: 7},
			{Title: "Action", Width: 8}, {Title: "Target", Width: 20, Flex: 3}, {Title: "Outcome", Width: 8},
			{Title: "Code", Width: 10}, {Title: "Reason / error", Width: 16, Flex: 2},
		},
		Read: func() ([]audit.Entry, live.Snapshot) { return v.recs, v.snap },
		Row:  row,
		Handle: func(msg tea.Msg) (bool, tea.Cmd) {
			switch msg.(type) {
			case ui.Tick, ui.StoreChanged, ui.Open:
				return v.reload(), nil
			}
			return false, nil
		},
		Empty: "no action attempted yet",
	}))
	v.reload()
	return v
}

// reload reads the log again when it grew.
func (v *View) reload() bool {
	if v.log == nil {
		return false
	}
	st, err := os.Stat(v.log.Path())
	if err == nil && st.Size() == v.size && v.snap.Seq != 0 {
		return false
	}
	recs, rerr := v.log.Read()
	if err == nil {
		v.size = st.Size()
	}
	slices.Reverse(recs)
	v.recs = recs
	v.snap = live.Snapshot{FetchedAt: v.ctx.Clock(), Err: rerr, Seq: v.snap.Seq + 1}
	return true
}

func row(e audit.Entry) table.Row {
	keys := make([]string, 0, len(e.Targets))
	for k := range e.Targets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var tg []string
	for _, k := range keys {
		tg = append(tg, k+"="+e.Targets[k])
	}
	note := e.Reason
	if e.Error != "" {
		note = e.Error
	}
	id := e.Time.UTC().Format("20060102T150405.000000000") + "|" + e.Action + "|" + e.MutationID + e.IntentID + "|" + e.Outcome
	return table.Row{ID: id, Cells: []string{
		viewkit.Time(e.Time), sanitize.Line(e.Operator), sanitize.Line(e.Environment), sanitize.Line(e.Action),
		sanitize.Line(strings.Join(tg, " ")), sanitize.Line(e.Outcome), sanitize.Line(e.ErrorCode), sanitize.Line(note),
	}, Keys: []table.Key{table.Time(e.Time)}}
}

// Name is the palette name.
func (v *View) Name() string { return "audit" }

// Title is the tab label.
func (v *View) Title() string { return "Audit" }

// Init does nothing.
func (v *View) Init() tea.Cmd { return nil }

// Commands offer ":audit".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: "audit", Help: "the audit log of operator actions", View: v.Name(),
		Run: func([]string) tea.Cmd { return nil }}}
}
