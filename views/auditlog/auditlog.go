// Package auditlog is the audit view: every action attempted from this
// process's dashboards (and SSH sessions), newest first, as the append-only
// audit log records it.
package auditlog

import (
	"context"
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
	// seen is the log's append count when the last read was asked for.
	seen int64
}

// loadKey marks the answers of this view's reads.
const loadKey = "audit:read"

// New builds the audit view over the process's log. The file is read off
// the update loop, at first and whenever this process appended to it (or
// on r, for entries another process wrote).
func New(ctx *ui.Context, log *audit.Log) *View {
	v := &View{ctx: ctx, log: log}
	v.Stack.Reset(viewkit.NewTablePage(ctx, viewkit.TableSpec[audit.Entry]{
		Columns: []table.Column{
			{Title: "Time (UTC)", Width: 19}, {Title: "Operator", Width: 10, Flex: 1}, {Title: "Env", Width: 7},
			{Title: "Action", Width: 8}, {Title: "Target", Width: 20, Flex: 3}, {Title: "Outcome", Width: 8},
			{Title: "Code", Width: 10}, {Title: "Reason / error", Width: 16, Flex: 2},
		},
		Read:   func() ([]audit.Entry, live.Snapshot) { return v.recs, v.snap },
		Row:    row,
		Handle: v.handle,
		Empty:  "no action attempted yet",
		Live:   true,
		What:   "the audit log",
	}))
	return v
}

func (v *View) handle(msg tea.Msg) (bool, tea.Cmd) {
	switch msg := msg.(type) {
	case viewkit.Loaded:
		if msg.Key != loadKey {
			return false, nil
		}
		recs, _ := msg.Value.([]audit.Entry)
		if msg.Err == nil {
			slices.Reverse(recs)
			v.recs = recs
		}
		v.snap = viewkit.Answered(v.snap, v.ctx.Clock(), msg.Err)
		return true, nil
	case tea.KeyMsg:
		if msg.String() == "r" {
			return false, v.load(true)
		}
	case ui.Tick, ui.Open:
		return false, v.load(false)
	}
	return false, nil
}

// load reads the log in a command when it has grown since the last read
// (or always, when forced).
func (v *View) load(force bool) tea.Cmd {
	if v.log == nil {
		return nil
	}
	n := v.log.Appended()
	if !force && n == v.seen {
		return nil
	}
	v.seen = n
	v.snap = viewkit.Asked(v.snap, v.ctx.Clock())
	log := v.log
	return viewkit.Call(v.ctx, loadKey, func(context.Context) (any, error) { return log.Read() })
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

// Init reads the log.
func (v *View) Init() tea.Cmd { return v.load(true) }

// Commands offer ":audit".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: "audit", Help: "the audit log of operator actions", View: v.Name(),
		Run: func([]string) tea.Cmd { return nil }}}
}
