package payworld

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/payments"
)

// createdInfo is what a payment created through POST /v3/payments carries
// beyond the compact form.
type createdInfo struct {
	internalID string
	labels     []string
	instrument int
	// payin is the payinCategory of the quote it was created from.
	payin string
}

func labelsFor(k uint64) []string {
	all := []string{"supplier-invoice", "payroll", "marketplace-payout", "refund", "treasury"}
	return []string{all[k%uint64(len(all))]}
}

// reasonOf is why a payment in a terminal failure state got there: its
// first error.
func reasonOf(seq uint32, p *pay, seed uint64) reason {
	k := simkit.Mix(seed, simkit.Key("reason"), uint64(seq))
	switch {
	case p.flags&fUnfunded != 0:
		return unfundedReason()
	case p.outcome == oDeclined:
		rs := declineReasons()
		return rs[k%uint64(len(rs))]
	case p.outcome == oReturned:
		return returnReason()
	default:
		rs := failReasons()
		return rs[k%uint64(len(rs))]
	}
}

// reasonsOf are the errors of a payment in a terminal failure state: its
// reason, and on one failure in six a second error whose retry answer
// differs (a transient cause beside a permanent one), as a payout that
// failed twice on its way reports both.
func reasonsOf(seq uint32, p *pay, seed uint64) []reason {
	first := reasonOf(seq, p, seed)
	out := []reason{first}
	if p.outcome != oFailedValidating && p.outcome != oFailedTransferring || simkit.Mix(seed, simkit.Key("second"), uint64(seq))%6 != 0 {
		return out
	}
	if strings.HasPrefix(first.code, "SYS_") {
		return append(out, configReason())
	}
	return append(out, failReasons()[0])
}

// instrumentOf is the index, among its beneficiary's instruments, of the
// instrument payment seq pays out to: the one chosen at creation, or one
// derived from seq. w.mu must be held.
func (w *World) instrumentOf(seq uint32) int {
	if ci := w.created[seq]; ci != nil {
		return ci.instrument
	}
	return int(seq) % len(w.bens[w.payment(seq).ben].instruments)
}

// hostile reports whether hostile text is switched on.
func (w *World) hostile() bool { return w.env.Faults != nil && w.env.Faults.Hostile() }

// PaymentView is a payment as the reports see it at a time: its ids,
// state, amounts, state history and ledger transactions, and the trade
// details that only the reports show.
type PaymentView struct {
	PaymentID, InternalID string
	State                 payments.State
	// InitiatedAt is when the payment was initiated.
	InitiatedAt                         time.Time
	SourceAmount, DestinationAmount     decimal.Decimal
	SourceCurrency, DestinationCurrency string
	Ledger                              []LedgerLine
	// QuoteAt is when the payment's quote was made; ExecutedAt when it
	// settled (COMPLETED), nil when it has not.
	QuoteAt    time.Time
	ExecutedAt *time.Time
	SpotRate   decimal.Decimal // third-party spot rate, destination per source
	// BridgeAmount is the bridge-asset amount withdrawn at the source
	// exchange; BridgeFee its withdrawal fee.
	BridgeAmount, BridgeFee                     decimal.Decimal
	SourceExchange, DestinationExchange, Method string
	SenderName, SenderAccount                   string
	SenderCustomer, ReceiverCustomer            string
	BeneficiaryName, BeneficiaryAccount         string
	// Reason is the failure code and title in a terminal failure state.
	ReasonCode, ReasonTitle string
}

// LedgerLine is a ledger transaction of a payment with the id the reports
// use for it.
type LedgerLine struct {
	ID                             string
	Operation, Currency, Status    string
	Amount, BalanceBefore, Balance decimal.Decimal
	At                             time.Time
}

// bridgePerSource is bridge-asset units per unit of source currency.
func bridgePerSource(src string) decimal.Decimal {
	switch src {
	case "EUR":
		return decimal.RequireFromString("1.79")
	case "GBP":
		return decimal.RequireFromString("2.10")
	default:
		return decimal.RequireFromString("1.65")
	}
}

// view builds the report view of seq as of unix ms t. w.mu must be held.
func (w *World) view(seq uint32, t int64) PaymentView {
	p := w.payment(seq)
	c := w.corridorOf(p)
	st := p.stateAt(t)
	hostile := w.hostile()
	hk := simkit.Mix(w.seed, uint64(seq), 99)
	ben := &w.bens[p.ben]
	instr := ben.instruments[w.instrumentOf(seq)]
	orig := &w.origs[w.currencyIndex(c.src)]
	v := PaymentView{
		PaymentID: w.paymentID(seq), InternalID: w.internalID(seq), State: st.state, InitiatedAt: ms(p.created),
		SourceAmount: minor(p.amount), DestinationAmount: w.destAmount(p), SourceCurrency: c.src, DestinationCurrency: c.dst,
		QuoteAt:      ms(p.created - 3000 - int64(hk%20000)),
		SpotRate:     w.spotRate(w.bens[p.ben].corridor, p.created),
		BridgeAmount: minor(p.amount).Mul(bridgePerSource(c.src)).Round(6),
		BridgeFee:    decimal.New(int64(hk%900+100), -6), SourceExchange: c.exchangeSrc, DestinationExchange: c.exchangeDst,
		Method: c.instrument, SenderName: simkit.Decorate(orig.nick, hostile, hk),
		SenderAccount:  c.src + "-PREFUND-" + orig.id[:8],
		SenderCustomer: "Sandbox Org", ReceiverCustomer: c.exchangeDst + " Payouts",
		BeneficiaryName: simkit.Decorate(ben.nick, hostile, hk+1), BeneficiaryAccount: instr.account,
	}
	s, n := p.steps()
	for i := 0; i < n; i++ {
		if s[i].state == payments.Completed && s[i].at <= t {
			e := ms(s[i].at)
			v.ExecutedAt = &e
		}
	}
	if st.state.FailedTerminal() {
		r := reasonOf(seq, p, w.seed)
		v.ReasonCode, v.ReasonTitle = r.code, r.title
	}
	for _, e := range w.paymentEntries(seq, p, t) {
		v.Ledger = append(v.Ledger, LedgerLine{
			ID:        simkit.UUIDOf(w.seed, simkit.Key("ledger"), uint64(seq), uint64(e.op), uint64(e.at)),
			Operation: opName(e.op), Currency: c.src, Status: payments.TxnSuccess,
			Amount: minor(e.amount), BalanceBefore: minor(e.before()), Balance: minor(e.after), At: ms(e.at),
		})
	}
	return v
}

// ForEachPayment calls fn with the view as of asOf of every payment of the
// org initiated in [from, to) and before asOf (a quote never accepted is no
// payment of the reports), in creation order, until fn
// returns false. The world is brought up to the clock first; asOf after the
// clock is treated as the clock.
func (w *World) ForEachPayment(from, to, asOf time.Time, fn func(PaymentView) bool) {
	w.Advance()
	const chunk = 256
	next := -1
	for {
		w.mu.RLock()
		t := min(asOf.UnixMilli(), w.processed)
		lo, hi := from.UnixMilli(), min(to.UnixMilli(), t+1)
		if next < 0 {
			next = w.firstAtOrAfter(lo)
		}
		next = max(next, w.base) // pruned while the lock was free
		views := make([]PaymentView, 0, chunk)
		for ; next < w.nextArrival && len(views) < chunk; next++ {
			p := w.payment(uint32(next))
			if p.created >= hi {
				next = w.nextArrival
				break
			}
			if p.flags&fForeign == 0 && p.initiated() {
				views = append(views, w.view(uint32(next), t))
			}
		}
		w.mu.RUnlock()
		for _, v := range views {
			if !fn(v) {
				return
			}
		}
		if len(views) < chunk {
			return
		}
	}
}

// firstAtOrAfter is the index of the first payment created at or after
// unix ms t. w.mu must be held.
func (w *World) firstAtOrAfter(t int64) int {
	lo, hi := w.base, w.nextArrival
	for lo < hi {
		m := (lo + hi) / 2
		if w.payment(uint32(m)).created < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
