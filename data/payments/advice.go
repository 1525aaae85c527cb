package payments

import (
	"encoding/json"

	"treasury/data/apierr"
)

// Advice is what to tell an operator about a payment's error: whether a new
// attempt can succeed and what to do, from the spec's tables (3.1 for the
// state, 7.1 for the code). The dashboard's payment detail and `treasury
// get` show the same words.
type Advice struct {
	Class apierr.Class
	Retry string // the verdict, first word YES, NO, NOT YET or UNKNOWN
	Todo  string
	State string // what the state means (spec 3.1)
	// Why, for a verdict over several errors that disagree, says which
	// said what (Verdict); "" otherwise.
	Why string
}

// classify runs the payment's error entry through apierr's classification
// of payments codes (the code decides, not the status).
func classify(pe PaymentError) *apierr.Error {
	body, _ := json.Marshal(apierr.PaymentsBody{Code: pe.Code, Type: pe.Type, Title: pe.Title,
		Description: pe.Description, Timestamp: pe.Timestamp})
	return apierr.Parse(apierr.Payments, "GET", PathPaymentV3+"{id}", 0, body)
}

// StateMeaning says what a state means and, for a terminal failure, spec
// 3.1's handling of it (the other states as the vendor's document
// describes them); "" for a state it does not know.
func StateMeaning(st State) string {
	switch st {
	case Quoted:
		return "QUOTED: a quote exists and the payment was never initiated; it lapses at expiresAt unless accepted."
	case AwaitingFunding:
		return "AWAITING_FUNDING: a just-in-time funded payment waits for its funds to reach the ledger account before jitFundingExpiresAt."
	case Initiated:
		return "INITIATED: submitted, waiting to be validated; not terminal."
	case Validating:
		return "VALIDATING: the details are checked and the funds reserved from the available balance; not terminal."
	case Transferring:
		return "TRANSFERRING: the funds are moving through the network toward the beneficiary; not terminal."
	case Completed:
		return "COMPLETED: the beneficiary has received the funds. It can still be RETURNED later by a downstream institution."
	case Failed:
		return "FAILED is terminal and may be transient or permanent: the error code decides."
	case Declined:
		return "DECLINED is terminal: usually a business rule or account condition such as insufficient balance or credit limit; resolve it before resubmitting."
	case Returned:
		return "RETURNED is terminal: a downstream institution returned the payment after it completed; not a retry case."
	}
	return ""
}

// newPayment is how any new attempt must be made: a failed payment is
// never retried in place, and creating with the same internalId returns
// this payment instead of a new one (spec 5).
const newPayment = " A new attempt is a new payment: a fresh quote and a new internalId (the same internalId returns this payment)."

// Advise tells what to do about a payment in state st with error pe.
func Advise(st State, pe PaymentError) Advice {
	ae := classify(pe)
	a := Advice{Class: ae.Class, State: StateMeaning(st)}
	if st == Returned {
		a.Retry = "NO: a returned payment is not a retry case."
		a.Todo = "Check the beneficiary's account details with the beneficiary before paying again." + newPayment
		return a
	}
	switch ae.Class {
	case apierr.ClassRetry:
		a.Retry = "YES: a transient system error (" + pe.Code + ")."
		a.Todo = "Resubmit once the platform is healthy; if it recurs, report the code and timestamp to the operator's support." + newPayment
	case apierr.ClassResolve:
		a.Retry = "NOT YET: not until the account condition is resolved."
		a.Todo = ae.Guidance() + newPayment
	case apierr.ClassFixRequest, apierr.ClassNotFound:
		a.Retry = "NO: resubmitting it unchanged fails again."
		a.Todo = "Correct the cause (beneficiary, account, instrument, compliance data) first." + newPayment
	case apierr.ClassOperator:
		a.Retry = "NO: a configuration problem on the platform side."
		a.Todo = ae.Guidance()
	case apierr.ClassForbidden, apierr.ClassRefreshAuth:
		a.Retry = "NO: not with these credentials."
		a.Todo = ae.Guidance()
	default:
		a.Retry = "UNKNOWN: the code is not classified by the spec."
		a.Todo = "Contact the operator's support with the code and timestamp before resubmitting."
	}
	return a
}
