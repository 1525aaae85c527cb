// Package identities is the identities view: the originators and
// beneficiaries the payments interface knows, and, on enter, the financial
// instruments (accounts) of one, read on demand.
package identities

import (
	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/payments"
)

// View is the identities view.
type View struct {
	viewkit.Stack
	ctx *ui.Context
	p   *platform.Platform
}

// New builds the identities view on p, whose payments interface lists the
// identities and reads their instruments.
func New(ctx *ui.Context, p *platform.Platform) *View {
	v := &View{ctx: ctx, p: p}
	v.Stack.Reset(viewkit.NewSharedTable(ctx, viewkit.TableSpec[payments.Identity]{
		Columns: []table.Column{
			{Title: "Nickname", Width: 16, Flex: 2}, {Title: "Type", Width: 10}, {Title: "Role", Width: 11},
			{Title: "State", Width: payments.IdentityStateWidth}, {Title: "Internal id", Width: 12, Flex: 1}, {Title: "Created (UTC)", Width: 19},
			{Title: "Identity id", Width: 12, Flex: 2},
		},
		Topics: []live.Topic{live.Identities},
		Enter:  v.open,
		Empty:  "no identities",
		What:   "identities",
		Export: &viewkit.Export[payments.Identity]{
			Header: []string{"identity_id", "nickname", "identity_type", "payment_role", "identity_state", "internal_id", "created_at"},
			Row: func(i payments.Identity) []string {
				return []string{i.IdentityID, i.NickName, i.IdentityType, i.PaymentRole, i.IdentityState, i.InternalID, viewkit.ISO(i.CreatedAt)}
			},
		},
	}, viewkit.Shared[payments.Identity]{
		Source: viewkit.ListProjection(ctx.Store, live.IdentitiesKey, "rows", func(i payments.Identity) string { return i.IdentityID },
			func(i payments.Identity) table.Row {
				return table.Row{ID: i.IdentityID, Cells: []string{sanitize.Line(i.NickName), sanitize.Line(i.IdentityType),
					sanitize.Line(i.PaymentRole), sanitize.Line(i.IdentityState), sanitize.Line(i.InternalID),
					viewkit.Time(i.CreatedAt), sanitize.Line(i.IdentityID)},
					Keys: []table.Key{{}, {}, {}, {}, {}, table.Time(i.CreatedAt)}}
			}, nil),
	}))
	return v
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Identities }

// Title is the tab label.
func (v *View) Title() string { return "Identities" }

// Init does nothing.
func (v *View) Init() tea.Cmd { return nil }

func (v *View) open(id payments.Identity) tea.Cmd {
	if v.p == nil || v.p.Payments == nil {
		return ui.FlashCmd("the payments interface is not configured")
	}
	spec := viewkit.TableSpec[payments.FinancialInstrument]{
		Crumb: sanitize.Line(id.NickName),
		What:  "the financial instruments of " + id.NickName,
		Columns: []table.Column{
			{Title: "Label", Width: 16, Flex: 2}, {Title: "Type", Width: payments.InstrumentTypeWidth}, {Title: "Currency", Width: 8},
			{Title: "Country", Width: 7}, {Title: "Created (UTC)", Width: 19}, {Title: "Instrument id", Width: 12, Flex: 2},
		},
		Empty: "no financial instruments",
		Export: &viewkit.Export[payments.FinancialInstrument]{
			Header: []string{"financial_instrument_id", "identity_id", "label", "financial_instrument_type", "currency", "country", "created_at"},
			Row: func(f payments.FinancialInstrument) []string {
				return []string{f.FinancialInstrumentID, id.IdentityID, f.Label, f.FinancialInstrumentType, f.Currency, f.Country, viewkit.ISO(f.CreatedAt)}
			},
		},
	}
	row := func(f payments.FinancialInstrument) table.Row {
		return table.Row{ID: f.FinancialInstrumentID, Cells: []string{sanitize.Line(f.Label), sanitize.Line(f.FinancialInstrumentType),
			sanitize.Line(f.Currency), sanitize.Line(f.Country), viewkit.Time(f.CreatedAt), sanitize.Line(f.FinancialInstrumentID)},
			Keys: []table.Key{{}, {}, {}, {}, table.Time(f.CreatedAt)}}
	}
	own, load := viewkit.ReadInto(v.ctx, &spec, live.Ask(v.ctx.Store, v.p.Reads.Instruments, id.IdentityID), row)
	return tea.Batch(v.Stack.Push(viewkit.NewOwnTable(v.ctx, spec, own)), load)
}

// Commands offer ":identities".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: string(v.Name()), Help: "identities and their financial instruments", View: v.Name(),
		Run: func([]string) tea.Cmd { return nil }}}
}
