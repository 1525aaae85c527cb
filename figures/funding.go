package figures

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"treasury/wire/payments"
)

// Class is how a payment is funded, as the vendor's document defines it.
type Class int

// Classes, in the order every surface lists them.
const (
	// Prefunded: paid from the funds deposited with the platform (the
	// prefunded account): payin PRE_FUNDING, the deprecated FUNDED, or
	// none said.
	Prefunded Class = iota
	// JustInTime: the customer pays the amount before jitFundingExpiresAt;
	// the payment waits in AWAITING_FUNDING until then. Payin JIT_FUNDING
	// or JIT, and any payment in AWAITING_FUNDING or with a
	// jitFundingExpiresAt, whatever its payin says: the document says
	// that state "applies only to just-in-time (JIT) funded payments".
	JustInTime
	// Credit: invoiced later: payin CREDIT_FUNDING or the deprecated
	// T_PLUS_ONE.
	Credit
	// Other: a payin this build does not know, shown by its own name.
	Other
	// NClasses is the number of classes.
	NClasses
)

// Payin values: the quote's payinCategory values of the vendor's document
// (the payment's payin is "how this payment is funded", a free string,
// example FUNDED) and JIT, which a server built from the document sends
// for just-in-time payments.
const (
	PayinPrefunding = "PRE_FUNDING"
	PayinFunded     = "FUNDED" // deprecated: PRE_FUNDING
	PayinJIT        = "JIT_FUNDING"
	PayinJITShort   = "JIT"
	PayinCredit     = "CREDIT_FUNDING"
	PayinTPlusOne   = "T_PLUS_ONE" // deprecated: CREDIT_FUNDING
)

// Label is the class as every surface names it.
func (c Class) Label() string {
	switch c {
	case Prefunded:
		return "prefunded"
	case JustInTime:
		return "just in time"
	case Credit:
		return "credit"
	}
	return "other"
}

// Word is the class as data outputs name it (a CSV cell, a JSON value).
func (c Class) Word() string {
	switch c {
	case Prefunded:
		return "PREFUNDED"
	case JustInTime:
		return "JIT"
	case Credit:
		return "CREDIT"
	}
	return "OTHER"
}

// Funding is a payment's funding: its class and the payin it said.
type Funding struct {
	Class Class
	// Payin is the originator's payin as received ("" when not said).
	Payin string
}

// Name is the funding as a surface names it: the class, or for a payin
// this build does not know, that payin.
func (f Funding) Name() string {
	if f.Class == Other {
		return f.Payin
	}
	return f.Class.Word()
}

// FundingOf is how p is funded (Class says by what rule).
func FundingOf(p *payments.Payment) Funding {
	f := Funding{Payin: p.Originator.Payin}
	if p.PaymentState == payments.AwaitingFunding || !p.JITFundingExpiresAt.IsZero() {
		f.Class = JustInTime
		return f
	}
	switch strings.ToUpper(strings.TrimSpace(f.Payin)) {
	case "", PayinPrefunding, PayinFunded:
		f.Class = Prefunded
	case PayinJIT, PayinJITShort:
		f.Class = JustInTime
	case PayinCredit, PayinTPlusOne:
		f.Class = Credit
	default:
		f.Class = Other
	}
	return f
}

// Owed reports whether the customer owes p's amount now: a just-in-time
// payment waiting for its funds (AWAITING_FUNDING). Once funded it moves
// on, and is owed no more.
func Owed(p *payments.Payment) bool {
	return p.PaymentState == payments.AwaitingFunding
}

// PastDue reports whether p is owed and its jitFundingExpiresAt has
// passed at at.
func PastDue(p *payments.Payment, at time.Time) bool {
	return Owed(p) && !p.JITFundingExpiresAt.IsZero() && !at.Before(p.JITFundingExpiresAt)
}

// DueSoon is the span ahead in which an amount owed is "due soon".
const DueSoon = time.Hour

// FundingWords says how p is funded as every surface writes it: its class
// and the payin it said ("just in time (payin JIT)"), a payin this build
// does not know by its name, and for a just-in-time payment when its funds
// are or were due, at (stamp writes a time as the surface does) and
// whether that passed ("…: funds were due by 09:10:00 UTC, past due").
func FundingWords(p *payments.Payment, at time.Time, stamp func(time.Time) string) string {
	f := FundingOf(p)
	s := f.Class.Label()
	if f.Payin != "" {
		s += " (payin " + f.Payin + ")"
	}
	if f.Class == Other {
		s = "payin " + f.Payin + " (not a funding this build knows)"
	}
	due := p.JITFundingExpiresAt
	switch {
	case f.Class != JustInTime || due.IsZero():
		return s
	case !at.IsZero() && PastDue(p, at):
		return s + ": funds were due by " + stamp(due) + ", past due"
	case Owed(p):
		return s + ": funds due by " + stamp(due)
	}
	return s + ": funds were due by " + stamp(due)
}

// DueIn says how long until a due time, or how late it is, at at, to the
// minute: "in 45m", "in 2h05m", "late 30m", "late 1d3h"; "" for no due
// time.
func DueIn(due, at time.Time) string {
	if due.IsZero() {
		return ""
	}
	if left := due.Sub(at); left > 0 {
		return "in " + minutes(left+time.Minute-1) // 30 s left is "in 1m", never "in 0m"
	}
	return "late " + minutes(at.Sub(due))
}

// minutes is a span to the minute (cut, not rounded): "0m", "45m",
// "2h05m", "3d4h".
func minutes(d time.Duration) string {
	m := int(d / time.Minute)
	switch {
	case m < 60:
		return strconv.Itoa(m) + "m"
	case m < 48*60:
		return fmt.Sprintf("%dh%02dm", m/60, m%60)
	}
	return fmt.Sprintf("%dd%dh", m/(24*60), m%(24*60)/60)
}
