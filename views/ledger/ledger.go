// Package ledger is the ledger view: movements of the prefunded accounts
// over the last 24 hours, newest first; enter opens the payment a movement
// belongs to.
package ledger

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/data/columns"
	"treasury/data/live"
	"treasury/data/payments"
	"treasury/data/platform"
	"treasury/ui"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// View is the ledger view.
type View struct {
	viewkit.Stack
	ctx *ui.Context
}

// New builds the ledger view. Its rows are named by platform.LedgerID:
// the ledger gives movements no id.
func New(ctx *ui.Context) *View {
	v := &View{ctx: ctx}
	set := columns.Ledger()
	row := func(t payments.LedgerTransaction) table.Row {
		return viewkit.RowOf(set, platform.LedgerID(t), t, columns.At{})
	}
	v.Stack.Reset(viewkit.NewSharedTable(ctx, viewkit.TableSpec[payments.LedgerTransaction]{
		// A movement's short columns (package columns), as `treasury get
		// ledger` prints them.
		Columns: viewkit.Columns(set),
		Topics:  []live.Topic{live.Ledger},
		Live:    true,
		Enter:   open,
		Empty:   "no ledger transactions in the last 24 hours",
		What:    "ledger transactions",
		Export:  export,
	}, viewkit.Shared[payments.LedgerTransaction]{
		Source: viewkit.ListProjection(ctx.Store, live.LedgerKey, "rows", platform.LedgerID, row, viewkit.NewestFirst),
	}))
	return v
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
		return tea.Batch(ui.SetFilterOf(v.Stack.Top(), strings.Join(o.Args, " ")), v.Stack.Update(ui.StoreChanged{}))
	}
	return v.Stack.Update(msg)
}

// Commands offer ":ledger [filter]".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: "ledger", Args: "[currency or filter]", Help: "ledger transactions of the last 24 hours", View: v.Name()}}
}

// export is the ledger's CSV: a movement's fields as received, amounts
// and balances exact and apart from their currency, the time in ISO 8601
// UTC, "" for a movement of no payment.
var export = &viewkit.Export[payments.LedgerTransaction]{
	Header: []string{"created_at", "currency", "operation", "amount", "status", "txn_source",
		"available_balance_before", "available_balance_after", "txn_reference"},
	Row: func(t payments.LedgerTransaction) []string {
		return []string{viewkit.ISO(t.CreatedDttm), t.Currency, t.Operation, viewkit.Money(t.Amount.Decimal, t.Currency), t.Status, t.TxnSource,
			viewkit.Money(t.AvailableBalanceBefore.Decimal, t.Currency), viewkit.Money(t.AvailableBalanceAfter.Decimal, t.Currency), t.Reference()}
	},
}
