// Package runway says how long each prefunded balance lasts: the
// available balance of a currency on the payments interface, divided by
// its account's net outflow over the last hour as the ledger tells it.
//
// The net outflow is what the hour's movements took from the available
// balance less what they brought in: the sum, over the ledger
// transactions of the hour, of availableBalanceBefore minus
// availableBalanceAfter. It does not depend on how a deployment signs its
// amounts or names its operations (a RESERVE lowers the available balance,
// a DEBIT of reserved funds leaves it, a RELEASE or a funding CREDIT
// raises it). When it is zero or negative the balance does not run out at
// this pace: "no outflow". Amounts are decimals from the wire to the
// result; hours are rounded to a tenth.
package runway

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"treasury/data/payments"
)

// Window is how far back the outflow is measured.
const Window = time.Hour

// Currency is the runway of one prefunded currency.
type Currency struct {
	Currency string
	// Available is the available balance (of every funding type).
	Available decimal.Decimal
	// Outflow is the net outflow over the window (positive: money left);
	// Moves counts the window's ledger transactions.
	Outflow decimal.Decimal
	Moves   int
	// Hours is Available / Outflow, rounded to a tenth, when Outflow is
	// positive (zero when nothing is available); NoOutflow otherwise.
	Hours     decimal.Decimal
	NoOutflow bool
	// Under reports a runway shorter than the threshold.
	Under bool
}

// Sheet is the runway of every prefunded currency at one time.
type Sheet struct {
	// At is the end of the window: when the ledger was read.
	At time.Time
	// Threshold is the runway under which a currency is Under (zero:
	// none is).
	Threshold  decimal.Decimal
	Currencies []Currency
}

// Compute builds the sheet from the prefunded balances and the ledger
// transactions held (any order; those outside the window ending at at are
// left out), in the order of the balances' currencies.
func Compute(bal payments.Balances, ledger []payments.LedgerTransaction, at time.Time, threshold decimal.Decimal) Sheet {
	sheet := Sheet{At: at, Threshold: threshold}
	index := map[string]int{}
	for _, b := range bal.Balances {
		i, ok := index[b.Currency]
		if !ok {
			i = len(sheet.Currencies)
			index[b.Currency] = i
			sheet.Currencies = append(sheet.Currencies, Currency{Currency: b.Currency})
		}
		c := &sheet.Currencies[i]
		c.Available = c.Available.Add(b.AvailableBalance.Decimal)
	}
	from := at.Add(-Window)
	for _, t := range ledger {
		if !t.CreatedDttm.After(from) || t.CreatedDttm.After(at) {
			continue
		}
		i, ok := index[t.Currency]
		if !ok {
			continue
		}
		c := &sheet.Currencies[i]
		c.Outflow = c.Outflow.Add(t.AvailableBalanceBefore.Decimal.Sub(t.AvailableBalanceAfter.Decimal))
		c.Moves++
	}
	for i := range sheet.Currencies {
		c := &sheet.Currencies[i]
		switch {
		case !c.Outflow.IsPositive():
			c.NoOutflow = true
		case !c.Available.IsPositive():
			c.Hours = decimal.Zero
		default:
			c.Hours = c.Available.DivRound(c.Outflow, 1)
		}
		c.Under = threshold.IsPositive() && !c.NoOutflow && c.Hours.LessThan(threshold)
	}
	return sheet
}

// Under lists the currencies whose runway is under the threshold.
func (s Sheet) Under() []Currency {
	var out []Currency
	for _, c := range s.Currencies {
		if c.Under {
			out = append(out, c)
		}
	}
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
