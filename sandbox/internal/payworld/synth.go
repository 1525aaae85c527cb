package payworld

import (
	"math"
	"slices"
	"time"

	"treasury/sandbox/internal/simkit"
)

// Outcomes: where a payment's path through the states of spec 3.1 ends.
const (
	oCompleted uint8 = iota
	oReturned
	oFailedValidating
	oFailedTransferring
	oDeclined
	oQuoted // the quote was never accepted: QUOTED, never initiated
)

// Flags of a payment.
const (
	fForeign    uint8 = 1 << iota // belongs to another organization
	fCreated                      // created through POST /v3/payments
	fJIT                          // funded just in time: AWAITING_FUNDING before VALIDATING
	fUnfunded                     // just in time, its funds never came: DECLINED once past jitFundingExpiresAt
	fCredit                       // funded on credit (invoiced later): nothing reserved
	fDeprecated                   // its payin written with the document's deprecated name (FUNDED, T_PLUS_ONE)
)

// pay is the compact form of a payment: everything else (ids, amounts in
// the destination currency, fees, names, errors, states at a time) derives
// from it, the seed and the payment's sequence number (its index).
type pay struct {
	created int64     // unix ms (INITIATED)
	amount  int64     // source amount in minor units
	at      [4]uint32 // ms after created: VALIDATING, TRANSFERRING, final state, RETURNED
	ben     uint16    // beneficiary index
	outcome uint8
	flags   uint8
}

// Traffic shape.
const (
	minAmountMinor = 10_00
	maxAmountMinor = 250_000_00
)

// synthPay derives a payment created at created from the seed and seq.
func (w *World) synthPay(seq uint32, created int64) pay {
	r := simkit.Rand(w.seed, w.kPay, uint64(seq))
	// A few beneficiaries receive most payments.
	u := r.Float64()
	ben := int(float64(len(w.bens)) * u * u)
	amt := int64(math.Round(simkit.LogNormal(r, math.Log(1500), 1.1) * 100))
	amt = min(max(amt, minAmountMinor), maxAmountMinor)
	p := pay{created: created, amount: amt, ben: uint16(ben)}
	p.at[0] = uint32(2000 + r.IntN(28000)) // validation starts after 2-30 s
	switch o := r.Float64(); {
	case o < 0.85:
		p.outcome = oCompleted
	case o < 0.865:
		p.outcome = oReturned
	case o < 0.905:
		p.outcome = oFailedTransferring
	case o < 0.93:
		p.outcome = oFailedValidating
	case o < 0.985:
		p.outcome = oDeclined
	default:
		p.outcome = oQuoted
	}
	transfer := p.at[0] + uint32(min(simkit.LogNormal(r, math.Log(45_000), 0.8), 20*60_000))
	final := transfer + uint32(min(simkit.LogNormal(r, math.Log(8*60_000), 1.0), 6*3600_000))
	switch p.outcome {
	case oCompleted, oReturned, oFailedTransferring:
		p.at[1], p.at[2] = transfer, final
	case oFailedValidating:
		p.at[2] = p.at[0] + uint32(5000+r.IntN(55000))
	case oDeclined:
		p.at[2] = p.at[0] + uint32(1000+r.IntN(19000))
	}
	if p.outcome == oReturned {
		p.at[3] = p.at[2] + uint32(24*3600_000+r.IntN(4*24*3600_000))
	}
	// One payment in twelve is funded just in time: its funds arrive 2 to
	// 40 minutes after it is initiated, and everything after waits; one
	// of those in four never gets its funds, and is declined some minutes
	// after its jitFundingExpiresAt. One payment in fifteen of the others
	// is funded on credit. The document's deprecated payin names (FUNDED,
	// T_PLUS_ONE) are on one payment in five.
	k := simkit.Mix(w.seed, simkit.Key("jit"), uint64(seq))
	switch {
	case p.outcome == oQuoted:
	case k%12 == 0 && k/12%4 == 0:
		p.flags |= fJIT | fUnfunded
		p.outcome = oDeclined
		p.at = [4]uint32{0, 0, uint32(jitWindow.Milliseconds()) + uint32(10*60_000+k/48%(30*60_000)), 0}
	case k%12 == 0:
		p.flags |= fJIT
		fund := uint32(2*60_000 + k/12%(38*60_000))
		for i := range p.at {
			if p.at[i] != 0 {
				p.at[i] += fund
			}
		}
	case simkit.Mix(w.seed, simkit.Key("credit"), uint64(seq))%15 == 0:
		p.flags |= fCredit
	}
	if simkit.Mix(w.seed, simkit.Key("payin"), uint64(seq))%5 == 0 {
		p.flags |= fDeprecated
	}
	return p
}

// historyTimes spreads n creation times over [from, to): more on weekdays
// and in business hours, sorted.
func historyTimes(seed uint64, n int, from, to time.Time) []int64 {
	r := simkit.Rand(seed, simkit.Key("history"))
	span := to.Sub(from).Milliseconds()
	out := make([]int64, 0, n)
	for len(out) < n && span > 0 {
		ms := from.UnixMilli() + r.Int64N(span)
		t := time.UnixMilli(ms).UTC()
		wt := 1.0
		if d := t.Weekday(); d == time.Saturday || d == time.Sunday {
			wt *= 0.35
		}
		if h := t.Hour(); h < 7 || h > 19 {
			wt *= 0.4
		}
		if r.Float64() < wt {
			out = append(out, ms)
		}
	}
	slices.Sort(out)
	return out
}

// historyStart is the first instant of the month two months before t.
func historyStart(t time.Time) time.Time {
	y, m, _ := t.UTC().Date()
	return time.Date(y, m-2, 1, 0, 0, 0, 0, time.UTC)
}

// nextLiveGap is the sandbox time between live payment k and k+1: a Poisson
// process at perMinute.
func (w *World) nextLiveGap(k uint64) int64 {
	r := simkit.Rand(w.seed, simkit.Key("live"), k)
	gap := r.ExpFloat64() / w.livePerMinute * 60_000
	return max(1, int64(gap))
}
