// Package ledger is the ledger view: movements of the prefunded accounts
// over a window (the polled last 24 hours, or 7 or 30 days read on
// demand), newest first, the window stated above the table; enter opens
// the payment a movement belongs to.
package ledger

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/figures/columns"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// windowCount is how many windows the view has; w steps through them.
const windowCount = 3

// window is the view's window i: the first is the polled ledger
// (platform.LedgerWindow), the others are read on demand.
func window(i int) time.Duration {
	switch i {
	case 1:
		return 7 * 24 * time.Hour
	case 2:
		return 30 * 24 * time.Hour
	}
	return platform.LedgerWindow
}

// View is the ledger view.
type View struct {
	viewkit.Stack
	ctx *ui.Context
	p   *platform.Platform
	win int // index in windows
	// span is the read of a window beyond the polled one (zero: polled).
	span platform.LedgerSpan
	key  live.Key[[]payments.LedgerTransaction]
	keys struct{ Window key.Binding }
}

// New builds the ledger view on the polled window. Its rows are named by
// platform.LedgerID: the ledger gives movements no id.
func New(ctx *ui.Context, p *platform.Platform) *View {
	v := &View{ctx: ctx, p: p}
	v.keys.Window = ctx.KeyAs("window", "window 24h·7d·30d")
	v.setWindow(0, time.Time{})
	return v
}

// setWindow shows window i: the polled ledger, or a read of the span
// ending when it is read (the platform's now, to the second: the window
// stated is the one read, no movement after it counted in it; sessions
// that ask in the same second share the read). after > zero reads it
// again (r).
func (v *View) setWindow(i int, after time.Time) tea.Cmd {
	filter := ""
	if v.Stack.Depth() > 0 {
		for v.Stack.Back() {
		}
		filter = ui.FilterOf(v.Stack.Top())
	}
	v.win = i
	src, topic := live.LedgerKey, live.Ledger
	var cmd tea.Cmd
	v.span = platform.LedgerSpan{}
	if i > 0 {
		to := v.ctx.Store.PlatformNow(apierr.Payments).Truncate(time.Second)
		v.span = platform.LedgerSpan{From: to.Add(-window(i)), To: to}
		v.key = live.Ask(v.ctx.Store, v.p.Reads.Ledger, v.span)
		src, topic = v.key, v.key.Topic()
		cmd = viewkit.Fetch(v.ctx, v.key, after)
	}
	set := columns.Ledger()
	row := func(t payments.LedgerTransaction) table.Row {
		return viewkit.RowOf(set, platform.LedgerID(t), t, columns.At{})
	}
	word := windowWord(window(i))
	v.Stack.Reset(viewkit.NewSharedTable(v.ctx, viewkit.TableSpec[payments.LedgerTransaction]{
		// A movement's short columns (package columns), as `treasury get
		// ledger` prints them.
		Columns:     viewkit.Columns(set),
		Topics:      []live.Topic{topic},
		Live:        i == 0,
		Enter:       open,
		Above:       func(w, _ int, _ *payments.LedgerTransaction) string { return v.windowLine(w) },
		AboveAlways: true,
		AboveShare:  0.25,
		Empty:       "no ledger transactions in the last " + word,
		What:        "ledger transactions of the last " + word,
		Export:      export,
	}, viewkit.Shared[payments.LedgerTransaction]{
		Source: viewkit.ListProjection(v.ctx.Store, src, "rows", platform.LedgerID, row, viewkit.NewestFirst),
	}))
	if filter != "" {
		cmd = tea.Batch(cmd, ui.SetFilterOf(v.Stack.Top(), filter))
	}
	return tea.Batch(cmd, v.Stack.Update(ui.StoreChanged{}))
}

// windowLine says which window is shown, how it is read, and what w
// does.
func (v *View) windowLine(w int) string {
	t := v.ctx.Theme
	head := "window: last " + windowWord(window(v.win))
	next := " · w: " + windowWord(window((v.win+1)%windowCount))
	if v.win == 0 {
		return ansi.Truncate(t.Muted.Render(head+" (polled)"+next), w, "…")
	}
	// The span read, whole where it fits; else when it ends.
	s := head + fmt.Sprintf(" (%s – %s UTC, read once: r reads again)", viewkit.Time(v.span.From), viewkit.Time(v.span.To)) + next
	if ansi.StringWidth(s) > w {
		s = head + " (to " + viewkit.TimeAs(v.span.To, "01-02 15:04") + " UTC; r reads again)" + next
	}
	return ansi.Truncate(t.Muted.Render(s), w, "…")
}

// windowWord is a window as the view names it: "24 h", "7 d".
func windowWord(d time.Duration) string {
	if d >= 48*time.Hour {
		return fmt.Sprintf("%d d", d/(24*time.Hour))
	}
	return fmt.Sprintf("%d h", d/time.Hour)
}

// parseWindow reads a window word of :ledger ("24h", "1d", "7d", "30d");
// ok is false for a word that is no window, err set for a window the view
// does not offer.
func parseWindow(s string) (i int, ok bool, err error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "24h", "1d":
		return 0, true, nil
	case "7d", "1w":
		return 1, true, nil
	case "30d":
		return 2, true, nil
	}
	if n := len(s); n >= 2 && strings.ContainsRune("hdw", rune(s[n-1])) && strings.Trim(s[:n-1], "0123456789") == "" && n > 1 {
		return 0, true, fmt.Errorf("the ledger's windows are 24h, 7d and 30d, not %s", s)
	}
	return 0, false, nil
}

func open(t payments.LedgerTransaction) tea.Cmd {
	if t.Reference() == "" {
		return ui.FlashCmd("this movement belongs to no payment")
	}
	return ui.OpenCmd(route.Payments, t.Reference())
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Ledger }

// Title is the tab label.
func (v *View) Title() string { return "Ledger" }

// Init does nothing.
func (v *View) Init() tea.Cmd { return nil }

// Update handles ":ledger [window] [filter]" (a currency: an alert's
// runway opens the ledger of its currency), w and r on a read window, and
// delegates the rest.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.Open:
		return v.open(msg.Args)
	case tea.KeyPressMsg:
		if v.Stack.Depth() == 1 && key.Matches(msg, v.keys.Window) {
			return v.setWindow((v.win+1)%windowCount, time.Time{})
		}
	case ui.Refresh:
		if v.win > 0 {
			return v.setWindow(v.win, v.ctx.Store.Now())
		}
	}
	return v.Stack.Update(msg)
}

// open handles ":ledger [window] [filter]": a window word picks the
// window, the rest filters; a window the view does not offer is said, not
// taken for a filter.
func (v *View) open(args []string) tea.Cmd {
	win, rest := v.win, []string{}
	for _, a := range args {
		i, ok, err := parseWindow(a)
		switch {
		case err != nil:
			return ui.FlashCmd(":ledger " + sanitize.Line(strings.Join(args, " ")) + ": " + err.Error())
		case ok:
			win = i
		default:
			rest = append(rest, a)
		}
	}
	var cmd tea.Cmd
	if win != v.win || len(args) == 0 {
		cmd = v.setWindow(win, time.Time{})
	}
	if len(rest) > 0 {
		cmd = tea.Batch(cmd, ui.SetFilterOf(v.Stack.Top(), strings.Join(rest, " ")))
	}
	return tea.Batch(cmd, v.Stack.Update(ui.StoreChanged{}))
}

// Keys are the page's and w.
func (v *View) Keys() []key.Binding {
	if v.Stack.Depth() == 1 {
		return v.Stack.KeysWith(v.keys.Window)
	}
	return v.Stack.Keys()
}

// Commands offer ":ledger [window] [filter]".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: string(v.Name()), Args: "[24h|7d|30d] [currency or filter]", Help: "ledger transactions of a window (24 h polled; 7 d, 30 d read)", View: v.Name()}}
}

// export is the ledger's CSV: a movement's fields as received, amounts
// and balances exact and apart from their currency, the time in ISO 8601
// UTC, "" for a movement of no payment.
var export = &viewkit.Export[payments.LedgerTransaction]{
	Header: []string{"created_at", "currency", "operation", "amount", "status", "txn_source",
		"available_balance_before", "available_balance_after", "txn_reference"},
	Row: func(t payments.LedgerTransaction) []string {
		return []string{viewkit.ISO(t.CreatedDttm), t.Currency, t.Operation, viewkit.Money(t.Amount.Decimal(), t.Currency), t.Status, t.TxnSource,
			viewkit.Money(t.AvailableBalanceBefore.Decimal(), t.Currency), viewkit.Money(t.AvailableBalanceAfter.Decimal(), t.Currency), t.Reference()}
	},
}
