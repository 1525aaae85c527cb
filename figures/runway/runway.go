// Package runway says how long each prefunded balance lasts: the
// available balance of a currency on the payments interface, divided by
// the pace at which payments draw its account, as the ledger tells it.
//
// The pace is the net outflow to payments, exponentially weighted over a
// window (DefaultWindow, 6 h): each ledger transaction moves the available
// balance by availableBalanceBefore minus availableBalanceAfter (which
// does not depend on how a deployment signs its amounts or names its
// operations: a RESERVE lowers the available balance, a DEBIT of reserved
// funds leaves it, a RELEASE or a return's CREDIT raises it), and counts
// with the weight e^(-age/window). One hour's movements alone made the
// runway swing from days to minutes and back as payments came in bursts;
// the weighted pace moves with the trend and forgets a burst gradually.
//
// Funding is not outflow's opposite here: a movement into the account that
// did not come from payments (txnSource other than PAYMENTS: a BANK
// top-up, a MANUAL credit) is left out, so a top-up does not make the
// runway read "no outflow" while payments keep draining the account: the
// runway says how long the balance lasts without new funding, which is the
// decision it is for. Movements out count whatever their source.
//
// A burst is faster than the weighted pace can follow: a balance drawn
// from 131,000 to 18,000 in six minutes still read 0.7 h. Beside it, the
// burn of the last BurnSpan (15 minutes: the net outflow of those minutes
// at an hourly rate, unweighted, exact) gives a second runway; the shorter
// of the two sets the level (Currency.Runway), and both are said.
//
// Amounts stay decimals from the wire to the result (summed exactly, as
// integers at the currency's scale); only the weights, e^(-age/window),
// are computed in floating point and rounded to twelve decimals before
// they multiply an amount. The pace is rounded to the cent per hour, the
// runway to a tenth of an hour.
package runway

import (
	"math"
	"math/big"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire/payments"
)

// DefaultWindow is the time constant of the weighting when none is
// configured: a movement six hours old counts for e^-1 (37 %) of a new
// one, and the last six hours carry about two thirds of the weight.
const DefaultWindow = 6 * time.Hour

// BurnSpan is the span of the burn, the recent pace a burst shows in.
const BurnSpan = 15 * time.Minute

// Long is the runway past which the time a balance runs out is noise: a
// runway past it reads "> 30 d".
const Long = 30 * 24 * time.Hour

// TrendSpan is how far back the pace is compared with, for its trend; a
// change under TrendPercent percent is steady.
const (
	TrendSpan    = time.Hour
	TrendPercent = 10
)

// Level is how short a runway is against its limits.
type Level int

// Levels, shortest last.
const (
	None Level = iota
	Warning
	Critical
)

func (l Level) String() string {
	switch l {
	case Warning:
		return "warning"
	case Critical:
		return "critical"
	}
	return "none"
}

// Limits are the runways, in hours, under which a currency's is a warning
// or critical; zero means no such level.
type Limits struct {
	Warning, Critical decimal.Decimal
}

// Level is the level of a runway of hours.
func (l Limits) Level(hours decimal.Decimal) Level {
	switch {
	case l.Critical.IsPositive() && hours.LessThan(l.Critical):
		return Critical
	case l.Warning.IsPositive() && hours.LessThan(l.Warning):
		return Warning
	}
	return None
}

// Trend is the direction of the pace over TrendSpan.
type Trend int

// Trends of the pace (and so of the runway: a rising outflow shortens it).
const (
	Unknown Trend = iota
	Steady
	Rising
	Falling
)

// Currency is the runway of one prefunded currency.
type Currency struct {
	Currency string
	// Available is the available balance (of every funding type).
	Available decimal.Decimal
	// Outflow is the weighted net outflow to payments per hour (positive:
	// money leaves), to the cent; Earlier is the same TrendSpan before,
	// and Change the change from Earlier to Outflow in percent (to a
	// tenth; zero when the trend is Unknown).
	Outflow, Earlier, Change decimal.Decimal
	Trend                    Trend
	// Moves counts the ledger transactions weighed; Funding counts the
	// movements in left out as funding.
	Moves, Funding int
	// Hours is Available / Outflow, rounded to a tenth, when Outflow is
	// positive (zero when nothing is available); NoOutflow otherwise.
	// Empty is when the balance runs out at that pace (zero with
	// NoOutflow).
	Hours     decimal.Decimal
	NoOutflow bool
	Empty     time.Time
	// Burn is the net outflow of the last BurnSpan per hour, to the cent;
	// BurnKnown says the ledger read covers that span. BurnHours and
	// BurnEmpty are the runway at the burn's pace, when Burn is positive.
	Burn      decimal.Decimal
	BurnKnown bool
	BurnHours decimal.Decimal
	BurnEmpty time.Time
	// Limits are the currency's, and Level where its runway stands: the
	// shorter of the weighted and the burn's (Runway).
	Limits Limits
	Level  Level
}

// Runway is the shorter of the currency's two runways: at the weighted
// pace, or at the burn's when that is shorter (burst true); ok is false
// when neither pace takes money out.
func (c Currency) Runway() (hours decimal.Decimal, empty time.Time, burst, ok bool) {
	byBurn := c.BurnKnown && c.Burn.IsPositive()
	switch {
	case byBurn && (c.NoOutflow || c.BurnHours.LessThan(c.Hours)):
		return c.BurnHours, c.BurnEmpty, true, true
	case !c.NoOutflow:
		return c.Hours, c.Empty, false, true
	}
	return decimal.Zero, time.Time{}, false, false
}

// Pace is the outflow per hour the runway is at: the burn's when it sets
// the runway, else the weighted one.
func (c Currency) Pace() decimal.Decimal {
	if _, _, burst, _ := c.Runway(); burst {
		return c.Burn
	}
	return c.Outflow
}

// LongRunway reports whether the runway is past Long: its end is noise.
func (c Currency) LongRunway() bool {
	h, _, _, ok := c.Runway()
	return ok && h.GreaterThan(decimal.NewFromInt(int64(Long/time.Hour)))
}

// Sheet is the runway of every prefunded currency at one time.
type Sheet struct {
	// At is when the ledger was read: the weights' origin. From is the
	// oldest time the ledger read covers. Window is the weighting's time
	// constant.
	At, From   time.Time
	Window     time.Duration
	Currencies []Currency
}

// Options are what Compute needs besides the records.
type Options struct {
	// At is when the ledger was read; From the start of the time it
	// covers (a zero From: the oldest transaction's time).
	At, From time.Time
	// Window is the weighting's time constant (zero: DefaultWindow).
	Window time.Duration
	// Limits gives each currency's limits; nil means none.
	Limits func(currency string) Limits
}

// Compute builds the sheet from the prefunded balances and the ledger
// transactions held (any order; those after At are left out), in the
// order of the balances' currencies.
func Compute(bal payments.Balances, ledger []payments.LedgerTransaction, o Options) Sheet {
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	if o.From.IsZero() {
		o.From = o.At
		for _, t := range ledger {
			if t.CreatedDttm.Before(o.From) {
				o.From = t.CreatedDttm
			}
		}
	}
	sheet := Sheet{At: o.At, From: o.From, Window: o.Window}
	index := map[string]int{}
	for _, b := range bal.Balances {
		i, ok := index[b.Currency]
		if !ok {
			i = len(sheet.Currencies)
			index[b.Currency] = i
			sheet.Currencies = append(sheet.Currencies, Currency{Currency: b.Currency})
		}
		c := &sheet.Currencies[i]
		c.Available = c.Available.Add(b.AvailableBalance.Decimal())
	}
	now := newPace(o.At, o.From, o.Window)
	then := newPace(o.At.Add(-TrendSpan), o.From, o.Window)
	moves := make([]flows, len(sheet.Currencies))
	burnFrom := o.At.Add(-BurnSpan)
	burns := make([]decimal.Decimal, len(sheet.Currencies))
	for _, t := range ledger {
		i, ok := index[t.Currency]
		if !ok || t.CreatedDttm.After(o.At) {
			continue
		}
		out := t.AvailableBalanceBefore.Decimal().Sub(t.AvailableBalanceAfter.Decimal())
		if out.IsNegative() && t.TxnSource != payments.SrcPayment {
			sheet.Currencies[i].Funding++
			continue
		}
		moves[i].add(t.CreatedDttm, out)
		sheet.Currencies[i].Moves++
		if t.CreatedDttm.After(burnFrom) {
			burns[i] = burns[i].Add(out)
		}
	}
	for i := range sheet.Currencies {
		c := &sheet.Currencies[i]
		if o.Limits != nil {
			c.Limits = o.Limits(c.Currency)
		}
		var known bool
		c.Outflow, _ = now.rate(moves[i])
		c.Earlier, known = then.rate(moves[i])
		c.Trend, c.Change = trend(c.Earlier, c.Outflow, known)
		if c.BurnKnown = !burnFrom.Before(o.From); c.BurnKnown {
			c.Burn = burns[i].Mul(decimal.NewFromInt(int64(time.Hour / BurnSpan))).Round(2)
			if c.Burn.IsPositive() {
				c.BurnHours, c.BurnEmpty = lasts(c.Available, c.Burn, o.At)
			}
		}
		if c.NoOutflow = !c.Outflow.IsPositive(); !c.NoOutflow {
			c.Hours, c.Empty = lasts(c.Available, c.Outflow, o.At)
		}
		if h, _, _, ok := c.Runway(); ok {
			c.Level = c.Limits.Level(h)
		}
	}
	return sheet
}

// lasts is how long available lasts at pace per hour (a tenth of an
// hour) and when it runs out, from at.
func lasts(available, pace decimal.Decimal, at time.Time) (decimal.Decimal, time.Time) {
	if !available.IsPositive() {
		return decimal.Zero, at
	}
	exact := available.DivRound(pace, 6)
	return exact.Round(1), at.Add(time.Duration(exact.Mul(decimal.NewFromInt(int64(time.Hour))).IntPart()))
}

// flow is one weighed movement: its time and what it took out, as an
// integer coefficient at its currency's scale (flows.exp), so that
// weighing a day of a busy account's movements does not allocate per
// movement.
type flow struct {
	at   time.Time
	coef *big.Int
}

// flows are a currency's movements, every coefficient at exponent exp.
type flows struct {
	list []flow
	exp  int32
}

// add takes a movement out (positive: money left).
func (fs *flows) add(at time.Time, out decimal.Decimal) {
	c, e := out.Coefficient(), out.Exponent()
	switch {
	case len(fs.list) == 0:
		fs.exp = e
	case e < fs.exp: // a finer amount: every coefficient so far to its scale
		k := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(fs.exp-e)), nil)
		for _, f := range fs.list {
			f.coef.Mul(f.coef, k)
		}
		fs.exp = e
	case e > fs.exp:
		c.Mul(c, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e-fs.exp)), nil))
	}
	fs.list = append(fs.list, flow{at: at, coef: c})
}

// pace weighs movements as seen at one time.
type pace struct {
	at     time.Time
	window time.Duration
	// norm is the weight of an hour's steady outflow over the span
	// covered, in hours: window (1 - e^(-span/window)). Dividing the
	// weighted sum by it gives a steady pace back exactly.
	norm decimal.Decimal
}

func newPace(at, from time.Time, window time.Duration) pace {
	span := at.Sub(from)
	if span <= 0 {
		return pace{at: at, window: window}
	}
	tau := window.Hours()
	return pace{at: at, window: window, norm: decimal.New(weight(tau*-math.Expm1(-span.Hours()/tau)), -weightPlaces)}
}

// rate is the weighted outflow per hour of the flows up to p.at, to the
// cent: the sum, exact, of each amount times its weight, over norm; ok is
// false when p covers no time.
func (p pace) rate(fs flows) (decimal.Decimal, bool) {
	if !p.norm.IsPositive() {
		return decimal.Zero, false
	}
	var sum, term, w big.Int
	for _, f := range fs.list {
		if f.at.After(p.at) {
			continue
		}
		w.SetInt64(weight(math.Exp(-float64(p.at.Sub(f.at)) / float64(p.window))))
		sum.Add(&sum, term.Mul(f.coef, &w))
	}
	return decimal.NewFromBigInt(&sum, fs.exp-weightPlaces).DivRound(p.norm, 2), true
}

// weightPlaces are the decimals of a weight.
const weightPlaces = 12

// weight is a weight (at most a few units) in units of 10^-12, rounded
// half away from zero.
func weight(f float64) int64 { return int64(math.Round(f * 1e12)) }

// trend compares the pace now with the pace TrendSpan earlier.
func trend(earlier, now decimal.Decimal, known bool) (Trend, decimal.Decimal) {
	if !known {
		return Unknown, decimal.Zero
	}
	if !earlier.IsPositive() {
		if now.IsPositive() {
			return Rising, decimal.Zero
		}
		return Steady, decimal.Zero
	}
	change := now.Sub(earlier).Mul(decimal.NewFromInt(100)).DivRound(earlier, 1)
	switch {
	case change.GreaterThanOrEqual(decimal.NewFromInt(TrendPercent)):
		return Rising, change
	case change.LessThanOrEqual(decimal.NewFromInt(-TrendPercent)):
		return Falling, change
	}
	return Steady, change
}

// Short lists the currencies whose runway is at a level, shortest first.
func (s Sheet) Short() []Currency {
	var out []Currency
	for _, c := range s.Currencies {
		if c.Level != None {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b Currency) int {
		ah, _, _, _ := a.Runway()
		bh, _, _, _ := b.Runway()
		return ah.Cmp(bh)
	})
	return out
}

// Find returns the runway of a currency.
func (s Sheet) Find(currency string) (Currency, bool) {
	i := slices.IndexFunc(s.Currencies, func(c Currency) bool { return c.Currency == currency })
	if i < 0 {
		return Currency{}, false
	}
	return s.Currencies[i], true
}
