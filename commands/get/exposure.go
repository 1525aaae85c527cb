package get

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/platform"
	"treasury/figures"
	"treasury/figures/runway"
	"treasury/wire/payments"
	payclient "treasury/wire/payments/client"
)

// exposureRow is one currency of `treasury get exposure`: what the
// payments in flight commit by funding class (figures.BuildExposure: a
// column per class) and the runway of its prefunded balance at both paces
// (figures.RunwayOf), the figures of the overview as data. Amounts are
// strings at the currency's decimals (figures.MoneyData), hours to a
// tenth, times RFC 3339 to the second; an absent figure is null (JSON) or
// an empty cell.
type exposureRow struct {
	Currency string `json:"currency"`
	// The prefunded balance, as the payments interface answered it.
	Available *amount `json:"available"`
	Reserved  *amount `json:"reserved"`
	// What the payments in flight pay out in this currency.
	PaysOut      amount `json:"paysOut"`
	PaysOutCount int    `json:"paysOutCount"`
	// Prefunded: what the prefunded ones draw from its account, and in
	// hours at the pace that drives its runway (runwayBy).
	Prefunded      amount `json:"prefunded"`
	PrefundedCount int    `json:"prefundedCount"`
	PrefundedHours *hours `json:"prefundedHours"`
	// Just in time: owed while awaiting funds (those past their due time
	// among them), the next due time, what is due within the hour; and
	// what the ones whose funds arrived pay.
	Owed               amount `json:"owedJustInTime"`
	OwedCount          int    `json:"owedJustInTimeCount"`
	PastDue            amount `json:"pastDue"`
	PastDueCount       int    `json:"pastDueCount"`
	FirstDue           *stamp `json:"firstDue"`
	DueWithinHour      amount `json:"dueWithinHour"`
	DueWithinHourCount int    `json:"dueWithinHourCount"`
	FundedJIT          amount `json:"fundedJustInTime"`
	FundedJITCount     int    `json:"fundedJustInTimeCount"`
	// Credit: invoiced later.
	Credit      amount `json:"credit"`
	CreditCount int    `json:"creditCount"`
	// Other: the payins this build does not know, each by its name.
	Other otherPayins `json:"other"`
	// The runway: the weighted pace and the last 15 minutes' (burn), and
	// the one that drives it (runwayBy: "weighted" or "15m"), written as
	// the overview writes it (runway: "12.0 h", "> 30 d", "no outflow");
	// its hours and end only under 30 days (past that they are noise).
	WeightedOutflow *amount `json:"weightedOutflowPerHour"`
	WeightedHours   *hours  `json:"weightedRunwayHours"`
	Burn            *amount `json:"burnPerHour"`
	BurnHours       *hours  `json:"burnRunwayHours"`
	Runway          string  `json:"runway"`
	RunwayHours     *hours  `json:"runwayHours"`
	RunwayBy        string  `json:"runwayBy"`
	Empty           *stamp  `json:"emptyAt"`
	Level           string  `json:"level"`
}

// otherPayin is what the payments of a payin this build does not know pay
// from the currency.
type otherPayin struct {
	Payin  string `json:"payin"`
	Amount amount `json:"amount"`
	Count  int    `json:"count"`
}

// otherPayins are the payins of a currency this build does not know: a
// list in JSON, in a CSV cell as the dashboard's CSV writes them
// ("NEW_FUNDING 5.00 (1); X 3.00 (2)").
type otherPayins []otherPayin

func (o otherPayins) MarshalText() ([]byte, error) {
	parts := make([]string, len(o))
	for i, x := range o {
		parts[i] = x.Payin + " " + figures.MoneyData(x.Amount.Decimal, x.Amount.currency) + " (" + strconv.Itoa(x.Count) + ")"
	}
	return []byte(strings.Join(parts, "; ")), nil
}

func (o otherPayins) MarshalJSON() ([]byte, error) { return json.Marshal([]otherPayin(o)) }

// amount is an amount of a currency, written at its decimals, not grouped
// (figures.MoneyData): a JSON string, a CSV cell.
type amount struct {
	decimal.Decimal
	currency string
}

func (a amount) MarshalText() ([]byte, error) {
	return []byte(figures.MoneyData(a.Decimal, a.currency)), nil
}

func (a amount) MarshalJSON() ([]byte, error) {
	return json.Marshal(figures.MoneyData(a.Decimal, a.currency))
}

func (a *amount) UnmarshalJSON(b []byte) error { return a.Decimal.UnmarshalJSON(b) }

// hours is a number of hours, written to a tenth: "2.0".
type hours struct{ decimal.Decimal }

func (h hours) MarshalText() ([]byte, error) { return []byte(h.StringFixed(1)), nil }

func (h hours) MarshalJSON() ([]byte, error) { return json.Marshal(h.StringFixed(1)) }

func (h *hours) UnmarshalJSON(b []byte) error { return h.Decimal.UnmarshalJSON(b) }

// stamp is a time written as every data output writes one
// (figures.Stamp: RFC 3339, UTC, to the second).
type stamp struct{ time.Time }

func (s stamp) MarshalText() ([]byte, error) { return []byte(figures.Stamp(s.Time)), nil }

func (s stamp) MarshalJSON() ([]byte, error) { return json.Marshal(figures.Stamp(s.Time)) }

func (s *stamp) UnmarshalJSON(b []byte) error { return s.Time.UnmarshalJSON(b) }

// readExposure reads what the overview's exposure and runway are built
// from (the payments in flight, the prefunded balances, the ledger of the
// last day) and returns one row per currency, in the overview's order
// (the prefunded currencies as the balances list them, then the others).
func readExposure(ctx context.Context, p *platform.Platform, c *payclient.Client, a getArgs) (any, error) {
	ex, sheet, _, err := exposureOf(ctx, p, c, a.now())
	if err != nil {
		return nil, err
	}
	rows := make([]exposureRow, 0, len(ex.Lines))
	for _, l := range ex.Lines {
		rows = append(rows, rowOf(l, sheet))
	}
	return rows, nil
}

// exposureOf reads what the exposure is built from (the payments in
// flight, the prefunded balances, the ledger of the last day) and builds
// it as of now, with the runway sheet and the payments owed just in time
// (figures.Owing).
func exposureOf(ctx context.Context, p *platform.Platform, c *payclient.Client, now time.Time) (figures.Exposure, runway.Sheet, []*payments.Payment, error) {
	ps, err := c.AllFiltered(ctx, payments.Filter{PaymentStates: []payments.State{payments.AwaitingFunding, payments.Initiated,
		payments.Validating, payments.Transferring}})
	if err != nil {
		return figures.Exposure{}, runway.Sheet{}, nil, err
	}
	bal, err := c.Balances(ctx)
	if err != nil {
		return figures.Exposure{}, runway.Sheet{}, nil, err
	}
	ledger, err := c.Ledger(ctx, now.Add(-platform.LedgerWindow), now)
	if err != nil {
		return figures.Exposure{}, runway.Sheet{}, nil, err
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
	return figures.BuildExposure(seq, bal, sheet, now), sheet, figures.Owing(seq), nil
}

// rowOf is a line of the exposure as a row.
func rowOf(l figures.Line, sheet runway.Sheet) exposureRow {
	cur := l.Currency
	am := func(d decimal.Decimal) amount { return amount{d, cur} }
	r := exposureRow{Currency: cur, PaysOut: am(l.Out.Amount), PaysOutCount: l.Out.Count,
		Prefunded: am(l.Drawn.Amount), PrefundedCount: l.Drawn.Count,
		Owed: am(l.Owed.Amount), OwedCount: l.Owed.Count, PastDue: am(l.PastDue.Amount), PastDueCount: l.PastDue.Count,
		DueWithinHour: am(l.DueSoon.Amount), DueWithinHourCount: l.DueSoon.Count,
		FundedJIT: am(l.Funded.Amount), FundedJITCount: l.Funded.Count,
		Credit: am(l.Credit.Amount), CreditCount: l.Credit.Count, Other: otherPayins{}}
	for _, o := range l.Others {
		r.Other = append(r.Other, otherPayin{Payin: o.Name, Amount: am(o.Amount), Count: o.Count})
	}
	if l.HasBalance {
		r.Available, r.Reserved = ptr(am(l.Available)), ptr(am(l.Reserved))
	}
	if l.HasHours {
		r.PrefundedHours = &hours{l.Hours}
	}
	if !l.FirstDue.IsZero() {
		r.FirstDue = &stamp{l.FirstDue}
	}
	rc, ok := sheet.Find(cur)
	if !ok {
		return r
	}
	r.WeightedOutflow = ptr(am(rc.Outflow))
	if !rc.NoOutflow {
		r.WeightedHours = &hours{rc.Hours}
	}
	if rc.BurnKnown {
		r.Burn = ptr(am(rc.Burn))
		if rc.Burn.IsPositive() {
			r.BurnHours = &hours{rc.BurnHours}
		}
	}
	rw := l.Runway
	r.Runway, r.Level = rw.Text(), rw.Level.String()
	if rw.Runs {
		r.RunwayBy = rw.By
		if !rw.Long {
			r.RunwayHours, r.Empty = &hours{rw.Hours}, &stamp{rw.Empty}
		}
	}
	return r
}

func ptr[T any](v T) *T { return &v }

// exposureTitles are the short table's columns: the overview's figures, a
// column per funding class.
var exposureTitles = []string{"CURRENCY", "AVAILABLE", "PREFUNDED (N)", "H", "JIT OWED (N)", "PAST DUE (N)", "FIRST DUE (UTC)",
	"JIT FUNDED (N)", "CREDIT (N)", "OTHER (N)", "PAYS OUT (N)", "RUNWAY", "BY", "EMPTY (UTC)", "LEVEL"}

// short is the row as the short table shows it: amounts as the dashboard
// writes them (figures.Money), the runway as the overview writes it, ""
// for what the currency has not.
func (r exposureRow) short() []string {
	c := r.Currency
	amt := func(a *amount) string {
		if a == nil {
			return ""
		}
		return figures.Money(a.Decimal, c)
	}
	counted := func(a amount, n int) string {
		if n == 0 {
			return ""
		}
		return figures.Money(a.Decimal, c) + " (" + strconv.Itoa(n) + ")"
	}
	at := func(t *stamp) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04")
	}
	h := ""
	if r.PrefundedHours != nil {
		h = figures.Hours(r.PrefundedHours.Decimal)
		if r.RunwayBy == figures.ByBurn {
			h += " " + figures.ByBurn
		}
	}
	var other []string
	for _, o := range r.Other {
		other = append(other, o.Payin+" "+counted(o.Amount, o.Count))
	}
	return []string{c, amt(r.Available), counted(r.Prefunded, r.PrefundedCount), h, counted(r.Owed, r.OwedCount),
		counted(r.PastDue, r.PastDueCount), at(r.FirstDue), counted(r.FundedJIT, r.FundedJITCount), counted(r.Credit, r.CreditCount),
		strings.Join(other, "; "), counted(r.PaysOut, r.PaysOutCount), r.Runway, r.RunwayBy, at(r.Empty), r.Level}
}
