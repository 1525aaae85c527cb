package figures

import (
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire/payments"
)

// Rate is the failure rate of the payments that finished within a span:
// those whose last change, to COMPLETED, RETURNED, FAILED or DECLINED, was
// in it, and how many of those failed or were declined. It is the one
// definition of "failure rate" on every screen and alert: a payment counts
// when it finished, whenever it was initiated.
type Rate struct {
	Failed, Finished int
}

// Count adds p when it finished in (from, to].
func (r *Rate) Count(p *payments.Payment, from, to time.Time) {
	if !p.LastStateUpdatedAt.After(from) || p.LastStateUpdatedAt.After(to) {
		return
	}
	switch p.PaymentState {
	case payments.Completed, payments.Returned:
		r.Finished++
	case payments.Failed, payments.Declined:
		r.Finished++
		r.Failed++
	}
}

// Percent is Failed over Finished in percent, to a tenth (half away from
// zero); ok is false when nothing finished.
func (r Rate) Percent() (decimal.Decimal, bool) {
	if r.Finished == 0 {
		return decimal.Zero, false
	}
	return decimal.NewFromInt(int64(r.Failed)).Mul(decimal.NewFromInt(100)).DivRound(decimal.NewFromInt(int64(r.Finished)), 1), true
}
