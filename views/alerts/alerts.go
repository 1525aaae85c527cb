// Package alerts is the alerts view: the store's open alerts (spec 7.1
// rule 4: configuration errors, repeated system errors, missing scopes;
// low balances and runways, the failure rate, stale feeds; sustained
// declines and recent failures), most severe first. Enter opens what an
// alert points at (a payment, a balance, a ledger, an endpoint) in its
// view.
//
// e (or :alerts edit) shows the thresholds in effect, one rule per line
// (each kind of balance's default and currencies, the runway's window,
// the failure rate, stale feeds); enter on a rule opens its form, which
// writes the profile's file and puts the new levels in effect for every
// session at once (Settings). A read-only session sees them only.
package alerts

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire"
)

// target is the view that shows an alert's topic.
func target(t live.Topic) (route.Route, bool) {
	switch t {
	case live.Payments:
		return route.Payments, true
	case live.LiquidityBalances, live.PaymentBalances:
		return route.Balances, true
	case live.Endpoints:
		return route.AddressBook, true
	case live.Transactions:
		return route.Wallets, true
	case live.Ledger: // a runway: the ledger of its currency
		return route.Ledger, true
	case live.Quotes: // a stale feed
		return route.Quotes, true
	}
	return "", false
}

// View is the alerts view.
type View struct {
	viewkit.Stack
	ctx      *ui.Context
	settings Settings
	keys     keys
}

type keys struct{ Edit key.Binding }

// New builds the alerts view; settings, when not nil, are the thresholds
// it shows and edits (e, or :alerts edit).
func New(ctx *ui.Context, settings Settings) *View {
	v := &View{ctx: ctx, settings: settings,
		keys: keys{Edit: ctx.Key("thresholds")}}
	page := viewkit.NewOwnTable(ctx, viewkit.TableSpec[live.Alert]{
		Columns: []table.Column{
			{Title: "Severity", Width: 8}, {Title: "Code", Width: 10}, {Title: "Where", Width: 12},
			{Title: "Alert", Width: 30, Flex: 3}, {Title: "Count", Width: 5, Align: table.Right},
			{Title: "Since (UTC)", Width: 19}, {Title: "Last", Width: 8},
		},
		Enter: v.open,
		Above: v.guidance, AboveShare: 0.3,
		Empty: "no open alerts",
		What:  "alerts",
		// An alert's fields: its count a number, its times ISO 8601 UTC
		// (the screen's "Last" is an age), where it points at apart.
		Export: &viewkit.Export[live.Alert]{
			Header: []string{"severity", "code", "title", "guidance", "interface", "endpoint", "count", "since", "last", "topic", "ref", "key"},
			Row: func(a live.Alert) []string {
				return []string{a.Severity.String(), a.Code, a.Title, a.Guidance, string(a.Interface), a.Endpoint,
					strconv.Itoa(a.Count), viewkit.ISO(a.Since), viewkit.ISO(a.Last), string(a.Topic), a.Ref, a.Key}
			},
		},
	}, viewkit.Own[live.Alert]{
		Read: v.read,
		Row:  v.row,
	})
	v.Stack.Reset(page)
	return v
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Alerts }

// Title is the tab label.
func (v *View) Title() string { return "Alerts" }

// Init does nothing.
func (v *View) Init() tea.Cmd { return nil }

// Update opens the thresholds with e on the list, and :alerts edit.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if v.Depth() == 1 && v.settings != nil && key.Matches(msg, v.keys.Edit) {
			return v.Push(v.newRulesPage())
		}
	case ui.Open:
		for v.Depth() > 1 {
			v.Back()
		}
		if len(msg.Args) > 0 && msg.Args[0] == "edit" && v.settings != nil {
			return v.Push(v.newRulesPage())
		}
	}
	return v.Stack.Update(msg)
}

// Keys are the page's, and e on the list.
func (v *View) Keys() []key.Binding {
	if v.Depth() == 1 && v.settings != nil {
		return v.Stack.KeysWith(v.keys.Edit)
	}
	return v.Stack.Keys()
}

// Typing says whether a threshold form is open: it takes the keys.
func (v *View) Typing() bool {
	_, ok := v.Top().(*form)
	return ok
}

// read lists the open alerts; they change with every store change, so
// the snapshot's Seq is the store's. The topics whose data raises alerts
// (balances, payments) and that have not answered, or whose last read
// failed, are named in Partial: the alerts they would raise are unknown,
// so "no open alerts" is not claimed for them. Before any of them
// answered, with no alert open, the page is loading.
func (v *View) read() ([]live.Alert, live.Snapshot) {
	st := v.ctx.Store
	all := st.Alerts()
	topics := st.AlertTopics()
	var gaps []wire.Failure
	var since time.Time
	answered := false
	for _, tp := range topics {
		switch sn := st.Snapshot(tp); {
		case sn.Err != nil:
			answered = true
			gaps = append(gaps, wire.Failure{Name: sourceName(tp), Err: sn.Err})
		case !sn.Loaded():
			gaps = append(gaps, wire.Failure{Name: sourceName(tp), Err: viewkit.ErrNoAnswer})
			if since.IsZero() || (!sn.Since.IsZero() && sn.Since.Before(since)) {
				since = sn.Since
			}
		default:
			answered = true
		}
	}
	if len(all) == 0 && len(topics) > 0 && !answered {
		return nil, live.Snapshot{Seq: st.Seq(), Since: since}
	}
	snap := live.Snapshot{FetchedAt: v.ctx.Clock(), Seq: st.Seq()}
	if len(gaps) > 0 {
		snap.Partial = &wire.Partial{What: "the data alerts are raised from", Of: len(topics), Failed: gaps}
	}
	return all, snap
}

// sourceName names a topic that raises alerts, with what it raises.
func sourceName(tp live.Topic) string {
	switch tp {
	case live.Payments:
		return "payments (declines, failures, failure rate)"
	case live.LiquidityBalances:
		return "liquidity balances (low balance)"
	case live.PaymentBalances:
		return "payments balances (low balance, runway)"
	}
	return string(tp)
}

func (v *View) row(a live.Alert) table.Row {
	where := string(a.Interface)
	if a.Endpoint != "" {
		where += " " + a.Endpoint
	}
	if where == "" {
		where = string(a.Topic)
	}
	return table.Row{ID: a.Key, Cells: []string{
		a.Severity.String(), sanitize.Line(a.Code), sanitize.Line(where), sanitize.Line(a.Title),
		fmt.Sprint(a.Count), viewkit.Time(a.Since), ui.Age(v.ctx.Clock(), a.Last),
	}, Keys: []table.Key{table.Int(int64(a.Severity)), {}, {}, {}, table.Int(int64(a.Count)), table.Time(a.Since), table.Time(a.Last)}}
}

// guidance is the selected alert in full: its title and what to do,
// wrapped to the width (a runway's title is long), at most h lines.
func (v *View) guidance(w, h int, sel *live.Alert) string {
	if sel == nil {
		return ""
	}
	t := v.ctx.Theme
	code := sanitize.Line(sel.Code)
	lines := strings.Split(ansi.Wordwrap(code+" "+sanitize.Line(sel.Title), w, " "), "\n")
	lines[0] = t.Title.Render(code) + strings.TrimPrefix(lines[0], code)
	what := strings.Split(ansi.Wordwrap("what to do: "+sanitize.Line(sel.Guidance), w, " "), "\n")
	what[0] = t.Muted.Render("what to do:") + strings.TrimPrefix(what[0], "what to do:")
	lines = append(lines, what...)
	if _, ok := target(sel.Topic); ok && sel.Ref != "" {
		lines = append(lines, t.Muted.Render("enter opens "+sanitize.Line(sel.Ref)))
	}
	if len(lines) > h && h > 0 {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

func (v *View) open(a live.Alert) tea.Cmd {
	view, ok := target(a.Topic)
	if !ok {
		return ui.FlashCmd("this alert has no record to open")
	}
	if a.Ref == "" {
		return ui.OpenCmd(view)
	}
	return ui.OpenCmd(view, a.Ref)
}

// Commands offer ":alerts" and ":alerts edit".
func (v *View) Commands() []ui.Command {
	c := ui.Command{Name: string(v.Name()), Help: "open alerts", View: v.Name()}
	if v.settings != nil {
		c.Args, c.Help = "[edit]", "open alerts; edit: the thresholds, per currency and kind of balance"
		c.Complete = func(prefix string) []string {
			if strings.HasPrefix("edit", prefix) {
				return []string{"edit"}
			}
			return nil
		}
	}
	return []ui.Command{c}
}
