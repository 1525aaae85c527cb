package balances

import (
	tea "charm.land/bubbletea/v2"

	"strings"

	"treasury/desk/live"
	"treasury/ui/chart"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
)

// detailChartHeight is the height of the detail's history chart.
const detailChartHeight = 12

// openDetail drills into a balance row.
func (v *View) openDetail(r Row) tea.Cmd { return v.Stack.Push(v.newDetail(r.ID())) }

// newDetail shows one balance: its fields as received, its alert with the
// guidance, and its history chart.
func (v *View) newDetail(id string) *viewkit.DetailPage[Row] {
	ch := chart.NewLine(chartStyles(v.ctx, 1))
	return viewkit.NewDetailPage(v.ctx, viewkit.DetailSpec[Row]{
		Crumb:  sanitize.Line(strings.ReplaceAll(id, ":", " ")),
		Topics: []live.Topic{live.LiquidityBalances, live.PaymentBalances},
		Get: func() (Row, bool, live.Snapshot) {
			rows, snap := readRows(v.ctx.Store)
			for _, r := range rows {
				if r.ID() == id {
					return r, true, snap
				}
			}
			return Row{}, false, snap
		},
		ID: func(r Row) string { return r.ID() },
		Body: func(r Row, w int) string {
			var b strings.Builder
			b.WriteString(viewkit.KV(v.ctx.Theme, w, balanceFields(r)...))
			if r.Alert != nil {
				b.WriteString("\n" + v.ctx.Theme.Bad.Render("LOW_BALANCE  "+sanitize.Line(r.Alert.Title)) + "\n")
				b.WriteString(v.ctx.Theme.Muted.Render(sanitize.Line(r.Alert.Guidance)) + "\n")
			}
			span, drawn := v.drawChart(ch, "detail", r, w, detailChartHeight)
			b.WriteString("\n" + v.seriesTitle(r, span, w) + "\n" + drawn)
			return b.String()
		},
		Fields: balanceFields,
	})
}

func balanceFields(r Row) [][2]string {
	out := [][2]string{{"Source", r.Source}, {"Asset", r.Currency()}}
	if r.Payments != nil {
		out = append(out, [2]string{"Funding type", r.Payments.FundingType})
	}
	out = append(out,
		[2]string{"Available", viewkit.Amount(r.Available(), r.Currency())},
		[2]string{"Reserved", viewkit.Amount(r.Reserved(), r.Currency())})
	if t, ok := r.Total(); ok {
		out = append(out, [2]string{"Total", viewkit.Amount(t, r.Currency())})
	}
	out = append(out, [2]string{"Updated (UTC)", viewkit.Time(r.UpdatedAt)})
	if r.Alert != nil {
		out = append(out, [2]string{"Alert since", viewkit.Time(r.Alert.Since)})
	}
	return out
}
