package get

import (
	"context"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"treasury/data/exposure"
	"treasury/data/money"
	"treasury/data/payments"
	payclient "treasury/data/payments/client"
	"treasury/data/platform"
	"treasury/data/runway"
)

// exposureRow is one currency of `treasury get exposure`: what the
// payments in flight commit by funding (data/exposure) and the runway of
// its prefunded balance at both paces (data/runway), the figures of the
// overview as data. Amounts are exact decimals (strings in JSON), times
// ISO 8601 UTC; an empty cell is a figure the currency has not.
type exposureRow struct {
	Currency string `json:"currency"`
	// The prefunded balance, as the payments interface answered it.
	Available *decimal.Decimal `json:"available"`
	Reserved  *decimal.Decimal `json:"reserved"`
	// What the payments in flight pay out in this currency.
	PaysOut      decimal.Decimal `json:"paysOut"`
	PaysOutCount int             `json:"paysOutCount"`
	// What the prefunded ones draw from its account, and in hours of the
	// weighted outflow.
	Drawn          decimal.Decimal  `json:"drawnFromPrefunded"`
	DrawnCount     int              `json:"drawnFromPrefundedCount"`
	DrawnHours     *decimal.Decimal `json:"drawnHoursOfOutflow"`
	Owed           decimal.Decimal  `json:"owedJustInTime"`
	OwedCount      int              `json:"owedJustInTimeCount"`
	FirstDue       *time.Time       `json:"firstDue"`
	DueWithinHour  decimal.Decimal  `json:"dueWithinHour"`
	DueWithinCount int              `json:"dueWithinHourCount"`
	Otherwise      decimal.Decimal  `json:"fundedOtherwise"`
	OtherwiseCount int              `json:"fundedOtherwiseCount"`
	OtherwisePayin string           `json:"fundedOtherwisePayin"`
	// The runway: the weighted pace and the last 15 minutes' (burn), and
	// the shorter of the two (by: "weighted" or "15m"), its end and level.
	WeightedOutflow *decimal.Decimal `json:"weightedOutflowPerHour"`
	WeightedHours   *decimal.Decimal `json:"weightedRunwayHours"`
	Burn            *decimal.Decimal `json:"burnPerHour"`
	BurnHours       *decimal.Decimal `json:"burnRunwayHours"`
	RunwayHours     *decimal.Decimal `json:"runwayHours"`
	RunwayBy        string           `json:"runwayBy"`
	Empty           *time.Time       `json:"emptyAt"`
	Level           string           `json:"level"`
}

// readExposure reads what the overview's exposure and runway are built
// from (the payments in flight, the prefunded balances, the ledger of the
// last day) and returns one row per currency.
func readExposure(ctx context.Context, p *platform.Platform, c *payclient.Client, a getArgs) (any, error) {
	now := a.now()
	ps, err := c.AllFiltered(ctx, payments.Filter{PaymentStates: []payments.State{payments.AwaitingFunding, payments.Initiated,
		payments.Validating, payments.Transferring}})
	if err != nil {
		return nil, err
	}
	bal, err := c.Balances(ctx)
	if err != nil {
		return nil, err
	}
	ledger, err := c.Ledger(ctx, now.Add(-platform.LedgerWindow), now)
	if err != nil {
		return nil, err
	}
	al := p.Alerts()
	sheet := runway.Compute(bal, ledger, runway.Options{At: now, From: now.Add(-platform.LedgerWindow), Window: al.RunwayWindow.Value,
		Limits: func(cur string) runway.Limits {
			t := al.Prefunded.For(cur)
			return runway.Limits{Warning: t.RunwayWarning.Value, Critical: t.RunwayCritical.Value}
		}})
	seq := func(yield func(*payments.Payment) bool) {
		for i := range ps {
			if !yield(&ps[i]) {
				return
			}
		}
	}
	ex := exposure.Build(seq, bal, sheet, now)
	rows := make([]exposureRow, 0, len(ex.Lines))
	for _, l := range ex.Lines {
		r := exposureRow{Currency: l.Currency, PaysOut: l.Out, PaysOutCount: l.OutCount, Drawn: l.Drawn, DrawnCount: l.DrawnCount,
			Owed: l.Owed, OwedCount: l.OwedCount, DueWithinHour: l.DueSoon, DueWithinCount: l.DueSoonCount,
			Otherwise: l.Funded, OtherwiseCount: l.FundedCount}
		for i, pi := range l.Payins {
			if i > 0 {
				r.OtherwisePayin += " "
			}
			r.OtherwisePayin += pi
		}
		if l.HasBalance {
			r.Available, r.Reserved = ptr(l.Available), ptr(l.Reserved)
		}
		if l.HasHours {
			r.DrawnHours = ptr(l.Hours)
		}
		if !l.FirstDue.IsZero() {
			r.FirstDue = ptr(l.FirstDue.UTC())
		}
		if rc, ok := sheet.Find(l.Currency); ok {
			r.WeightedOutflow = ptr(rc.Outflow)
			if !rc.NoOutflow {
				r.WeightedHours = ptr(rc.Hours)
			}
			if rc.BurnKnown {
				r.Burn = ptr(rc.Burn)
				if rc.Burn.IsPositive() {
					r.BurnHours = ptr(rc.BurnHours)
				}
			}
			if h, empty, burst, ok := rc.Runway(); ok {
				r.RunwayHours, r.RunwayBy, r.Empty = ptr(h), "weighted", ptr(empty.UTC())
				if burst {
					r.RunwayBy = "15m"
				}
			}
			r.Level = rc.Level.String()
		}
		rows = append(rows, r)
	}
	// The prefunded currencies first, in the balances' order, then the
	// others by code: the overview's order.
	return rows, nil
}

func ptr[T any](v T) *T { return &v }

// exposureTitles are the short table's columns: the overview's figures.
var exposureTitles = []string{"CURRENCY", "AVAILABLE", "DRAWN (N)", "H OF OUTFLOW", "OWED JIT (N)", "FIRST DUE", "PAYS OUT (N)",
	"RUNWAY", "BY", "EMPTY (UTC)", "LEVEL"}

// short is the row as the short table shows it: amounts as the dashboard
// writes them (grouped, at least the currency's decimals), "" for what
// the currency has not.
func (r exposureRow) short() []string {
	c := r.Currency
	amt := func(d *decimal.Decimal) string {
		if d == nil {
			return ""
		}
		return money.Format(*d, c)
	}
	counted := func(d decimal.Decimal, n int) string {
		if n == 0 {
			return ""
		}
		return money.Format(d, c) + " (" + strconv.Itoa(n) + ")"
	}
	at := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04")
	}
	hours := func(d *decimal.Decimal) string {
		if d == nil {
			return ""
		}
		return d.StringFixed(1)
	}
	return []string{c, amt(r.Available), counted(r.Drawn, r.DrawnCount), hours(r.DrawnHours), counted(r.Owed, r.OwedCount), at(r.FirstDue),
		counted(r.PaysOut, r.PaysOutCount), hours(r.RunwayHours), r.RunwayBy, at(r.Empty), r.Level}
}
