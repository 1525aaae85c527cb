package payments

import (
	"strings"
)

// Verdict is one retry verdict for a payment in state st with errors
// errs (in the order the platform gave them): Advise's for one error;
// for several, the strictest one's (NO before NOT YET before UNKNOWN
// before YES), with Why naming the codes that disagree. A terminal
// failure without an error entry gets what its state says and a verdict
// that asks for the record read by id, never a code it does not hold.
func Verdict(st State, errs []PaymentError) Advice {
	switch {
	case len(errs) == 0 && st == Returned:
		return Advise(st, PaymentError{})
	case len(errs) == 0:
		a := Advice{State: StateMeaning(st)}
		if st.FailedTerminal() {
			a.Retry = "UNKNOWN: the record holds no error code."
			a.Todo = "Read the payment by id (GET /v3/payments/{id}) for its errors; if it has none, contact the operator's support with the paymentId and the time of its state before resubmitting."
		}
		return a
	case len(errs) == 1:
		return Advise(st, errs[0])
	}
	best, bestRank := Advice{}, -1
	var words []string
	agree := true
	first := ""
	for _, e := range errs {
		a := Advise(st, e)
		w := retryWord(a.Retry)
		if first == "" {
			first = w
		}
		agree = agree && w == first
		words = append(words, e.Code+" "+w)
		if r := strictness(w); r > bestRank {
			best, bestRank = a, r
		}
	}
	if !agree {
		best.Why = "the errors disagree (" + strings.Join(words, ", ") + "): the strictest holds."
	}
	return best
}

// retryWord is a verdict's first word(s): YES, NO, NOT YET or UNKNOWN.
func retryWord(retry string) string {
	w, _, _ := strings.Cut(retry, ":")
	return w
}

// strictness orders verdicts: a retry that would fail again outranks one
// that may succeed.
func strictness(word string) int {
	switch word {
	case "NO":
		return 3
	case "NOT YET":
		return 2
	case "UNKNOWN":
		return 1
	}
	return 0
}
