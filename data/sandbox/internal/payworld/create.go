package payworld

import (
	"net/http"
	"time"

	"treasury/data/apierr"
	"treasury/data/money"
	"treasury/data/payments"
	"treasury/data/sandbox/internal/authsim"
	"treasury/data/sandbox/internal/simkit"
)

// quoteLifetime is how long a quote can create a payment.
const quoteLifetime = 5 * time.Minute

// maxQuoteMinor caps a quote; above the account's balance a payment gets 402.
const maxQuoteMinor = 100_000_000_00

type quote struct {
	corridor int
	amount   int64 // minor units
	rec      payments.Quote
	expires  int64
}

// createQuote answers POST /v2/quotes. A pair the org has no corridor for
// is a configuration matter: 500 CFG_002.
func (w *World) createQuote(rw http.ResponseWriter, r *http.Request, _ authsim.Claims) {
	var req payments.QuoteRequest
	if err := simkit.ReadJSON(r, &req); err != nil {
		w.badRequest(rw, "The body must be a JSON quote request: "+err.Error())
		return
	}
	amt := req.SourceAmount.Decimal.Shift(2)
	if req.SourceCurrency == "" || req.DestinationCurrency == "" || !amt.IsInteger() || !amt.IsPositive() ||
		amt.IntPart() > maxQuoteMinor {
		w.badRequest(rw, "sourceCurrency, destinationCurrency and a positive sourceAmount with at most two decimals (up to 100000000.00) are required.")
		return
	}
	ci := -1
	for i, c := range w.corr {
		if c.src == req.SourceCurrency && c.dst == req.DestinationCurrency {
			ci = i
		}
	}
	if ci < 0 {
		w.fail(rw, http.StatusInternalServerError, "CFG_002", apierr.TypeConfiguration, "Configuration Error",
			"The corridor "+simkit.Quoted(req.SourceCurrency)+" to "+simkit.Quoted(req.DestinationCurrency)+" is not configured for your organization; contact support.")
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.processed
	rate := w.quotedRate(ci, now)
	src := minor(amt.IntPart())
	q := &quote{corridor: ci, amount: amt.IntPart(), expires: now + quoteLifetime.Milliseconds()}
	q.rec = payments.Quote{
		QuoteID:        simkit.UUIDOf(w.seed, simkit.Key("quote"), w.quoteCount),
		SourceCurrency: req.SourceCurrency, SourceAmount: money.N(src), DestinationCurrency: req.DestinationCurrency,
		DestinationAmount: money.N(src.Mul(rate).Round(2)), ExchangeRate: money.N(rate),
		CreatedAt: ms(now), ExpiresAt: ms(q.expires),
	}
	w.quoteCount++
	for id, old := range w.quotes {
		if old.expires < now {
			delete(w.quotes, id)
		}
	}
	w.quotes[q.rec.QuoteID] = q
	simkit.WriteJSON(rw, http.StatusCreated, q.rec)
}

// create answers POST /v3/payments: 201 with the payment; the same
// internalId again answers the existing payment; 402 USR_067 when the
// prefunded account cannot cover the amount.
func (w *World) create(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	var req payments.CreatePaymentRequest
	if err := simkit.ReadJSON(r, &req); err != nil {
		w.badRequest(rw, "The body must be a JSON payment request: "+err.Error())
		return
	}
	if req.QuoteID == "" || req.BeneficiaryIdentityID == "" || req.BeneficiaryFinancialInstrumentID == "" {
		w.badRequest(rw, "quoteId, beneficiaryIdentityId and beneficiaryFinancialInstrumentId are required.")
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if req.InternalID != "" {
		if seq, ok := w.lookupInternal(req.InternalID); ok {
			simkit.WriteJSON(rw, http.StatusCreated, w.record(seq, w.processed, true))
			return
		}
	}
	now := w.processed
	q := w.quotes[req.QuoteID]
	if q == nil || q.expires < now {
		w.badRequest(rw, "quoteId "+simkit.Quoted(req.QuoteID)+" is unknown or expired; request a new quote.")
		return
	}
	bi, ok := w.benIndex[req.BeneficiaryIdentityID]
	if !ok {
		w.notFound(rw, "beneficiary identity with id "+simkit.Quoted(req.BeneficiaryIdentityID))
		return
	}
	ben := &w.bens[bi]
	instr := -1
	for i, in := range ben.instruments {
		if in.id == req.BeneficiaryFinancialInstrumentID {
			instr = i
		}
	}
	if instr < 0 || ben.corridor != q.corridor {
		w.badRequest(rw, "The financial instrument does not belong to the beneficiary or does not match the quote's corridor.")
		return
	}
	a := &w.accounts[currencyIndex(w.corr[q.corridor].src)]
	if a.available() < q.amount {
		w.fail(rw, http.StatusPaymentRequired, "USR_067", apierr.TypeUser, "Insufficient balance",
			"Payment failed due to insufficient balance. Add funds to your account and try again.")
		return
	}
	seq := uint32(len(w.pays))
	p := w.synthPay(seq, now)
	p.amount, p.ben, p.flags = q.amount, uint16(bi), fCreated
	labels := req.PaymentLabels
	if labels == nil {
		labels = []string{}
	}
	w.pays = append(w.pays, p)
	w.indexID(seq)
	w.created[seq] = &createdInfo{internalID: req.InternalID, labels: labels, instrument: instr}
	if req.InternalID != "" {
		w.byInternal[req.InternalID] = seq
	}
	delete(w.quotes, req.QuoteID)
	w.nextArrival++
	w.apply(pending{at: now, seq: seq})
	simkit.WriteJSON(rw, http.StatusCreated, w.record(seq, now, true))
}
