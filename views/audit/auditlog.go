// Package auditview is the audit view: every action attempted (from this
// process's dashboards and SSH sessions, and from other processes on the
// same state directory), newest first, as the tamper-evident audit log
// records it. It reads the store's Audit topic, which the log's writer
// refreshes at each append: a new attempt appears in every open session
// at once, the table following the newest line while its cursor is on
// the first row. Enter shows a line in full (who, ids, its place in the
// chain).
package auditview

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// View is the audit view.
type View struct {
	viewkit.Stack
	ctx *ui.Context
}

// New builds the audit view over the store's Audit topic.
func New(ctx *ui.Context) *View {
	v := &View{ctx: ctx}
	v.Stack.Reset(viewkit.NewSharedTable(ctx, viewkit.TableSpec[audit.Record]{
		Columns: []table.Column{
			{Title: "#", Width: 4, Align: table.Right}, {Title: "Time (UTC)", Width: 19},
			{Title: "Who", Width: 8, Flex: 1}, {Title: "Env", Width: 7},
			{Title: "Action", Width: 8}, {Title: "Target", Width: 14, Flex: 3}, {Title: "Outcome", Width: 9},
			{Title: "Code", Width: 10}, {Title: "Reason / error", Width: 14, Flex: 2},
		},
		Topics: []live.Topic{live.Audit},
		Enter:  func(r audit.Record) tea.Cmd { return v.Stack.Push(v.detail(r)) },
		Empty:  "no action attempted yet",
		What:   "the audit log",
		Live:   true,
		Export: export,
	}, viewkit.Shared[audit.Record]{
		Source: rows(ctx.Store),
	}))
	return v
}

// rows are the log's lines as rows, newest (highest seq) first, built
// once per change for every session.
func rows(s *live.Store) live.Key[viewkit.Projected[audit.Record]] {
	return viewkit.ListProjection(s, live.AuditKey, "rows", audit.ID, row, viewkit.NewestFirst)
}

func row(r audit.Record) table.Row {
	note, outcome := r.Reason, r.Outcome
	switch {
	case r.Error != "":
		note = r.Error
	case note == "" && r.Request != "":
		note = r.Request
	}
	if r.Broken != "" { // never shown as if it were intact
		note, outcome = "BROKEN CHAIN: "+r.Broken+" (treasury audit verify)", "!"+outcome
	}
	seq := ""
	if r.Seq > 0 {
		seq = strconv.FormatUint(r.Seq, 10)
	}
	return table.Row{ID: audit.ID(r), Cells: []string{
		seq, viewkit.Time(r.Time), sanitize.Line(r.Who.String()), sanitize.Line(r.Environment), sanitize.Line(r.Action),
		sanitize.Line(target(r.Target)), sanitize.Line(outcome), sanitize.Line(r.ErrorCode), sanitize.Line(note),
	}, Keys: []table.Key{table.Int(int64(r.Seq)), table.Time(r.Time)}}
}

// target is "kind id", the detail of a transaction (its amount) or an
// endpoint (its alias) first.
func target(t audit.Target) string {
	if t.Kind == "" {
		return ""
	}
	s := t.Kind + " " + t.ID
	switch {
	case t.Detail["alias"] != "":
		s = t.Kind + " " + t.Detail["alias"] + " " + t.ID
	case t.Detail["name"] != "":
		s = t.Kind + " " + t.Detail["name"] + " " + t.ID
	case t.Detail["qty"] != "":
		s = t.Kind + " " + t.Detail["qty"] + " " + t.Detail["asset"] + " " + t.ID
	}
	return s
}

// fields are a line's label/value pairs, in the order of the file.
func fields(r audit.Record) [][2]string {
	out := [][2]string{
		{"Seq", strconv.FormatUint(r.Seq, 10)}, {"Time (UTC)", viewkit.Time(r.Time)},
		{"Who", strings.TrimSpace(r.Who.Via + " " + r.Who.User + " " + r.Who.Name)}, {"SSH key", r.Who.Key}, {"Role", r.Who.Role}, {"From", r.Who.From},
		{"Host", r.Host}, {"Profile", r.Profile}, {"Environment", r.Environment},
		{"Action", r.Action}, {"Target", r.Target.Kind + " " + r.Target.ID},
	}
	keys := make([]string, 0, len(r.Target.Detail))
	for k := range r.Target.Detail {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, [2]string{"  " + k, r.Target.Detail[k]})
	}
	return append(out, [][2]string{
		{"Outcome", r.Outcome}, {"Of attempt", attemptOf(r)}, {"Request", r.Request},
		{"Reason", r.Reason}, {"mutationId", r.MutationID}, {"intentId", r.IntentID},
		{"requestId", r.RequestID}, {"Error code", r.ErrorCode}, {"Error", r.Error},
		{"Prev hash", r.Prev}, {"Hash", r.Hash}, {"BROKEN CHAIN", r.Broken},
	}...)
}

// attemptOf names the attempt line an outcome line ends.
func attemptOf(r audit.Record) string {
	if r.Attempt == 0 {
		return ""
	}
	return "line " + strconv.FormatUint(r.Attempt, 10)
}

// detail is one line in full.
func (v *View) detail(r audit.Record) *viewkit.DetailPage[audit.Record] {
	id := audit.ID(r)
	return viewkit.NewDetailPage(v.ctx, viewkit.DetailSpec[audit.Record]{
		Crumb:  "line " + strconv.FormatUint(r.Seq, 10),
		Topics: []live.Topic{live.Audit},
		Get: func() (audit.Record, bool, live.Snapshot) {
			snap := live.Get(v.ctx.Store, live.AuditKey)
			for _, x := range snap.Data {
				if audit.ID(x) == id {
					return x, true, snap.Snapshot
				}
			}
			return r, true, snap.Snapshot // older than the lines held: as it was read
		},
		ID:     audit.ID,
		Fields: fields,
		Body: func(r audit.Record, w int) string {
			var b strings.Builder
			for _, f := range fields(r) {
				if f[1] == "" {
					continue
				}
				fmt.Fprintf(&b, "%-12s %s\n", f[0], sanitize.Line(f[1]))
			}
			return strings.TrimRight(b.String(), "\n")
		},
	})
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Audit }

// Title is the tab label.
func (v *View) Title() string { return "Audit" }

// Init does nothing: the store pushes the log's lines.
func (v *View) Init() tea.Cmd { return nil }

// Commands offer ":audit".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: string(v.Name()), Help: "the audit log of operator actions, newest first", View: v.Name(),
		Run: func([]string) tea.Cmd { return nil }}}
}

// export is the log's CSV: a line's fields each in a column (who apart
// from how and from where; a transaction's quantity apart from its
// asset), its time in ISO 8601 UTC, "" for what a line has not, and
// "broken" saying how a line read from the file breaks the chain.
var export = &viewkit.Export[audit.Record]{
	Header: []string{"seq", "time", "via", "user", "name", "key", "role", "from", "host", "profile", "environment", "action",
		"target_kind", "target_id", "target_name", "target_qty", "target_asset", "outcome", "attempt", "request", "reason",
		"mutation_id", "intent_id", "request_id", "error_code", "error", "broken", "hash"},
	Row: func(r audit.Record) []string {
		num := func(n uint64) string {
			if n == 0 {
				return ""
			}
			return strconv.FormatUint(n, 10)
		}
		tg, w := r.Target, r.Who
		name := tg.Detail["alias"]
		if name == "" {
			name = tg.Detail["name"]
		}
		return []string{num(r.Seq), viewkit.ISO(r.Time), w.Via, w.User, w.Name, w.Key, w.Role, w.From, r.Host, r.Profile, r.Environment,
			r.Action, tg.Kind, tg.ID, name, tg.Detail["qty"], tg.Detail["asset"], r.Outcome, num(r.Attempt), r.Request, r.Reason,
			r.MutationID, r.IntentID, r.RequestID, r.ErrorCode, r.Error, r.Broken, r.Hash}
	},
}
