package balances

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"treasury/config"
	"treasury/desk/live"
	"treasury/figures"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// The funding plan (f, :funding [hours]): per prefunded currency, the
// top-up that carries it N hours at the pace that drives its runway, what
// stays available once the prefunded payments in flight are debited, and
// which payments owed just in time fall due before a top-up sent now would
// arrive (figures.PlanOf). N is the hours to the end of the business day
// in the profile's time zone (funding: time_zone, day_ends), or what +, -
// and :funding set.

// plan is the session's planner settings: the profile's, and the hours
// asked for (zero: to the end of the business day).
type plan struct {
	settings config.Funding
	hours    decimal.Decimal
}

// maxPlanHours bounds the hours a plan carries (a runway past it is "> 30
// d" anyway).
var maxPlanHours = decimal.NewFromInt(30 * 24)

// span is the hours the plan carries from at, when they end, and what
// sets them ("to 17:00 America/New_York, the end of the business day").
func (p plan) span(at time.Time) (decimal.Decimal, time.Time, string) {
	if p.hours.IsPositive() {
		until := at.Add(time.Duration(p.hours.Mul(decimal.NewFromInt(int64(time.Hour))).IntPart()))
		return p.hours, until, "as asked (" + figures.Hours(p.hours) + "; 0 back to the business day)"
	}
	h, end := figures.PlanHours(at, p.settings.Zone, p.settings.DayEnds)
	local := end.In(p.settings.Zone)
	return h, end, "to " + local.Format("Mon 15:04") + " " + p.settings.ZoneName() + ", the end of the business day"
}

// plans are the plans of the prefunded currencies as the exposure holds
// them now, and the words of their span; ok is false before the payments,
// the balances and the runway have answered.
func (v *View) plans() ([]figures.Plan, string, bool) {
	snap := live.Get(v.ctx.Store, v.exposure)
	e := snap.Data
	if !snap.Loaded() || !e.Payments || !e.Balances || e.At.IsZero() {
		return nil, "", false
	}
	h, _, why := v.plan.span(e.At)
	return figures.Plans(e.Exposure, e.Owing, h, v.plan.settings.TopUpLead), why, true
}

// setPlanHours sets the hours the plan carries: zero goes back to the end
// of the business day.
func (v *View) setPlanHours(h decimal.Decimal) string {
	switch {
	case h.IsNegative():
		h = decimal.Zero
	case h.GreaterThan(maxPlanHours):
		h = maxPlanHours
	}
	v.plan.hours = h.Round(1)
	v.funding.Reread()
	if v.plan.hours.IsZero() {
		return "funding plan: to the end of the business day"
	}
	return "funding plan: " + figures.Hours(v.plan.hours)
}

// stepPlanHours moves the plan's hours by an hour (from the business
// day's when none were asked).
func (v *View) stepPlanHours(by int64) string {
	h := v.plan.hours
	if h.IsZero() {
		if ps, _, ok := v.plans(); ok && len(ps) > 0 {
			h = ps[0].Hours
		}
	}
	return v.setPlanHours(decimal.Max(h.Add(decimal.NewFromInt(by)).Floor(), decimal.NewFromInt(1)))
}

// parsePlanHours reads ":funding 8", "8h", "8.5h" or "0".
func parsePlanHours(arg string) (decimal.Decimal, error) {
	a := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(arg)), "h")
	d, err := decimal.NewFromString(a)
	if err != nil || d.IsNegative() {
		return decimal.Zero, fmt.Errorf("%q is not a number of hours such as 8 or 8.5h (0: to the end of the business day)", arg)
	}
	if d.GreaterThan(maxPlanHours) {
		return decimal.Zero, fmt.Errorf("%s h is longer than 30 days", d)
	}
	return d, nil
}

// newFundingPage is the funding section: a row per prefunded currency.
func newFundingPage(v *View) *viewkit.TablePage[figures.Plan] {
	return viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[figures.Plan]{
		Crumb:      "funding plan",
		Columns:    fundingColumns(),
		Topics:     []live.Topic{v.exposure.Topic()},
		Above:      v.fundingAbove,
		AboveShare: 0.4,
		Empty:      "no prefunded balance to plan",
		What:       "the funding plan (payments, balances and runway)",
		Export:     v.fundingExport(),
	}, viewkit.Own[figures.Plan]{
		Read: func() ([]figures.Plan, live.Snapshot) {
			ps, _, _ := v.plans()
			return ps, live.Get(v.ctx.Store, v.exposure).Snapshot
		},
		Row: v.fundingRow,
	})
}

// fundingColumns are the plan's columns: the figures of `treasury get
// funding`.
func fundingColumns() []table.Column {
	return []table.Column{
		{Title: "Cur", Width: 5, Priority: 9},
		{Title: "Available", Max: 22, Align: table.Point, Priority: 8},
		{Title: "In flight", Max: 26, Align: table.Right, Priority: 3},
		{Title: "After in flight", Max: 22, Align: table.Point, Priority: 6},
		{Title: "Pace/h", Max: 22, Align: table.Point, Priority: 5},
		{Title: "Runway", Width: 7, Max: 12, Priority: 8},
		{Title: "Hours", Width: 6, Align: table.Right, Priority: 2},
		{Title: "Top-up", Max: 22, Align: table.Point, Priority: 9},
		{Title: "Owed before it", Max: 28, Align: table.Right, Priority: 7},
		{Title: "Send by (UTC)", Width: 16, Priority: 6},
	}
}

// fundingRow is a plan's row: amounts at their currency's decimals.
func (v *View) fundingRow(p figures.Plan) table.Row {
	c := p.Currency
	m := func(d decimal.Decimal) string { return figures.Money(d, c) }
	pace, runway := "—", p.Runway.Text()
	if p.Runway.Runs {
		pace = m(p.Runway.Pace)
		if p.Runway.By == figures.ByBurn {
			runway += " " + figures.ByBurn
		}
	}
	top := m(p.TopUp)
	if p.Covered {
		top = "none"
	}
	inFlight, owed, sendBy := "—", "—", "—"
	if p.InFlight.Count > 0 {
		inFlight = m(p.InFlight.Amount) + " (" + strconv.Itoa(p.InFlight.Count) + ")"
	}
	if p.Late.Count > 0 {
		owed = m(p.Late.Amount) + " (" + strconv.Itoa(p.Late.Count) + ")"
	}
	if !p.SendBy.IsZero() {
		sendBy = p.SendBy.UTC().Format("01-02 15:04")
		if !p.SendBy.After(p.At) {
			sendBy += " late"
		}
	}
	return table.Row{ID: c, Cells: []string{sanitize.Line(c), m(p.Available), inFlight, m(p.AfterInFlight), pace, runway,
		p.Hours.StringFixed(1), top, owed, sendBy},
		Keys: []table.Key{{}, table.Decimal(p.Available), table.Decimal(p.InFlight.Amount), table.Decimal(p.AfterInFlight),
			table.Decimal(p.Runway.Pace), table.Decimal(p.Runway.Hours), table.Decimal(p.Hours), table.Decimal(p.TopUp),
			table.Decimal(p.Late.Amount), table.Time(p.SendBy)}}
}

// fundingAbove says what the plan carries each currency to and why, how
// long a top-up takes, the keys, and the selected currency's plan in
// words.
func (v *View) fundingAbove(w, h int, sel *figures.Plan) string {
	t := v.ctx.Theme
	ps, why, ok := v.plans()
	if !ok {
		return t.Muted.Render("funding plan: reading the payments, the balances and the ledger…")
	}
	var lines []string
	head := "funding plan"
	if len(ps) > 0 {
		head += ": each currency carried " + figures.Hours(ps[0].Hours) + ", " + why + "; a top-up takes " +
			viewkit.Duration(v.plan.settings.TopUpLead) + " to arrive (funding.top_up_lead)"
	}
	lines = append(lines, wrap(t.Title.Render(head), w)...)
	lines = append(lines, t.Muted.Render(fitTo(v.ctx.Key("plan_longer").Help().Key+"/"+v.ctx.Key("plan_shorter").Help().Key+
		" an hour more/less · :funding <hours> · :funding 0 to the business day's end", w)))
	if sel != nil && h-len(lines) > 0 {
		words := sanitize.Line(sel.Currency) + ": " + sel.Words(func(at time.Time) string { return figures.EmptyAt(at, sel.At) + " UTC" })
		lines = append(lines, wrap(words, w)...)
	}
	if len(lines) > h {
		lines = lines[:max(h, 0)]
	}
	return strings.Join(lines, "\n")
}

// wrap wraps s to w cells, at spaces.
func wrap(s string, w int) []string { return strings.Split(ansi.Wrap(s, max(w, 10), " "), "\n") }

// fitTo cuts s to w cells, its start kept.
func fitTo(s string, w int) string { return ansi.Truncate(s, max(w, 1), "…") }

// planLine is the balances' one line of the plan: how many payments owed
// just in time fall due before a top-up sent now lands, and what each
// currency needs to last to the plan's end ("funding plan 5.5 h (f; 3
// owed JIT due before a top-up lands): USD top up 120,000.00 · EUR
// none").
func (v *View) planLine(w int) string {
	ps, _, ok := v.plans()
	if !ok || len(ps) == 0 {
		return ""
	}
	t := v.ctx.Theme
	parts := make([]string, 0, len(ps))
	late := 0
	for _, p := range ps {
		s := sanitize.Line(p.Currency) + " none"
		if !p.Covered {
			s = sanitize.Line(p.Currency) + " top up " + figures.Money(p.TopUp, p.Currency)
		}
		parts = append(parts, s)
		late += p.Late.Count
	}
	line := "funding plan " + figures.Hours(ps[0].Hours) + " (" + v.keys.Funding.Help().Key
	if late > 0 {
		line += "; " + strconv.Itoa(late) + " owed JIT due before a top-up lands"
	}
	return t.Muted.Render(fitTo(line+"): "+strings.Join(parts, " · "), w))
}

// fundingExport is the plan's CSV: `treasury get funding -o csv`'s
// columns.
func (v *View) fundingExport() *viewkit.Export[figures.Plan] {
	var header []string
	for _, c := range (figures.Plan{}).Data() {
		header = append(header, c.Name)
	}
	return &viewkit.Export[figures.Plan]{
		Header: header,
		Row: func(p figures.Plan) []string {
			cells := p.Data()
			out := make([]string, len(cells))
			for i, c := range cells {
				out[i] = c.Value
			}
			return out
		},
	}
}
