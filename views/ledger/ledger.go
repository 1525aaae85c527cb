// Package ledger is the ledger view: movements of the prefunded accounts
// over the last 24 hours, newest first; enter opens the payment a movement
// belongs to.
package ledger

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/data/live"
	"treasury/data/money"
	"treasury/data/payments"
	"treasury/data/platform"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// View is the ledger view.
type View struct {
	viewkit.Stack
	ctx *ui.Context
}

// New builds the ledger view.
func New(ctx *ui.Context) *View {
	v := &View{ctx: ctx}
	v.Stack.Reset(viewkit.NewTablePage(ctx, viewkit.TableSpec[payments.LedgerTransaction]{
		Columns: []table.Column{
			// Sized to what the ledger holds, up to the widest values the
			// document defines (OVERRIDE_PREFUND_BALANCE, POSTED_PAYMENT,
			// a 5-letter currency); amounts at their currency's decimals,
			// whole, points in line. At 80 columns the status and the
			// source (nearly always SUCCESS and PAYMENTS) give way first.
			{Title: "Created (UTC)", Width: 14, Priority: 9}, {Title: "Cur", Max: payments.CurrencyWidth, Priority: 8},
			{Title: "Operation", Max: payments.OperationWidth, Priority: 7},
			{Title: "Amount", Max: 24, Align: table.Point, Priority: 9},
			{Title: "Status", Width: 7, Max: 12, Priority: 1},
			{Title: "Source", Width: 8, Max: payments.TxnSourceWidth, Priority: 2},
			{Title: "Before", Max: 24, Align: table.Point, Priority: 5},
			{Title: "After", Max: 24, Align: table.Point, Priority: 6},
			{Title: "Payment", Width: 9, Max: 36, Flex: 1, Priority: 4},
		},
		Topics: []live.Topic{live.Ledger},
		Live:   true,
		Source: viewkit.ListProjection(ctx.Store, live.LedgerKey, "rows", platform.LedgerID, row, viewkit.NewestFirst),
		Enter:  open,
		Empty:  "no ledger transactions in the last 24 hours",
		What:   "ledger transactions",
	}))
	return v
}

// row is a movement's row, named by platform.LedgerID: the ledger gives
// movements no id.
func row(t payments.LedgerTransaction) table.Row {
	return table.Row{ID: platform.LedgerID(t), Cells: []string{
		viewkit.TimeAs(t.CreatedDttm, "01-02 15:04:05"), sanitize.Line(t.Currency), sanitize.Line(t.Operation),
		money.Text(t.Amount.Decimal, t.Currency), sanitize.Line(t.Status), sanitize.Line(t.TxnSource),
		money.Text(t.AvailableBalanceBefore.Decimal, t.Currency), money.Text(t.AvailableBalanceAfter.Decimal, t.Currency),
		sanitize.Line(t.Reference()),
	}, Keys: []table.Key{table.Time(t.CreatedDttm), {}, {}, table.Decimal(t.Amount.Decimal), {}, {},
		table.Decimal(t.AvailableBalanceBefore.Decimal), table.Decimal(t.AvailableBalanceAfter.Decimal)}}
}

func open(t payments.LedgerTransaction) tea.Cmd {
	if t.Reference() == "" {
		return ui.FlashCmd("this movement belongs to no payment")
	}
	return ui.OpenCmd("payments", t.Reference())
}

// Name is the palette name.
func (v *View) Name() string { return "ledger" }

// Title is the tab label.
func (v *View) Title() string { return "Ledger" }

// Init does nothing.
func (v *View) Init() tea.Cmd { return nil }

// Update filters the table on ":ledger <text>" (a currency: an alert's
// runway opens the ledger of its currency) and delegates the rest.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	if o, ok := msg.(ui.Open); ok && len(o.Args) > 0 {
		return tea.Batch(v.Stack.SetFilter(strings.Join(o.Args, " ")), v.Stack.Update(ui.StoreChanged{}))
	}
	return v.Stack.Update(msg)
}

// Commands offer ":ledger [filter]".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: "ledger", Args: "[currency or filter]", Help: "ledger transactions of the last 24 hours", View: v.Name()}}
}
