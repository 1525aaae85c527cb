package figures

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"treasury/figures/runway"
	"treasury/wire/money"
)

// How a runway is paced: the weighted pace, or the last 15 minutes'
// (runway.BurnSpan) when that one is the shorter and so drives it.
const (
	ByWeighted = "weighted"
	ByBurn     = "15m"
)

// LongRunway is the text of a runway past runway.Long, on every surface.
const LongRunway = "> 30 d"

// Runway is how one currency's runway reads on every surface (the
// overview, the exposure's hours, `treasury get exposure`, the alerts):
// the runway at the pace that drives it (the shorter of the two), that
// pace, and when the balance runs out at it.
type Runway struct {
	Currency string
	// Runs says some pace takes money out; without it there is no runway.
	Runs bool
	// Hours is the runway at the pace that drives it, to a tenth; By
	// names that pace (ByWeighted or ByBurn), Pace is its outflow per
	// hour, Empty when the balance runs out at it.
	Hours decimal.Decimal
	By    string
	Pace  decimal.Decimal
	Empty time.Time
	// Long says the runway is past runway.Long: its hours and end are
	// noise, and every surface says LongRunway instead.
	Long bool
	// Level is where the runway stands against its limits; Trend how the
	// weighted pace moved over the last hour.
	Level runway.Level
	Trend runway.Trend
}

// RunwayOf is how c's runway reads.
func RunwayOf(c runway.Currency) Runway {
	r := Runway{Currency: c.Currency, Level: c.Level, Trend: c.Trend, Pace: c.Outflow, By: ByWeighted}
	h, empty, burst, ok := c.Runway()
	if !ok {
		return r
	}
	r.Runs, r.Hours, r.Empty, r.Long = true, h, empty, c.LongRunway()
	if burst {
		r.By, r.Pace = ByBurn, c.Burn
	}
	return r
}

// Text is the runway as every surface writes it: "0.3 h", "> 30 d", or
// "no outflow"; the pace that drives it is By.
func (r Runway) Text() string {
	switch {
	case !r.Runs:
		return "no outflow"
	case r.Long:
		return LongRunway
	}
	return Hours(r.Hours)
}

// HoursOf is amount at the pace that drives the runway, in hours to a
// tenth: the share of the runway the amount takes; ok is false without an
// outflow.
func (r Runway) HoursOf(amount decimal.Decimal) (decimal.Decimal, bool) {
	if !r.Runs || !r.Pace.IsPositive() {
		return decimal.Zero, false
	}
	return amount.Div(r.Pace).Round(1), true
}

// Hours is a number of hours to a tenth, "> 30 d" past runway.Long:
// "0.3 h", "12.0 h".
func Hours(h decimal.Decimal) string {
	if h.GreaterThan(decimal.NewFromInt(int64(runway.Long / time.Hour))) {
		return LongRunway
	}
	return h.StringFixed(1) + " h"
}

// EmptyAt says when (UTC) a balance runs out, seen from at: "10:40"
// within 20 hours (no time of day is then ambiguous), "Tue 10:40" within
// six days, else the date.
func EmptyAt(empty, at time.Time) string {
	e := empty.UTC().Round(time.Minute)
	switch d := empty.Sub(at); {
	case d < 20*time.Hour:
		return e.Format("15:04")
	case d < 6*24*time.Hour:
		return e.Format("Mon 15:04")
	}
	return e.Format("2006-01-02")
}

// RunwayWords says a currency's runway in words, the pace that drives it
// first: "0.1 h at the last 15 min's pace (454,991.52 USD/h), empty ≈
// 12:02 UTC; 31.2 h at the 6 h weighted pace (574.66 USD/h)".
func RunwayWords(c runway.Currency, s runway.Sheet) string {
	weighted := func() string {
		if c.NoOutflow {
			return "no outflow at the " + SpanWords(s.Window) + " weighted pace"
		}
		return fmt.Sprintf("%s at the %s weighted pace (%s %s/h%s)", Hours(c.Hours), SpanWords(s.Window),
			money.Grouped(c.Outflow.StringFixed(2)), c.Currency, trendWords(c))
	}
	burn := func() string {
		if !c.Burn.IsPositive() {
			return "no outflow in the last " + SpanWords(runway.BurnSpan)
		}
		return fmt.Sprintf("%s at the last %s's pace (%s %s/h)", Hours(c.BurnHours), SpanWords(runway.BurnSpan),
			money.Grouped(c.Burn.StringFixed(2)), c.Currency)
	}
	r := RunwayOf(c)
	empty := ""
	if r.Runs && !r.Long && !r.Empty.IsZero() {
		empty = ", empty ≈ " + EmptyAt(r.Empty, s.At) + " UTC"
	}
	switch {
	case !r.Runs:
		return weighted()
	case r.By == ByBurn:
		return burn() + empty + "; " + weighted()
	case c.BurnKnown:
		return weighted() + empty + "; " + burn()
	}
	return weighted() + empty
}

// trendWords says how the outflow moved over the last hour, when it did.
func trendWords(c runway.Currency) string {
	switch c.Trend {
	case runway.Rising:
		if c.Change.IsZero() {
			return ", rising"
		}
		return ", up " + c.Change.StringFixed(0) + " % on an hour ago"
	case runway.Falling:
		return ", down " + c.Change.Abs().StringFixed(0) + " % on an hour ago"
	}
	return ""
}

// SpanWords names a span in words, as the alerts say it: "hour", "2 h",
// "15 min".
func SpanWords(d time.Duration) string {
	switch {
	case d == time.Hour:
		return "hour"
	case d%time.Hour == 0:
		return fmt.Sprintf("%d h", d/time.Hour)
	}
	return fmt.Sprintf("%d min", d/time.Minute)
}
