package figures

import (
	"strconv"
	"strings"

	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Retry is a retry verdict, in order of strictness: a retry that would
// fail again outranks one that may succeed.
type Retry int

// Verdicts.
const (
	// RetryNone: no verdict (a payment that has not failed).
	RetryNone Retry = iota
	RetryYes
	RetryUnknown
	RetryNotYet
	RetryNo
)

// Word is the verdict as every surface writes it: YES, UNKNOWN, NOT YET,
// NO; "" for none.
func (r Retry) Word() string {
	switch r {
	case RetryYes:
		return "YES"
	case RetryUnknown:
		return "UNKNOWN"
	case RetryNotYet:
		return "NOT YET"
	case RetryNo:
		return "NO"
	}
	return ""
}

// retryOf is the verdict of one error of a payment in state st: Advise's
// first word, judged without writing its texts.
func retryOf(st payments.State, pe payments.PaymentError) Retry {
	if st == payments.Returned {
		return RetryNo
	}
	switch entryClass(pe) {
	case apierr.ClassRetry:
		return RetryYes
	case apierr.ClassResolve:
		return RetryNotYet
	case apierr.ClassFixRequest, apierr.ClassNotFound, apierr.ClassOperator, apierr.ClassForbidden, apierr.ClassRefreshAuth:
		return RetryNo
	}
	return RetryUnknown
}

// deciding is the index of the error the verdict of errs is (the first of
// the strictest), and that verdict; -1 without errors.
func deciding(st payments.State, errs []payments.PaymentError) (int, Retry) {
	best, word := -1, RetryNone
	for i, e := range errs {
		if r := retryOf(st, e); r > word {
			best, word = i, r
		}
	}
	return best, word
}

// RetryOf is the one retry verdict of p, as Verdict judges it (without its
// texts): of its errors the strictest; a terminal failure without an error
// entry UNKNOWN (RETURNED: NO); RetryNone for a payment that has not
// failed and holds no error.
func RetryOf(p *payments.Payment) Retry {
	if len(p.Errors) == 0 {
		switch {
		case p.PaymentState == payments.Returned:
			return RetryNo
		case p.PaymentState.FailedTerminal():
			return RetryUnknown
		}
		return RetryNone
	}
	_, r := deciding(p.PaymentState, p.Errors)
	return r
}

// Retryable reports whether p's verdict is to retry it (YES): exactly the
// payments of the retryable scope and of `treasury get payments
// --retryable`.
func Retryable(p *payments.Payment) bool { return RetryOf(p) == RetryYes }

// Verdict is one retry verdict for a payment in state st with errors
// errs (in the order the platform gave them): Advise's for one error;
// for several, the strictest one's (NO before NOT YET before UNKNOWN
// before YES), with Why naming the codes that disagree. A terminal
// failure without an error entry gets what its state says and a verdict
// that asks for the record read by id, never a code it does not hold.
func Verdict(st payments.State, errs []payments.PaymentError) Advice {
	switch {
	case len(errs) == 0 && st == payments.Returned:
		return Advise(st, payments.PaymentError{})
	case len(errs) == 0:
		a := Advice{State: payments.StateMeaning(st)}
		if st.FailedTerminal() {
			a.Word = RetryUnknown
			a.Retry = "UNKNOWN: the record holds no error code."
			a.Todo = "Read the payment by id (GET /v3/payments/{id}) for its errors; if it has none, contact the operator's support with the paymentId and the time of its state before resubmitting."
		}
		return a
	case len(errs) == 1:
		return Advise(st, errs[0])
	}
	i, _ := deciding(st, errs)
	best := Advise(st, errs[i])
	var words []string
	agree := true
	for _, e := range errs {
		w := retryOf(st, e)
		agree = agree && w == best.Word
		words = append(words, e.Code+" "+w.Word())
	}
	if !agree {
		best.Why = "the errors disagree (" + strings.Join(words, ", ") + "): the strictest holds."
	}
	return best
}

// VerdictOf is p's verdict (Verdict of its state and errors).
func VerdictOf(p *payments.Payment) Advice { return Verdict(p.PaymentState, p.Errors) }

// Codes are the codes of p's errors, in the order given.
func Codes(p *payments.Payment) []string {
	out := make([]string, 0, len(p.Errors))
	for _, e := range p.Errors {
		out = append(out, e.Code)
	}
	return out
}

// ErrorCodes is p's error codes as a list's Error column writes them: the
// first, then how many more ("SYS_010 +1"); "" without errors.
func ErrorCodes(p *payments.Payment) string {
	switch n := len(p.Errors); n {
	case 0:
		return ""
	case 1:
		return p.Errors[0].Code
	default:
		return p.Errors[0].Code + " +" + strconv.Itoa(n-1)
	}
}

// Reason is the error p is counted under in the reason groups: the one
// its verdict is of (the first of the strictest), so that a group's
// payments share its verdict; ok is false without errors.
func Reason(p *payments.Payment) (payments.PaymentError, bool) {
	i, _ := deciding(p.PaymentState, p.Errors)
	if i < 0 {
		return payments.PaymentError{}, false
	}
	return p.Errors[i], true
}
