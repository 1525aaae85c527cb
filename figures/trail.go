package figures

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire/payments"
)

// A payment's ledger trail: the lines of the prefunded ledger that moved
// its funds, and whether the funds it drew came back.
//
// The vendor's document names the payment on RESERVE and DEBIT only
// (txnReference, the payment id; "null for all other operation types").
// What gives funds back carries no reference there: a FAILED or DECLINED
// payment's RELEASE ("reserved funds released back to the account"), a
// RETURNED payment's CREDIT (or RELEASE) of the funds "reserved and
// debited". Such a line is tied to the payment by what it is: a RELEASE or
// CREDIT from PAYMENTS, of the currency and amount the payment drew,
// within TrailSlack of the moment the payment entered the state that gives
// funds back; a line of another payment that could be it is counted
// (Tie.Others), never hidden. A deployment that names the payment on
// those lines too (its id, or its internalId) is matched by that.

// TrailSlack is how far from the state change that gives funds back (a
// FAILED, DECLINED or RETURNED payment's) a line without a reference may
// be and still be tied to the payment.
const TrailSlack = 2 * time.Minute

// Tie is how a ledger line was tied to its payment.
type Tie struct {
	// ByAmount says the line carries no reference: it was tied by its
	// operation, currency, amount and time (TrailSlack); Others counts the
	// other lines that fit as well (another payment's, perhaps).
	ByAmount bool
	Others   int
}

// TrailLine is one ledger line of a payment.
type TrailLine struct {
	Tx  payments.LedgerTransaction
	Tie Tie
}

// Amount is the line's amount, unsigned (a deployment may sign it).
func (l TrailLine) Amount() decimal.Decimal { return l.Tx.Amount.Decimal().Abs() }

// Back is whether a payment's funds came back, by what its ledger lines
// say.
type Back int

// Answers to "did the money come back?".
const (
	// BackNotDrawn: no prefunded funds to come back (a just-in-time or
	// credit payment draws no prefunded account).
	BackNotDrawn Back = iota
	// BackInFlight: the payment goes on: nothing to come back yet.
	BackInFlight
	// BackPaid: the payment completed: its funds were paid out.
	BackPaid
	// BackAll: every amount it drew came back.
	BackAll
	// BackPart: some of it came back, not all.
	BackPart
	// BackNotYet: none of it came back in the ledger read.
	BackNotYet
	// BackUnknown: the ledger read holds no line of the payment: nothing
	// can be said.
	BackUnknown
)

// Word is the answer in data (a CSV cell, a JSON value).
func (b Back) Word() string {
	return [...]string{"NOT_DRAWN", "IN_FLIGHT", "PAID_OUT", "BACK", "PART_BACK", "NOT_BACK", "UNKNOWN"}[b]
}

// Trail is a payment's ledger trail and what it says of its funds.
type Trail struct {
	Payment  string
	Currency string
	Funding  Funding
	// Lines are the payment's lines, oldest first.
	Lines []TrailLine
	// Drawn is what its RESERVE lines took from the available balance
	// (its DEBIT lines when no RESERVE is held, else its source amount;
	// DrawnAt zero then); Debited its DEBIT lines;
	// Returned its RELEASE and CREDIT lines; ReturnedAt the last of them.
	Drawn, Debited, Returned decimal.Decimal
	DrawnAt, DebitedAt       time.Time
	ReturnedAt               time.Time
	// GaveBackAt is when the payment entered the state that gives funds
	// back (FAILED, DECLINED, RETURNED), zero otherwise.
	GaveBackAt time.Time
	// ReadTo is the end of the ledger read: "not back" is as of it.
	ReadTo time.Time
	Back   Back
}

// Missing is what was drawn and has not come back.
func (t Trail) Missing() decimal.Decimal {
	return decimal.Max(t.Drawn.Sub(t.Returned), decimal.Zero)
}

// givesBack reports whether a payment in st has its funds given back, as
// the document's states say.
func givesBack(st payments.State) bool {
	return st == payments.Failed || st == payments.Declined || st == payments.Returned
}

// TrailOf is p's ledger trail in ledger (read up to readTo), its state
// history (nil when not read) telling when it entered the state that
// gives funds back.
func TrailOf(p *payments.Payment, ledger []payments.LedgerTransaction, history []payments.StateTransition, readTo time.Time) Trail {
	t := Trail{Payment: p.PaymentID, Currency: p.Originator.SourceCurrency, Funding: FundingOf(p), ReadTo: readTo}
	id, internal := p.PaymentID, p.Originator.InternalID
	ours := func(ref string) bool { return ref != "" && (ref == id || ref == internal) }
	if givesBack(p.PaymentState) {
		t.GaveBackAt = p.LastStateUpdatedAt
		for _, h := range history {
			if h.UpdatedTo == p.PaymentState && !h.UpdatedAt.IsZero() {
				t.GaveBackAt = h.UpdatedAt
			}
		}
	}
	used := map[int]bool{}
	for i := range ledger {
		tx := &ledger[i] // not copied: a day's ledger is read at every frame of the detail
		if ours(tx.Reference()) && (t.Currency == "" || tx.Currency == t.Currency) {
			t.Lines = append(t.Lines, TrailLine{Tx: *tx})
			used[i] = true
		}
	}
	t.sum(p)
	// What gives funds back and names no payment: tied by what it is.
	if want := t.Drawn.Sub(t.Returned); want.IsPositive() && !t.GaveBackAt.IsZero() {
		if l, ok := t.tieByAmount(ledger, used, want); ok {
			t.Lines = append(t.Lines, l)
			t.sum(p)
		}
	}
	slices.SortStableFunc(t.Lines, func(a, b TrailLine) int { return a.Tx.CreatedDttm.Compare(b.Tx.CreatedDttm) })
	t.Back = t.judge(p)
	return t
}

// givesBackOp reports whether op gives funds back to the account.
func givesBackOp(op string) bool { return op == payments.OpRelease || op == payments.OpCredit }

// tieByAmount finds the line without a reference that gave want back: a
// RELEASE or CREDIT from PAYMENTS of the payment's currency and of want,
// within TrailSlack of GaveBackAt, the nearest in time; the others that
// fit as well are counted.
func (t *Trail) tieByAmount(ledger []payments.LedgerTransaction, used map[int]bool, want decimal.Decimal) (TrailLine, bool) {
	var fit []int
	for i := range ledger {
		tx := &ledger[i]
		// The cheap tests first: most of a day's lines are not of the
		// minutes around the payment's state change.
		if d := tx.CreatedDttm.Sub(t.GaveBackAt); d > TrailSlack || d < -TrailSlack {
			continue
		}
		if used[i] || tx.TxnReference != nil && *tx.TxnReference != "" || !givesBackOp(tx.Operation) || tx.TxnSource != payments.SrcPayment ||
			tx.Currency != t.Currency || tx.Amount.Decimal().Abs().Cmp(want) != 0 {
			continue
		}
		fit = append(fit, i)
	}
	if len(fit) == 0 {
		return TrailLine{}, false
	}
	away := func(i int) time.Duration {
		d := ledger[i].CreatedDttm.Sub(t.GaveBackAt)
		if d < 0 {
			return -d
		}
		return d
	}
	best := slices.MinFunc(fit, func(a, b int) int { return cmp.Compare(away(a), away(b)) })
	return TrailLine{Tx: ledger[best], Tie: Tie{ByAmount: true, Others: len(fit) - 1}}, true
}

// sum totals the lines by operation. What was drawn is what the RESERVE
// lines took, else the DEBIT lines, else (neither in the ledger read) the
// payment's source amount.
func (t *Trail) sum(p *payments.Payment) {
	var reserved, debited, back decimal.Decimal
	var reservedAt, debitedAt, backAt time.Time
	for _, l := range t.Lines {
		at := l.Tx.CreatedDttm
		switch op := l.Tx.Operation; {
		case op == payments.OpReserve:
			reserved, reservedAt = reserved.Add(l.Amount()), later(reservedAt, at)
		case op == payments.OpDebit:
			debited, debitedAt = debited.Add(l.Amount()), later(debitedAt, at)
		case givesBackOp(op):
			back, backAt = back.Add(l.Amount()), later(backAt, at)
		}
	}
	t.Drawn, t.DrawnAt = reserved, reservedAt
	if reserved.IsZero() {
		t.Drawn, t.DrawnAt = debited, debitedAt
	}
	if t.Drawn.IsZero() {
		t.Drawn = p.Originator.SourceAmount.Decimal().Abs()
	}
	t.Debited, t.DebitedAt, t.Returned, t.ReturnedAt = debited, debitedAt, back, backAt
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// judge says whether p's funds came back.
func (t Trail) judge(p *payments.Payment) Back {
	st := p.PaymentState
	switch {
	case len(t.Lines) == 0 && (t.Funding.Class != Prefunded || st == payments.Quoted || st == payments.AwaitingFunding):
		return BackNotDrawn
	case !givesBack(st) && st != payments.Completed:
		return BackInFlight
	case len(t.Lines) == 0:
		return BackUnknown
	case st == payments.Completed:
		return BackPaid
	case !t.Returned.LessThan(t.Drawn):
		return BackAll
	case t.Returned.IsPositive():
		return BackPart
	}
	return BackNotYet
}

// Words say in a sentence what the trail says of the funds, amounts at
// their currency's decimals and times as stamp writes them: "funds came
// back: 1,234.50 USD at 09:39:13 UTC (RELEASE, tied by amount and time:
// the ledger names no payment on it)".
func (t Trail) Words(stamp func(time.Time) string) string {
	c := t.Currency
	m := func(d decimal.Decimal) string { return Money(d, c) + " " + c }
	tie := ""
	for _, l := range t.Lines {
		if l.Tie.ByAmount {
			tie = " (" + l.Tx.Operation + ", tied by amount and time: the ledger names no payment on it"
			if l.Tie.Others > 0 {
				tie += "; " + strconv.Itoa(l.Tie.Others) + " other line(s) fit as well"
			}
			tie += ")"
		}
	}
	switch t.Back {
	case BackNotDrawn:
		switch t.Funding.Class {
		case JustInTime:
			return "nothing drawn from the prefunded account: a just-in-time payment is funded by the customer, so no funds of it come back to this ledger"
		case Credit:
			return "nothing drawn from the prefunded account: a credit payment is invoiced later, so no funds of it come back to this ledger"
		case Other:
			return "nothing of it in the prefunded ledger: payin " + t.Funding.Payin + " is not one this build knows to draw the prefunded account"
		}
		return "nothing drawn from the prefunded account (not initiated yet)"
	case BackInFlight:
		if !t.DrawnAt.IsZero() {
			return m(t.Drawn) + " reserved at " + stamp(t.DrawnAt) + "; in flight: nothing to come back yet"
		}
		return "in flight: nothing reserved in the ledger read yet"
	case BackPaid:
		if t.DebitedAt.IsZero() {
			return m(t.Drawn) + " drawn, paid out (COMPLETED): nothing comes back"
		}
		return m(t.Drawn) + " drawn, paid out (DEBIT at " + stamp(t.DebitedAt) + "): nothing comes back"
	case BackAll:
		return "funds came back: " + m(t.Returned) + " at " + stamp(t.ReturnedAt) + tie
	case BackPart:
		return "funds partly back: " + m(t.Returned) + " of " + m(t.Drawn) + " at " + stamp(t.ReturnedAt) + tie +
			"; " + m(t.Missing()) + " not back in the ledger read to " + stamp(t.ReadTo)
	case BackNotYet:
		drawn := " drawn at " + stamp(t.DrawnAt)
		if t.DrawnAt.IsZero() {
			drawn = " (its amount)"
		}
		return "funds not back (yet): " + m(t.Drawn) + drawn + ", no RELEASE or CREDIT of it in the ledger read to " + stamp(t.ReadTo)
	}
	return "no line of this payment in the ledger read: whether funds came back cannot be said"
}

// TrailSpan is the span of the ledger that holds p's lines, on whole
// minutes: from a minute before it was initiated to TrailSlack and a
// minute after its last state (what gave its funds back is then), to now
// at most. ok is false for a payment never initiated.
func TrailSpan(p *payments.Payment, now time.Time) (from, to time.Time, ok bool) {
	if p.When().IsZero() {
		return time.Time{}, time.Time{}, false
	}
	from = p.When().Truncate(time.Minute).Add(-time.Minute)
	to = now.Truncate(time.Minute).Add(time.Minute)
	if last := p.LastStateUpdatedAt.Add(TrailSlack + time.Minute).Truncate(time.Minute).Add(time.Minute); !p.LastStateUpdatedAt.IsZero() && last.Before(to) {
		to = last
	}
	return from, to, true
}

// ReadsLedger reports whether p's trail needs the ledger read: a payment
// that draws the prefunded account and was initiated.
func ReadsLedger(p *payments.Payment) bool {
	st := p.PaymentState
	return FundingOf(p).Class == Prefunded && st != payments.Quoted && st != payments.AwaitingFunding && !p.When().IsZero()
}
