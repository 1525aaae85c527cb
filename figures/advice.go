package figures

import (
	"encoding/json"

	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// Advice is what to tell an operator about a payment's error: whether a new
// attempt can succeed and what to do, from the spec's tables (3.1 for the
// state, 7.1 for the code). Every surface shows the same words: the
// payment's detail, the list, the ticket, `treasury get` and the CSVs.
type Advice struct {
	Class apierr.Class
	// Word is the verdict (RetryYes...); Retry says it in words, its
	// first word(s) Word's.
	Word  Retry
	Retry string
	Todo  string
	State string // what the state means (spec 3.1)
	// Code is the code of the error the verdict is of: for several, the
	// strictest's (Verdict); "" without one.
	Code string
	// Why, for a verdict over several errors that disagree, says which
	// said what (Verdict); "" otherwise.
	Why string
}

// classify runs the payment's error entry through apierr's classification
// of payments codes (the code decides, not the status), for its guidance.
func classify(pe payments.PaymentError) *apierr.Error {
	body, _ := json.Marshal(apierr.PaymentsBody{Code: pe.Code, Type: pe.Type, Title: pe.Title,
		Description: pe.Description, Timestamp: pe.Timestamp})
	return apierr.Parse(apierr.Payments, "GET", payments.PathPaymentV3+"{id}", 0, body)
}

// newPayment is how any new attempt must be made: a failed payment is
// never retried in place, and creating with the same internalId returns
// this payment instead of a new one (spec 5).
const newPayment = " A new attempt is a new payment: a fresh quote and a new internalId (the same internalId returns this payment)."

// Advise tells what to do about a payment in state st with error pe.
func Advise(st payments.State, pe payments.PaymentError) Advice {
	a := Advice{Class: entryClass(pe), Word: retryOf(st, pe), State: payments.StateMeaning(st), Code: pe.Code}
	if st == payments.Returned {
		a.Retry = "NO: a returned payment is not a retry case."
		a.Todo = "Check the beneficiary's account details with the beneficiary before paying again." + newPayment
		return a
	}
	switch a.Class {
	case apierr.ClassRetry:
		a.Retry = "YES: a transient system error (" + pe.Code + ")."
		a.Todo = "Resubmit once the platform is healthy; if it recurs, report the code and timestamp to the operator's support." + newPayment
	case apierr.ClassResolve:
		a.Retry = "NOT YET: not until the account condition is resolved."
		a.Todo = classify(pe).Guidance() + newPayment
	case apierr.ClassFixRequest, apierr.ClassNotFound:
		a.Retry = "NO: resubmitting it unchanged fails again."
		a.Todo = "Correct the cause (beneficiary, account, instrument, compliance data) first." + newPayment
	case apierr.ClassOperator:
		a.Retry = "NO: a configuration problem on the platform side."
		a.Todo = classify(pe).Guidance()
	case apierr.ClassForbidden, apierr.ClassRefreshAuth:
		a.Retry = "NO: not with these credentials."
		a.Todo = classify(pe).Guidance()
	default:
		a.Retry = "UNKNOWN: the code is not classified by the spec."
		a.Todo = "Contact the operator's support with the code and timestamp before resubmitting."
	}
	return a
}

// entryClass is the class of an error entry, as Advise and every verdict
// judge it.
func entryClass(pe payments.PaymentError) apierr.Class {
	return apierr.EntryClass(pe.Code, pe.Type, pe.Title, pe.Description)
}
