// Package paymentsview is the payments view: the payments held by the live
// store, newest first, by state scope (all, QUOTED, in flight, FAILED,
// DECLINED, RETURNED, COMPLETED, retryable), with a chart of the counts per
// state over time; the payments owed just in time (owed: by due time, how
// late, the exposure's totals); and
// a payment's detail: the record, why it failed with the spec's guidance
// (retry or not, what to do), its state timeline (state history and webhook
// arrivals), its ledger trail (did the funds come back) and its lines in
// the RECON report.
//
// It is built for 100,000 payments: the store's PaymentSet shares the
// records that did not change between snapshots, so the view builds a
// table row once per record version and does nothing at all when a poll
// changed no payment.
//
// The Go package is paymentsview because wire/payments is payments.
package paymentsview

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/desk/platform"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Name is the view's palette name, the View of ui.Open messages that open
// it (ui.Open{View: Name, Args: []string{"<paymentId or internalId>"}}
// opens a payment's detail; Args {"failed"} a scope).
const Name = route.Payments

// View is the payments view.
type View struct {
	viewkit.Stack
	// backCmd is the command of a Back that changed the scope, run at the
	// next Update (Back returns no command).
	backCmd tea.Cmd
	// found is the platform's answer to a search the window holds
	// nothing of (find.go).
	found outside
	// beyond is the platform's answer to a search of fields, beyond the
	// window (platform.go).
	beyond beyond
	ctx    *ui.Context
	p      *platform.Platform
	page   *viewkit.TablePage[*payments.Payment]
	counts live.Key[counts]
	// exposure is what the payments in flight commit (the owed scope's
	// totals: the overview's).
	exposure live.Key[paystats.Exposure]
	hist     live.Key[paystats.StateHistory]
	// initiated is the window's payments per state from the history file.
	initiated live.Key[paystats.Initiated]
	scope     scope
	window    time.Duration // the window shown: one of windows (w), or any a command asked for
	chart     stateChart
	head      headLines
	recon     reconCache
	keys      keys
	// asked are the payments shown that were asked to be read by id, by
	// the state time they were asked at (wantShown).
	asked map[string]time.Time
}

type keys struct{ Next, Prev, Window, Ticket, Platform key.Binding }

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
	return r.v.scope.Label()
}

// New builds the payments view over the platform's store and clients.
func New(ctx *ui.Context, p *platform.Platform) *View {
	v := &View{ctx: ctx, p: p, keys: keys{
		Next: ctx.Key("next_scope"), Prev: ctx.Key("prev_scope"), Window: ctx.KeyAs("window", "window 24h/7d/30d"),
		Ticket: ctx.Key("ticket"), Platform: ctx.Key("platform_payments"),
	}}
	v.window = windows[0]
	v.exposure = paystats.ExposureOf(ctx.Store, p.Runway)
	v.counts = scopeCounts(ctx.Store, windows[0])
	v.hist = paystats.StateHistories(ctx.Store, windows[0])
	v.initiated = paystats.InitiatedHistory(ctx.Store, windows[0], chartStates[:])
	v.page = viewkit.NewSharedTable(ctx, viewkit.TableSpec[*payments.Payment]{
		Columns:    columns(),
		Topics:     []live.Topic{live.Payments},
		Live:       true,
		Enter:      func(p *payments.Payment) tea.Cmd { return v.openPayment(p.PaymentID) },
		Above:      v.above,
		AboveShare: 0.3,
		Empty:      "no payments in this scope",
		What:       "payments",
		Export:     paymentsExport,
		Shown:      v.wantShown,
	}, viewkit.Shared[*payments.Payment]{
		Source: scopeRows(ctx.Store, scopeAll, windows[0]),
	})
	// A search the window does not hold may be of an older payment.
	v.page.Table().SetNoMatchHint(noMatchHint)
	v.Stack.Reset(rootPage{v.page, v})
	return v
}

// now is the platform's time: the ages of the payments' states and the
// time left until their deadlines are on the payments interface's clock,
// whose times they are.
func (v *View) now() time.Time { return v.ctx.Store.PlatformNow(apierr.Payments) }

// Name is the palette name.
func (v *View) Name() route.Route { return route.Payments }

// Title is the tab label.
func (v *View) Title() string { return "Payments" }

// Init does nothing: the store pushes payments.
func (v *View) Init() tea.Cmd { return nil }

// above draws the scope bar, the chart when there is room, and a line on
// the selected payment with the live age of its state.
// headLines are the scope line(s) as drawn for the counts' version, the
// scope, the window, the width and the theme: a cursor move draws them
// again only when one of those changed.
type headLines struct {
	version uint64
	scope   scope
	window  time.Duration
	w       int
	dark    bool
	lines   []string
}

func (v *View) headLines(w int) []string {
	t := v.ctx.Theme
	got := live.Get(v.ctx.Store, v.counts)
	if hd := &v.head; hd.lines != nil && hd.version == got.Version && hd.scope == v.scope && hd.window == v.window &&
		hd.w == w && hd.dark == t.Dark {
		return hd.lines
	}
	parts := scopeParts(got.Data, v.scope)
	parts[len(parts)-1] += t.Muted.Render("  last " + windowWord(v.window))
	if w >= 100 {
		parts[0] = t.Muted.Render("scope ") + parts[0]
		parts[len(parts)-1] += t.Muted.Render("   [ ] scope · w window")
	}
	// On two lines rather than cut where one is too narrow (80 columns).
	lines := strings.Split(fitLines(strings.Join(viewkit.WrapParts(parts, "  ", w), "\n"), w), "\n")
	v.head = headLines{version: got.Version, scope: v.scope, window: v.window, w: w, dark: t.Dark, lines: lines}
	return lines
}

func (v *View) above(w, h int, sel **payments.Payment) string {
	lines := slices.Clone(v.headLines(w))
	if l := v.platformLine(); l != "" {
		lines = append(lines, fitLines(l, w))
	}
	if h >= 8 {
		// The chart comes cut to w with its drawing, shared and kept:
		// measuring its lines again on every frame (a cursor move) is
		// what a frame of this page cost most.
		if c := v.chart.view(v.ctx, v.hist, v.initiated, v.window, w, h-len(lines)-1); c != "" {
			lines = append(lines, c)
		}
	}
	if h >= 3 && sel != nil && *sel != nil {
		lines = append(lines, fitLines(v.selectedLine(*sel), w))
	}
	return strings.Join(lines, "\n")
}

func (v *View) selectedLine(p *payments.Payment) string {
	t := v.ctx.Theme
	// The state is judged now (an expiry); its age is as of the last tick,
	// as every age of the frame (ui.Context.Shown).
	shown := v.ctx.Store.PlatformTime(apierr.Payments, v.ctx.Shown())
	s := "▸ " + sanitize.Line(p.PaymentID) + "  " + stateText(p, v.now()) +
		" for " + ui.Age(shown, p.LastStateUpdatedAt) + " (since " + viewkit.Time(p.LastStateUpdatedAt) + " UTC)"
	if len(p.Errors) > 0 {
		e := p.Errors[0]
		s += "  " + t.Bad.Render(sanitize.Line(e.Code)) + " " + sanitize.Line(e.Title)
	}
	return s + t.Muted.Render("  "+v.ctx.Key("open").Help().Key+": detail")
}

// Update handles scope keys, Open and recon answers; the rest goes to the
// page shown.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	if c := v.backCmd; c != nil {
		v.backCmd = nil
		return tea.Batch(c, v.Update(msg))
	}
	switch msg := msg.(type) {
	case ticketRead:
		return copySummary(msg.s)
	case tea.KeyPressMsg:
		if key.Matches(msg, v.keys.Ticket) {
			return v.copyTicket()
		}
		if msg.String() == "enter" {
			if cmd, ok := v.openFound(); ok {
				return cmd
			}
			if v.Depth() == 1 && v.page.Table().Len() == 0 && v.platformLine() != "" {
				if cmd := v.openBeyond(); cmd != nil {
					return cmd
				}
			}
		}
		if v.Depth() == 1 && key.Matches(msg, v.keys.Platform) && v.platformLine() != "" {
			if cmd := v.openBeyond(); cmd != nil {
				return cmd
			}
		}
		if v.Depth() == 1 {
			switch {
			case key.Matches(msg, v.keys.Next):
				return v.setScope((v.scope + 1) % scopeCount)
			case key.Matches(msg, v.keys.Prev):
				return v.setScope((v.scope + scopeCount - 1) % scopeCount)
			case key.Matches(msg, v.keys.Window):
				return v.setWindow(nextWindow(v.window))
			}
		}
	case ui.Open:
		return v.open(msg.Args)
	case viewkit.Fetched:
		v.foundAnswer(msg.Topic)
		v.platformAnswer(msg.Topic)
	case platformDue:
		return v.platformCall(msg)
	}
	return tea.Batch(v.Stack.Update(msg), v.findOutside())
}

// setScope shows the scope's rows (shared with every session), the cursor
// on its newest payment.
func (v *View) setScope(s scope) tea.Cmd {
	v.scope = s
	for v.Stack.Back() {
	}
	if s.Grouped() { // FAILED and DECLINED: by reason code first
		return v.Stack.Reset(v.newGroupsPage())
	}
	if s == scopeOwed { // by due time, with what is owed per currency
		return v.Stack.Reset(v.newOwedPage())
	}
	cmd := v.page.SetSource(scopeRows(v.ctx.Store, s, v.window))
	return tea.Batch(cmd, v.Stack.Reset(rootPage{v.page, v}))
}

// setWindow shows the payments of another window: the store reads what it
// does not hold yet (the view watches live.Window of the payments), the
// cursor goes to the newest payment.
func (v *View) setWindow(w time.Duration) tea.Cmd {
	v.window = w
	v.counts = scopeCounts(v.ctx.Store, w)
	v.hist = paystats.StateHistories(v.ctx.Store, w)
	v.initiated = paystats.InitiatedHistory(v.ctx.Store, w, chartStates[:])
	v.beyond = beyond{} // beyond another window
	return tea.Batch(v.setScope(v.scope), v.askPlatform(strings.TrimSpace(v.page.Table().Filter())))
}

// Topics are the page's, the window of payments it shows (the store holds
// the widest any session asks for), its counts and their history.
func (v *View) Topics() []live.Topic {
	return append(v.Stack.Topics(), live.Window(live.Payments, v.window), v.counts.Topic(), v.hist.Topic(), v.initiated.Topic())
}

// open handles ":payments [scope]", ":payment <ref>" and links from other
// views: a scope word selects the scope, anything else is a payment id or
// internalId whose detail opens.
func (v *View) open(args []string) tea.Cmd {
	for v.Stack.Back() {
	}
	if len(args) == 0 {
		return v.Stack.Update(ui.StoreChanged{})
	}
	// ":payments [STATE] [WINDOW]", in either order: "failed 7d", "30d".
	sc, win, known, bad := v.scope, v.window, true, ""
	scoped := false
	for _, a := range args {
		if s, ok := parseScope(a); ok {
			sc, scoped = s, true
		} else if w, err := parseWindow(a); err == nil {
			win = w
		} else {
			known = false
			if looksLikeWindow(a) {
				bad = err.Error()
			}
		}
	}
	switch {
	case known:
		v.scope = sc
		return v.setWindow(win)
	case bad != "" || (scoped && len(args) > 1):
		// A state and a word that is no window ("failed 9x"): not a
		// payment called "failed".
		if bad == "" {
			bad = "expected a window such as 24h, 7d or 90d after the state"
		}
		return ui.FlashCmd(":payments " + sanitize.Line(strings.Join(args, " ")) + ": " + bad)
	}
	// A payment named by id is not one of the scope's: its page opens
	// above the root, and the trail does not name the scope or group.
	return v.Stack.Open(newDetailPage(v, strings.TrimSpace(args[0])))
}

// Back walks back one page; at the root of a scope other than all (after
// :payments failed, or [ ]), back to all the payments of the window.
func (v *View) Back() bool {
	if v.Stack.Back() {
		return true
	}
	if v.scope == scopeAll {
		return false
	}
	v.backCmd = v.setScope(scopeAll)
	return true
}

// openPayment pushes the detail of a payment of the root's table by id.
func (v *View) openPayment(ref string) tea.Cmd {
	for v.Depth() > 1 {
		v.Stack.Back()
	}
	return v.Push(newDetailPage(v, ref))
}

// Keys are the bindings of the page shown, and the scope keys on the root.
func (v *View) Keys() []key.Binding {
	if v.Depth() == 1 {
		if v.beyond.state == findFound && len(v.beyond.found) > 0 && v.platformLine() != "" {
			return v.Stack.KeysWith(v.keys.Prev, v.keys.Next, v.keys.Window, v.keys.Ticket, v.keys.Platform)
		}
		return v.Stack.KeysWith(v.keys.Prev, v.keys.Next, v.keys.Window, v.keys.Ticket)
	}
	return v.Stack.KeysWith(v.keys.Ticket)
}

// Commands offer ":payments [scope]" and ":payment <id or internalId>".
func (v *View) Commands() []ui.Command {
	return []ui.Command{
		{Name: string(v.Name()), Args: "[all|quoted|inflight|failed|declined|returned|completed|retryable|owed] [24h|7d|30d|any window, as 90d]", Help: "payments by state, over a window",
			View: Name, Complete: scopeWords},
		{Name: "payment", Args: "<paymentId or internalId>", Help: "a payment's detail: errors, guidance, timeline",
			View: Name, Complete: func(prefix string) []string {
				return completeRefs(live.Get(v.ctx.Store, live.PaymentsKey).Data, prefix, 50)
			}},
	}
}

// table returns the root table as the store holds it now (tests and
// benchmarks: it waits for the shared rows to be built).
func (v *View) table() *table.Model {
	v.ctx.Store.Sync()
	v.page.Update(ui.StoreChanged{})
	return v.page.Table()
}

// ReadRaw reads a payment's JSON again for the raw view (ui.RawReader):
// the store holds the payments decoded, not as received.
func (v *View) ReadRaw(id string, rec any) tea.Cmd {
	p, ok := rec.(*payments.Payment)
	if !ok || len(p.RawJSON()) > 0 || v.p.Payments == nil || !payments.IsPaymentID(p.PaymentID) {
		return nil
	}
	at := platform.PaymentAt{ID: p.PaymentID, AsOf: p.LastStateUpdatedAt}
	return viewkit.ReadRaw(v.ctx, v.p.Reads.PaymentJSON, at, id, "GET /v3/payments/{id}")
}

// askedMax bounds the payments remembered as asked for: past it, what
// was shown longest ago is forgotten (asked again if shown again).
const askedMax = 4096

// wantShown asks the store to read by id the payments shown whose
// records lack what only that read gives (a failure's reason, the rest
// of a partial record): once per state of each, for every session
// together (live.Store.WantDetails). Nothing else of a window is read by
// id: a scope of 90 days holding thousands of failures reads the rows on
// screen.
func (v *View) wantShown(shown []*payments.Payment) tea.Cmd {
	if v.p.Payments == nil {
		return nil
	}
	var ids []string
	for _, p := range shown {
		if at, ok := v.asked[p.PaymentID]; live.NeedsDetails(p) && (!ok || !at.Equal(p.LastStateUpdatedAt)) {
			ids = append(ids, p.PaymentID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	if v.asked == nil || len(v.asked) > askedMax {
		v.asked = map[string]time.Time{}
	}
	for _, p := range shown {
		if slices.Contains(ids, p.PaymentID) {
			v.asked[p.PaymentID] = p.LastStateUpdatedAt
		}
	}
	st := v.ctx.Store
	return func() tea.Msg {
		st.WantDetails(ids)
		return nil
	}
}
