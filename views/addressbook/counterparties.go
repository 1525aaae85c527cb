package addressbook

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/wallet"
)

func (v *View) newCounterpartiesPage() *viewkit.TablePage[wallet.Counterparty] {
	return viewkit.NewSharedTable(v.ctx, viewkit.TableSpec[wallet.Counterparty]{
		Crumb: "counterparties",
		Columns: []table.Column{
			{Title: "Name", Width: 16, Flex: 2}, {Title: "Description", Width: 12, Flex: 3},
			{Title: "Created (UTC)", Width: 19}, {Title: "Counterparty id", Width: 12, Flex: 1},
		},
		Topics: []live.Topic{live.Counterparties},
		Enter:  v.pushAddresses,
		Empty:  "no wallet counterparties",
		What:   "wallet counterparties",
		Export: &viewkit.Export[wallet.Counterparty]{
			Header: []string{"counterparty_id", "name", "description", "created_at"},
			Row: func(c wallet.Counterparty) []string {
				return []string{c.ID, c.Name, c.Description, viewkit.ISO(c.CreatedAt)}
			},
		},
	}, viewkit.Shared[wallet.Counterparty]{
		Source: viewkit.ListProjection(v.ctx.Store, live.CounterpartiesKey, "rows", func(c wallet.Counterparty) string { return c.ID },
			func(c wallet.Counterparty) table.Row {
				return table.Row{ID: c.ID, Cells: []string{sanitize.Line(c.Name), sanitize.Line(viewkit.Dash(c.Description)),
					viewkit.Time(c.CreatedAt), sanitize.Line(c.ID)},
					Keys: []table.Key{{}, {}, table.Time(c.CreatedAt)}}
			}, nil),
	})
}

// pushAddresses opens the addresses of a counterparty, loaded by a call.
func (v *View) pushAddresses(c wallet.Counterparty) tea.Cmd {
	if v.p == nil || v.p.Wallet == nil {
		return ui.ErrorCmd(errors.New("the wallet interface is not configured in this profile"))
	}
	crumb := ansi.Truncate(sanitize.Line(c.Name), 28, "…")
	spec := viewkit.TableSpec[wallet.Address]{
		Crumb: crumb,
		What:  "the addresses of " + c.Name,
		Columns: []table.Column{
			{Title: "Label", Width: 10, Flex: 1}, {Title: "Address", Width: 20, Flex: 3},
			{Title: "Blockchains", Width: 12, Flex: 1}, {Title: "Created (UTC)", Width: 19},
			{Title: "Address id", Width: 10, Flex: 1},
		},
		Empty: "no addresses for " + sanitize.Line(c.Name),
		// The chains an address is used on, "; " between two: one
		// column, of one meaning (a list of chains).
		Export: &viewkit.Export[wallet.Address]{
			Header: []string{"address_id", "counterparty_id", "label", "address", "blockchains", "created_at"},
			Row: func(a wallet.Address) []string {
				return []string{a.ID, a.CounterpartyID, a.Label, a.Address, strings.Join(a.Blockchains, "; "), viewkit.ISO(a.CreatedAt)}
			},
		},
	}
	row := func(a wallet.Address) table.Row {
		return table.Row{ID: a.ID, Cells: []string{sanitize.Line(viewkit.Dash(a.Label)), sanitize.Line(a.Address),
			sanitize.Line(viewkit.Dash(strings.Join(a.Blockchains, ", "))), viewkit.Time(a.CreatedAt), sanitize.Line(a.ID)},
			Keys: []table.Key{{}, {}, {}, table.Time(a.CreatedAt)}}
	}
	own, load := viewkit.ReadInto(v.ctx, &spec, live.Ask(v.ctx.Store, v.p.Reads.Addresses, c.ID), row)
	return tea.Batch(v.Stack.Push(viewkit.NewOwnTable(v.ctx, spec, own)), load)
}
