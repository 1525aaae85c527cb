// Package paymentsview is the payments view: the payments held by the live
// store, newest first, by state scope (all, in flight, FAILED, DECLINED,
// RETURNED, COMPLETED), with a chart of the counts per state over time; and
// a payment's detail: the record, why it failed with the spec's guidance
// (retry or not, what to do), its state timeline (state history and webhook
// arrivals), its ledger transactions and its lines in the RECON report.
//
// It is built for 100,000 payments: the store's PaymentSet shares the
// records that did not change between snapshots, so the view builds a
// table row once per record version and does nothing at all when a poll
// changed no payment.
//
// The Go package is paymentsview because data/payments is payments.
package paymentsview

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"treasury/data/live"
	"treasury/data/payments"
	"treasury/data/platform"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// Name is the view's palette name, the View of ui.Open messages that open
// it (ui.Open{View: Name, Args: []string{"<paymentId or internalId>"}}
// opens a payment's detail; Args {"failed"} a scope).
const Name = "payments"

// View is the payments view.
type View struct {
	viewkit.Stack
	ctx   *ui.Context
	p     *platform.Platform
	page  *viewkit.TablePage[*payments.Payment]
	rows  rows
	scope scope
	chart stateChart
	recon reconCache
	keys  keys
}

type keys struct{ Next, Prev key.Binding }

// rootPage is the table page named by the scope in the breadcrumb trail.
type rootPage struct {
	*viewkit.TablePage[*payments.Payment]
	v *View
}

// Crumb names the scope (nothing for all).
func (r rootPage) Crumb() string {
	if r.v.scope == scopeAll {
		return ""
	}
	return r.v.scope.label()
}

// New builds the payments view over the platform's store and clients.
func New(ctx *ui.Context, p *platform.Platform) *View {
	v := &View{ctx: ctx, p: p, keys: keys{
		Next: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next state scope")),
		Prev: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous state scope")),
	}}
	v.page = viewkit.NewTablePage(ctx, viewkit.TableSpec[*payments.Payment]{
		Columns:    columns(),
		Topics:     []live.Topic{live.Payments},
		Read:       v.read,
		Row:        v.rows.row,
		Enter:      func(p *payments.Payment) tea.Cmd { return v.openPayment(p.PaymentID) },
		Above:      v.above,
		AboveShare: 0.3,
		Empty:      "no payments in this scope",
		What:       "payments",
	})
	v.Stack.Reset(rootPage{v.page, v})
	return v
}

// Name is the palette name.
func (v *View) Name() string { return Name }

// Title is the tab label.
func (v *View) Title() string { return "Payments" }

// Init does nothing: the store pushes payments.
func (v *View) Init() tea.Cmd { return nil }

// read is the root page's Read: the scope's payments, newest first. The
// snapshot's Seq is replaced by the rows' version, which changes only when
// the set or the scope did, so a poll that changed nothing rebuilds nothing.
func (v *View) read() ([]*payments.Payment, live.Snapshot) {
	snap := v.ctx.Store.Snapshot(live.Payments)
	ps, _ := snap.Data.(*live.PaymentSet)
	recs := v.rows.read(ps, v.scope)
	snap.Seq = v.rows.version
	return recs, snap
}

// above draws the scope bar, the chart when there is room, and a line on
// the selected payment with the live age of its state.
func (v *View) above(w, h int, sel **payments.Payment) string {
	t := v.ctx.Theme
	bar := v.rows.counts.bar(v.scope)
	if w >= 100 {
		bar = t.Muted.Render("scope ") + bar + t.Muted.Render("   [ ] switch")
	}
	lines := []string{bar}
	if h >= 8 {
		if c := v.chart.view(v.ctx, w, h-2); c != "" {
			lines = append(lines, c)
		}
	}
	if h >= 3 && sel != nil && *sel != nil {
		lines = append(lines, v.selectedLine(*sel))
	}
	return fitLines(strings.Join(lines, "\n"), w)
}

func (v *View) selectedLine(p *payments.Payment) string {
	t := v.ctx.Theme
	now := v.ctx.Clock()
	s := "▸ " + sanitize.Line(p.PaymentID) + "  " + sanitize.Line(string(p.PaymentState)) +
		" for " + ui.Age(now, p.LastStateUpdatedAt) + " (since " + viewkit.Time(p.LastStateUpdatedAt) + " UTC)"
	if len(p.Errors) > 0 {
		e := p.Errors[0]
		s += "  " + t.Bad.Render(sanitize.Line(e.Code)) + " " + sanitize.Line(e.Title)
	}
	return s + t.Muted.Render("  enter: detail")
}

// Update handles scope keys, Open and recon answers; the rest goes to the
// page shown.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if v.Depth() == 1 {
			switch {
			case key.Matches(msg, v.keys.Next):
				v.setScope((v.scope + 1) % scopeCount)
				return nil
			case key.Matches(msg, v.keys.Prev):
				v.setScope((v.scope + scopeCount - 1) % scopeCount)
				return nil
			}
		}
	case ui.Open:
		return v.open(msg.Args)
	case viewkit.Loaded:
		v.recon.loaded(msg, v.ctx.Clock())
	}
	return v.Stack.Update(msg)
}

func (v *View) setScope(s scope) {
	v.scope = s
	v.page.Reread()
}

// open handles ":payments [scope]", ":payment <ref>" and links from other
// views: a scope word selects the scope, anything else is a payment id or
// internalId whose detail opens.
func (v *View) open(args []string) tea.Cmd {
	for v.Back() {
	}
	if len(args) == 0 {
		return v.Stack.Update(ui.StoreChanged{})
	}
	if s, ok := parseScope(args[0]); ok {
		v.setScope(s)
		return nil
	}
	return v.openPayment(strings.TrimSpace(args[0]))
}

// openPayment pushes the detail of a payment by id or internalId.
func (v *View) openPayment(ref string) tea.Cmd {
	for v.Depth() > 1 {
		v.Back()
	}
	return v.Push(newDetailPage(v, ref))
}

// Keys are the bindings of the page shown, and the scope keys on the root.
func (v *View) Keys() []key.Binding {
	if v.Depth() == 1 {
		return append(v.Stack.Keys(), v.keys.Prev, v.keys.Next)
	}
	return v.Stack.Keys()
}

// Commands offer ":payments [scope]" and ":payment <id or internalId>".
func (v *View) Commands() []ui.Command {
	return []ui.Command{
		{Name: "payments", Args: "[all|inflight|failed|declined|returned|completed]", Help: "payments by state",
			View: Name, Complete: scopeWords},
		{Name: "payment", Args: "<paymentId or internalId>", Help: "a payment's detail: errors, guidance, timeline",
			View: Name, Complete: func(prefix string) []string {
				ps, _ := v.ctx.Store.Snapshot(live.Payments).Data.(*live.PaymentSet)
				return completeRefs(ps, prefix, 50)
			}},
	}
}

// table returns the root table, built from the store as it is now (tests
// and benchmarks).
func (v *View) table() *table.Model {
	v.page.Records()
	return v.page.Table()
}
