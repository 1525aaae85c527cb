package paystats

// ExplainRunway says how the runway is computed, for help (?).
func ExplainRunway() string {
	return "Runway: the available prefunded balance of a currency divided by the pace at which payments draw it, at two paces. " +
		"The weighted pace is the net outflow to payments per hour of the ledger's last 24h, each movement weighted by e^(-age/window), the window runway_window (6h unless configured) " +
		"(a top-up from the bank is funding, not outflow, and is left out). The 15m pace is the net outflow of the last 15 minutes, times 4. " +
		"The shorter runway is shown (marked 15m when it is the 15-minute one), sets the alert and the hours the exposure's prefunded payments take; past 30 days it reads > 30 d, on screen and in treasury get alike. " +
		"Empty is when the balance runs out at that pace."
}

// ExplainExposure says how the exposure of the payments in flight is
// computed, for help (?).
func ExplainExposure() string {
	return "Exposure: the payments in flight (initiated, not finished) per currency, by funding class as the vendor's document defines it. " +
		"out is what they pay out; from is what the prefunded ones (payin PRE_FUNDING, FUNDED, or none said) draw from the prefunded account, " +
		"beside its available balance (the Balances view's Available) and in hours at the pace that drives its runway (marked 15m when the last 15 minutes' does); " +
		"owed is what the just-in-time ones (payin JIT_FUNDING or JIT, and any payment AWAITING_FUNDING or with a jitFundingExpiresAt) waiting for their funds are owed by the customer, " +
		"how many are past their jitFundingExpiresAt, when the next is due and what is due within the hour; " +
		"else is the rest, each by its class: just-in-time payments whose funds came (JIT funded), credit (CREDIT_FUNDING, T_PLUS_ONE), and a payin this build does not know by its name."
}

// ExplainFailureRate says what the failure rate counts, for help (?).
func ExplainFailureRate() string {
	return "Failure rate: of the payments that finished in the window (their last change, to COMPLETED, RETURNED, FAILED or DECLINED, in it, " +
		"whenever they were initiated), the share that FAILED or were DECLINED. The FAILURE_RATE alert computes it the same way over its own window (1h unless configured): in the 1h window the two figures are one."
}
