package payments

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
