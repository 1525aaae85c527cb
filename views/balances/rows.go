package balances

import (
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/live"
	"treasury/ui/chart"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/liquidity"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// Sources of a balance row.
const (
	srcLiquidity = "liquidity"
	srcPayments  = "payments"
)

// Row is one balance of the table: a liquidity asset or a payments
// prefunded currency. Exactly one of Liquidity and Payments is set; it is
// the record as received (the raw pager shows the row).
type Row struct {
	Source    string             `json:"source"`
	Liquidity *liquidity.Balance `json:"liquidity,omitempty"`
	Payments  *payments.Balance  `json:"payments,omitempty"`
	// UpdatedAt is the liquidity balance's updatedAt or the payments
	// balances' timestamp.
	UpdatedAt time.Time `json:"updatedAt"`
	// Alert is the open LOW_BALANCE alert of the row's currency, if any.
	Alert *live.Alert `json:"alert,omitempty"`
}

// ID is unique per row: source, currency and, for payments, funding type.
func (r Row) ID() string {
	if r.Payments != nil {
		return srcPayments + ":" + r.Payments.Currency + ":" + r.Payments.FundingType
	}
	return srcLiquidity + ":" + r.Liquidity.Asset
}

// Currency is the asset or currency.
func (r Row) Currency() string {
	if r.Payments != nil {
		return r.Payments.Currency
	}
	return r.Liquidity.Asset
}

// Series is the name of the row's available-balance history.
func (r Row) Series() string {
	if r.Payments != nil {
		return live.SeriesPaymentsBalance + r.Payments.Currency
	}
	return live.SeriesLiquidityBalance + r.Liquidity.Asset
}

// Interface is the interface the row's balance is read from, whose clock
// its history's times are on.
func (r Row) Interface() apierr.Interface {
	if r.Payments != nil {
		return apierr.Payments
	}
	return apierr.Liquidity
}

// Available and Reserved as received.
func (r Row) Available() decimal.Decimal {
	if r.Payments != nil {
		return r.Payments.AvailableBalance.Decimal()
	}
	return r.Liquidity.Available
}

// Reserved as received.
func (r Row) Reserved() decimal.Decimal {
	if r.Payments != nil {
		return r.Payments.ReservedBalance.Decimal()
	}
	return r.Liquidity.Reserved
}

// Total is the liquidity total as received; payments balances have none.
func (r Row) Total() (decimal.Decimal, bool) {
	if r.Liquidity != nil {
		return r.Liquidity.Total, true
	}
	return decimal.Decimal{}, false
}

// lowAlerts indexes the open LOW_BALANCE alerts by topic and currency.
func lowAlerts(all []live.Alert) map[string]live.Alert {
	out := map[string]live.Alert{}
	for _, a := range all {
		if a.Code == "LOW_BALANCE" {
			out[string(a.Topic)+"|"+a.Ref] = a
		}
	}
	return out
}

// readRows reads both balance topics and the alerts into rows: liquidity
// first, then payments, each in the order received. The snapshot is their
// union: the older fetch, the first error, the newest change, and the
// topic that has no data (loading or failed) named as missing.
func readRows(st *live.Store) ([]Row, live.Snapshot) {
	lsnap, psnap := live.Get(st, live.LiquidityBalancesKey), live.Get(st, live.PaymentBalancesKey)
	alerts := lowAlerts(st.Alerts())
	mark := func(r *Row, t live.Topic) {
		if a, ok := alerts[string(t)+"|"+r.Currency()]; ok {
			r.Alert = &a
		}
	}
	var rows []Row
	lb := lsnap.Data
	for i := range lb {
		r := Row{Source: srcLiquidity, Liquidity: &lb[i], UpdatedAt: lb[i].UpdatedAt}
		mark(&r, live.LiquidityBalances)
		rows = append(rows, r)
	}
	pb := psnap.Data
	for i := range pb.Balances {
		r := Row{Source: srcPayments, Payments: &pb.Balances[i], UpdatedAt: pb.Timestamp}
		mark(&r, live.PaymentBalances)
		rows = append(rows, r)
	}
	return rows, viewkit.Union(st, "balances", viewkit.Source{Topic: live.LiquidityBalances, Name: "liquidity balances"},
		viewkit.Source{Topic: live.PaymentBalances, Name: "payments balances"})
}

// sparkWidth is the width of the history column: narrow, so that the
// amounts before which it stands still fit whole in 80 columns.
const sparkWidth = 10

// tableRow draws a balance row with the sparkline of its history.
func (v *View) tableRow(r Row) table.Row {
	cur := r.Currency()
	total, funding, alert := "—", "—", ""
	if t, ok := r.Total(); ok {
		total = money.Format(t, cur)
	}
	if r.Payments != nil {
		funding = viewkit.Dash(sanitize.Line(r.Payments.FundingType))
	}
	if r.Alert != nil {
		alert = "LOW"
	}
	spark := chart.Sparkline(chart.Resample(v.ctx.Store.History(r.Series()), sparkWidth), sparkWidth, v.ctx.Theme.Cell)
	t, _ := r.Total()
	return table.Row{ID: r.ID(), Cells: []string{
		r.Source, sanitize.Line(cur), alert, spark, money.Format(r.Available(), cur), money.Format(r.Reserved(), cur), total,
		funding, viewkit.Time(r.UpdatedAt),
	}, Keys: []table.Key{{}, {}, {}, {}, table.Decimal(r.Available()), table.Decimal(r.Reserved()), table.Decimal(t),
		{}, table.Time(r.UpdatedAt)}}
}

// balanceColumns are the balances table's columns.
func balanceColumns() []table.Column {
	return []table.Column{
		{Title: "Source", Width: 9, Priority: 8}, {Title: "Asset", Width: 5, Flex: 1, Priority: 9}, {Title: "Low", Width: 3, Priority: 7},
		{Title: "History", Width: sparkWidth, NoSort: true, Priority: 2},
		// Amounts at their currency's decimals, whole, points in line.
		{Title: "Available", Max: 24, Align: table.Point, Priority: 9},
		{Title: "Reserved", Max: 24, Align: table.Point, Priority: 5},
		{Title: "Total", Max: 24, Align: table.Point, Priority: 4},
		{Title: "Funding", Width: 8, Flex: 1, Priority: 3},
		{Title: "Updated (UTC)", Width: 19, Priority: 1},
	}
}

// balancesExport is the balances' CSV: one meaning per column, amounts at
// their currency's decimals, "" where a kind of balance has no such
// figure.
var balancesExport = &viewkit.Export[Row]{
	Header: []string{"source", "currency", "funding_type", "available", "reserved", "total", "updated_at", "low_balance_alert"},
	Row: func(r Row) []string {
		funding, total := "", ""
		if r.Payments != nil {
			funding = r.Payments.FundingType
		}
		if t, ok := r.Total(); ok {
			total = viewkit.Money(t, r.Currency())
		}
		alert := ""
		if r.Alert != nil {
			alert = r.Alert.Severity.String()
		}
		return []string{r.Source, r.Currency(), funding, viewkit.Money(r.Available(), r.Currency()), viewkit.Money(r.Reserved(), r.Currency()), total,
			viewkit.ISO(r.UpdatedAt), alert}
	},
}
