package paystats

// ExplainRunway says how the runway is computed, for help (?).
func ExplainRunway() string {
	return "Runway: the available prefunded balance of a currency divided by the pace at which payments draw it, at two paces. " +
		"The weighted pace is the net outflow to payments per hour of the ledger's last 24h, each movement weighted by e^(-age/window), the window runway_window (6h unless configured) " +
		"(a top-up from the bank is funding, not outflow, and is left out). The 15m pace is the net outflow of the last 15 minutes, times 4. " +
		"The shorter runway is shown (marked 15m when it is the 15-minute one) and sets the alert; past 30 days it reads > 30 d. " +
		"Empty is when the balance runs out at that pace."
}

// ExplainExposure says how the exposure of the payments in flight is
// computed, for help (?).
func ExplainExposure() string {
	return "Exposure: the payments in flight (initiated, not finished) per currency, by funding (the originator's payin). " +
		"out is what they pay out; from is what the prefunded ones (PRE_FUNDING, FUNDED, or none said) draw from the prefunded account, " +
		"beside its available balance (the Balances view's Available) and in hours of the weighted outflow; " +
		"owed is what the just-in-time ones (JIT_FUNDING) waiting for funds are owed by the customer, with the first due time " +
		"(jitFundingExpiresAt) and what is due within the hour; else is what is funded otherwise (CREDIT_FUNDING, T_PLUS_ONE, or a payin this build does not know)."
}

// ExplainFailureRate says what the failure rate counts, for help (?).
func ExplainFailureRate() string {
	return "Failure rate: of the payments that finished in the window (their last change, to COMPLETED, RETURNED, FAILED or DECLINED, in it, " +
		"whenever they were initiated), the share that FAILED or were DECLINED. The FAILURE_RATE alert computes it the same way over its own window (1h unless configured): in the 1h window the two figures are one."
}
